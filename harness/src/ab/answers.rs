//! Answers first: both builds solve the same inputs, and a record is timed
//! only when they agree. A difference is a verdict of its own ("broke");
//! a build that crashes or hangs where the other does not has the input
//! that does it found and shrunk.

use super::build::Build;
use super::oneshot;
use super::plan::Planned;
use crate::allocations::Counted;
use crate::engine::serve::{Answers, Lines, Request};
use crate::entry::Suite;
use crate::error::Error;
use reports::compare::Verdict;
use reports::excerpt;
use std::path::Path;

/// A batch both builds answered alike.
#[derive(Clone, Debug)]
pub struct Batch {
    /// Its inputs, as the builds read them (a restarted build loads them
    /// again).
    pub lines: Vec<String>,
    /// How many.
    pub inputs: usize,
    /// Its throughput elements, where a serve-mode build said (else 1).
    pub elements: u64,
    /// What A's and B's processes allocated on one untimed pass over it,
    /// where each said (a serve-mode build of protocol 3 whose allocator
    /// counts).
    pub allocations: [Option<Counted>; 2],
    /// A's and B's core clocks in GHz, as each calibrated it after loading
    /// the batch, where each said (protocol 3).
    pub ghz: [Option<f64>; 2],
}

/// How a record's answers compared.
pub enum Compared {
    /// The same on every input.
    Agree(Batch),
    /// Different: the verdict and the commands that show it.
    Differ(Verdict, Vec<String>),
}

/// Gets the inputs once and both builds' answers on them (serve-mode
/// children keep the batch loaded for timing); `Err`: the record cannot
/// be compared.
pub fn answers(
    suite: Option<&Suite>,
    p: &Planned,
    seed: u64,
    a: &mut Build,
    b: &mut Build,
    files: &Path,
) -> Result<Compared, Verdict> {
    let not = |who: &str, e: Error| Verdict::NotComparable(format!("{who}: {e}"));
    let lines = match (&mut a.child, &mut b.child) {
        (Some((child, _)), _) | (None, Some((child, _))) => child
            .request::<Lines>(&Request::Inputs {
                workload: p.workload.clone(),
                set: p.set.clone(),
                seed,
            })
            .map(|l| l.lines),
        (None, None) => oneshot::inputs(&a.side.exe, &p.workload, &p.set, seed),
    }
    .map_err(|e| not("inputs", e))?;
    let stem = p.stem();
    let file = files.join(format!("{stem}.txt"));
    let (from_a, from_b) = (load(a, p, &lines, &file), load(b, p, &lines, &file));
    let (from_a, from_b) = match (from_a, from_b, a.fault(), b.fault()) {
        (Ok(x), Ok(y), ..) => (x, y),
        (Ok(_), Err(_), _, Some(fault)) => {
            let (why, repro) = faulted(suite, p, &lines, &fault, [b, a]);
            return Ok(Compared::Differ(Verdict::Broke(why), repro));
        }
        (Err(_), Ok(_), Some(fault), _) => {
            let (why, _) = faulted(suite, p, &lines, &fault, [a, b]);
            return Ok(Compared::Differ(Verdict::Fixed(why), Vec::new()));
        }
        (Err(ea), Err(eb), ..) if a.fault().is_some() || b.fault().is_some() => {
            return Err(Verdict::NotComparable(format!(
                "both builds failed: A: {ea}; B: {eb}"
            )));
        }
        (Ok(_), Err(e @ Error::Failed(_)), ..) => {
            let why = format!("B failed where A did not: {e}");
            return Ok(Compared::Differ(Verdict::Broke(why), Vec::new()));
        }
        (Err(e), ..) => return Err(not("A", e)),
        (_, Err(e), ..) => return Err(not("B", e)),
    };
    let Some(i) = (0..lines.len()).find(|&i| from_a.outputs.get(i) != from_b.outputs.get(i)) else {
        return Ok(Compared::Agree(Batch {
            inputs: lines.len(),
            lines,
            elements: from_a.elements.max(from_b.elements),
            allocations: [from_a.allocations, from_b.allocations],
            ghz: [from_a.ghz, from_b.ghz],
        }));
    };
    let input = files.join(format!("{stem}-broke-{i}.txt"));
    write_lines(&input, std::slice::from_ref(&lines[i])).map_err(|e| not("repro", e))?;
    let (a_said, b_said) = (from_a.outputs.get(i), from_b.outputs.get(i));
    let text = |x: Option<&String>| x.cloned().unwrap_or_default();
    let cut = excerpt::disagreement(&lines[i], &text(a_said), &text(b_said));
    let shown = |x: Option<&String>, s: &str| x.map_or("nothing".to_owned(), |_| format!("'{s}'"));
    let why = format!(
        "answers differ on input '{}' (#{} of {}): A {}, B {}",
        cut.input,
        i + 1,
        p.set,
        shown(a_said, &cut.expected),
        shown(b_said, &cut.got)
    );
    let repro = [&a.side, &b.side]
        .iter()
        .map(|s| {
            format!(
                "{} solve {} --variant {} --input-file {}",
                s.exe.display(),
                p.workload,
                p.variant,
                input.display()
            )
        })
        .collect();
    Ok(Compared::Differ(Verdict::Broke(why), repro))
}

/// `build`'s answers on `lines`: a serve-mode child loads them (and says
/// the batch's elements, what a pass allocated and its clock); a build
/// without serve mode solves them from `file` and says nothing else.
fn load(build: &mut Build, p: &Planned, lines: &[String], file: &Path) -> Result<Answers, Error> {
    match &mut build.child {
        Some((child, _)) => child.request::<Answers>(&loading(p, lines, true)),
        None => {
            write_lines(file, lines)?;
            Ok(Answers {
                outputs: oneshot::solve(&build.side.exe, &p.workload, &p.variant, file)?,
                elements: 1,
                allocations: None,
                ghz: None,
            })
        }
    }
}

/// The request that loads `p`'s batch of `lines` into a serve-mode child;
/// `measure`: also count a pass's allocations and calibrate the clock.
pub fn loading(p: &Planned, lines: &[String], measure: bool) -> Request {
    Request::Load {
        workload: p.workload.clone(),
        variant: p.variant.clone(),
        inputs: lines.to_vec(),
        measure,
    }
}

/// One build (`builds[0]`) faulted on a record's batch where the other did
/// not: the input that does it, found and shrunk in fresh processes of
/// that build (shrunk where `suite` knows the workload), in words, and
/// both builds' `solve` lines for it.
fn faulted(
    suite: Option<&Suite>,
    p: &Planned,
    lines: &[String],
    fault: &crate::fault::Fault,
    builds: [&Build; 2],
) -> (String, Vec<String>) {
    let sides = builds.map(|b| &b.side);
    let prober = crate::fault::probe::Prober {
        exe: sides[0].exe.clone(),
        workload: &p.workload,
        variant: &p.variant,
        deadline: builds[0].timeout,
        expected: None,
    };
    let shrink = |line: &str| {
        suite
            .and_then(|s| s.find(&p.workload).ok())
            .map(|w| w.shrink_text(line))
            .unwrap_or_default()
    };
    let (me, other) = (&sides[0].label, &sides[1].label);
    match prober.search(lines.to_vec(), fault, &shrink) {
        Ok(found) if !found.inputs.is_empty() => {
            let shown = found.inputs.iter();
            let shown: Vec<String> = shown
                .map(|i| format!("'{}'", excerpt::around(i, 0)))
                .collect();
            let why = format!(
                "{me} {} on input {} where {other} does not",
                found.fault.describe(),
                shown.join(" ")
            );
            let repro = sides
                .iter()
                .map(|s| {
                    let exe = s.exe.display().to_string();
                    crate::repro::solve_line(
                        &exe,
                        &p.workload,
                        Some(&p.variant),
                        &found.inputs,
                        found.fault.deadline(),
                    )
                })
                .collect();
            (why, repro)
        }
        Ok(_) => (
            format!(
                "{me} {} on the batch of {} (no single input found) where {other} does not",
                fault.describe(),
                p.set
            ),
            Vec::new(),
        ),
        Err(e) => (
            format!(
                "{me} {} on {} where {other} does not ({e})",
                fault.describe(),
                p.set
            ),
            Vec::new(),
        ),
    }
}

pub fn write_lines(path: &Path, lines: &[String]) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::usage(format!("{}: cannot write: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(path, lines.join("\n") + "\n").map_err(io)
}
