//! `history bisect`: the first commit on the first-parent line GOOD..BAD
//! where one record moved beyond a threshold relative to GOOD.
//!
//! A binary search over the line, assuming (as `git bisect` does) that the
//! record stays moved once it has: after GOOD and BAD, about log2(n)
//! builds. Instructions are the default because a count is exact, so one
//! probe settles a commit; wall time is paired, GOOD and the candidate
//! alternating on one core as `ab` measures them, which sees a few percent
//! where two separate runs would not. A probe that cannot be built or
//! measured ends the search (a skipped probe would leave the answer open).

use super::Commit;
use crate::ab::{self, oneshot};
use crate::attribution::{self, Attribution};
use crate::error::Error;
use crate::revision::{Builder, Built, Side};
use reports::compare::Verdict;
use reports::{Metric, Status};
use std::path::PathBuf;
use std::time::Duration;

/// What `history bisect` should do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The revision the record is judged against.
    pub good: String,
    /// The revision where it has moved.
    pub bad: String,
    /// The record: workload, variant and input set.
    pub record: [String; 3],
    /// Instructions (exact) or time (paired).
    pub metric: Metric,
    /// Judge the answers only (a changed answer, a crash or a hang moves
    /// the record); `metric` is then time, never measured.
    pub answers: bool,
    /// Percent change that counts; default: 1.
    pub threshold_pct: Option<f64>,
    /// Paired measuring time per probe (time only); default: 2 s.
    pub seconds: Option<f64>,
    /// Seed of the generated inputs.
    pub seed: u64,
}

/// One measured commit.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The commit.
    pub commit: Commit,
    /// Instructions per element (instructions only).
    pub value: Option<f64>,
    /// Its change relative to GOOD, in percent (`None`: answers differ).
    pub change_pct: Option<f64>,
    /// Moved beyond the threshold (or its answers differ from GOOD's).
    pub moved: bool,
    /// Its build's seconds; `None`: a kept build was reused.
    pub build_seconds: Option<f64>,
    /// GOOD itself, the reference.
    pub good: bool,
    /// Its count's results file (instructions only), for [`Outcome::attribution`].
    pub counted: Option<PathBuf>,
}

/// The search's outcome.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// GOOD.
    pub good: Commit,
    /// The threshold applied, in percent.
    pub threshold_pct: f64,
    /// Every probe after GOOD, in the order measured.
    pub probes: Vec<Probe>,
    /// Commits on the line GOOD..BAD.
    pub line: usize,
    /// The first commit that moved; `None`: BAD itself did not.
    pub first_moved: Option<Commit>,
    /// Revisions built anew (kept builds are reused), GOOD included.
    pub builds: usize,
    /// Where the first moved commit's count changed from its parent's on
    /// the line (instructions only).
    pub attribution: Option<Attribution>,
}

const COMMAND: &str = "history bisect";

/// Searches GOOD..BAD; `on_probe` sees GOOD (change 0) and every probe as
/// it is measured.
pub fn run(
    builder: &Builder<'_>,
    options: &Options,
    on_probe: &mut dyn FnMut(&Probe),
) -> Result<Outcome, Error> {
    let good_sha = builder.sha(&options.good)?;
    let bad_sha = builder.sha(&options.bad)?;
    if builder
        .git(&["merge-base", "--is-ancestor", &good_sha, &bad_sha])
        .is_err()
    {
        return Err(Error::usage(format!(
            "{COMMAND}: GOOD '{}' is not an ancestor of BAD '{}'",
            options.good, options.bad
        )));
    }
    let good = super::commits(builder, COMMAND, &good_sha)?.remove(0);
    super::refuse_too_old(builder, COMMAND, &good)?;
    let line = super::commits(builder, COMMAND, &format!("{good_sha}..{bad_sha}"))?;
    let threshold_pct = options
        .threshold_pct
        .unwrap_or_else(|| reports::thresholds::paired(options.metric));
    let mut probe = Prober::new(builder, options, good.clone(), threshold_pct)?;
    on_probe(&probe.reference);
    let mut probes = Vec::new();
    // Positions on the line: 0 is GOOD, `i` is `line[i - 1]`. Invariant:
    // `lo` has not moved, `hi` has.
    let (mut lo, mut hi) = (0, line.len());
    let measured = probe.measure(&line[hi - 1])?;
    on_probe(&measured);
    let bad_moved = measured.moved;
    probes.push(measured);
    let mut first_moved = None;
    if bad_moved {
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            let measured = probe.measure(&line[mid - 1])?;
            on_probe(&measured);
            if measured.moved {
                hi = mid;
            } else {
                lo = mid;
            }
            probes.push(measured);
        }
        first_moved = Some(line[hi - 1].clone());
    }
    let parent = if lo == 0 {
        Some(&probe.reference)
    } else {
        probes.iter().find(|p| p.commit.sha == line[lo - 1].sha)
    };
    let first = first_moved
        .as_ref()
        .and_then(|c| probes.iter().find(|p| p.commit.sha == c.sha));
    let attribution = match (parent, first) {
        (Some(before), Some(after)) if bad_moved => {
            attribute(before, after, &options.record, &probe.files)
        }
        _ => None,
    };
    let builds = usize::from(probe.reference.build_seconds.is_some())
        + probes.iter().filter(|p| p.build_seconds.is_some()).count();
    Ok(Outcome {
        good,
        threshold_pct,
        probes,
        line: line.len(),
        first_moved,
        builds,
        attribution,
    })
}

/// Measures commits against GOOD.
struct Prober<'b, 'o> {
    builder: &'b Builder<'o>,
    options: &'b Options,
    threshold_pct: f64,
    good: Built,
    /// GOOD as a probe: its value, no change.
    reference: Probe,
    files: PathBuf,
}

impl<'b, 'o> Prober<'b, 'o> {
    fn new(
        builder: &'b Builder<'o>,
        options: &'b Options,
        good: Commit,
        threshold_pct: f64,
    ) -> Result<Self, Error> {
        let built = build(builder, &good)?;
        let files = builder.dir().join("files").join("bisect");
        let (value, counted) = match options.metric {
            Metric::Instructions => {
                let (value, counted) = instructions(&built, options, &files)?;
                (Some(value), Some(counted))
            }
            _ => (None, None),
        };
        let reference = Probe {
            commit: good,
            value,
            change_pct: Some(0.0),
            moved: false,
            build_seconds: built.seconds,
            good: true,
            counted,
        };
        Ok(Prober {
            builder,
            options,
            threshold_pct,
            good: built,
            reference,
            files,
        })
    }

    fn measure(&mut self, commit: &Commit) -> Result<Probe, Error> {
        let built = build(self.builder, commit)?;
        let mut probe = Probe {
            commit: commit.clone(),
            value: None,
            change_pct: None,
            moved: true,
            build_seconds: built.seconds,
            good: false,
            counted: None,
        };
        match self.options.metric {
            Metric::Instructions => {
                let (value, counted) = instructions(&built, self.options, &self.files)?;
                probe.counted = Some(counted);
                let base = self.reference.value.unwrap_or(value);
                let change = (value / base - 1.0) * 100.0;
                probe.value = Some(value);
                probe.change_pct = Some(change);
                probe.moved = change.abs() > self.threshold_pct;
            }
            _ => {
                let [w, v, s] = &self.options.record;
                let side = |label, b: &Built| Side {
                    label,
                    name: b.name.clone(),
                    exe: b.exe.clone(),
                };
                let budget = self.options.seconds.unwrap_or(ab::SECONDS_PER_RECORD);
                let row = ab::paired_time(
                    [side("A", &self.good), side("B", &built)],
                    [w, v, s],
                    self.options.seed,
                    Duration::from_secs_f64(budget),
                    self.threshold_pct,
                    &self.files,
                    !self.options.answers,
                )
                .map_err(|e| Error::usage(format!("{COMMAND}: {}: {e}", commit.short())))?;
                probe.change_pct = row.change_pct;
                probe.moved = match row.verdict {
                    Verdict::Regressed
                    | Verdict::Improved
                    | Verdict::Broke(_)
                    | Verdict::Fixed(_) => true,
                    Verdict::NoChange => false,
                    Verdict::NotComparable(why) => {
                        return Err(Error::usage(format!(
                            "{COMMAND}: {}: time not comparable: {why}",
                            commit.short()
                        )));
                    }
                    Verdict::Inconclusive(why) => {
                        return Err(Error::usage(format!(
                            "{COMMAND}: {}: time inconclusive: {why}",
                            commit.short()
                        )));
                    }
                };
            }
        }
        Ok(probe)
    }
}

/// The kept or new build of `commit`, refused when it does not record its
/// commit.
fn build(builder: &Builder<'_>, commit: &Commit) -> Result<Built, Error> {
    let built = builder.revision(&commit.sha)?;
    super::refuse_unrecorded(COMMAND, commit, &built)?;
    Ok(built)
}

/// The record's instructions per element in `built`, from its `count`,
/// and that count's results file.
fn instructions(
    built: &Built,
    options: &Options,
    files: &std::path::Path,
) -> Result<(f64, PathBuf), Error> {
    let [w, v, s] = &options.record;
    let out = files.join(format!("{}-count.json", built.sha));
    let file = oneshot::measure(
        &built.exe,
        &["count"],
        w,
        std::slice::from_ref(v),
        std::slice::from_ref(s),
        options.seed,
        &out,
    )
    .map_err(|e| Error::usage(format!("{COMMAND}: {}: {e}", built.name)))?;
    let record = file
        .records
        .iter()
        .find(|r| {
            r.metric == Metric::Instructions
                && r.workload == *w
                && r.variant == *v
                && r.input_set == *s
        })
        .ok_or_else(|| {
            Error::usage(format!(
                "{COMMAND}: {}: count wrote no instructions of {w}/{v}/{s}",
                built.name
            ))
        })?;
    if record.status != Status::Ok {
        return Err(Error::usage(format!(
            "{COMMAND}: {}: {w}/{v}/{s} not counted: {}",
            built.name,
            record.reason.as_deref().unwrap_or("no reason given")
        )));
    }
    Ok((record.median, out))
}

/// Where the record's count changed from `before` to `after` (two probes
/// with their count files), flame graphs beside `after`'s.
fn attribute(
    before: &Probe,
    after: &Probe,
    [w, v, s]: &[String; 3],
    files: &std::path::Path,
) -> Option<Attribution> {
    let read = |p: &Probe| {
        let path = p.counted.as_ref()?;
        let file = reports::ResultsFile::read(path).ok()?;
        let record = file.records.into_iter().find(|r| {
            r.metric == Metric::Instructions
                && r.workload == *w
                && r.variant == *v
                && r.input_set == *s
        })?;
        Some(record)
    };
    let (a, b) = (read(before)?, read(after)?);
    let flames = after.counted.as_ref()?.with_extension("");
    let dirs = [files; 2];
    // Every commit is built in the builder's export of it, which names
    // itself: no checkout to name files from.
    Some(attribution::changed(
        &a,
        &b,
        Metric::Instructions,
        dirs,
        &flames,
        &[],
    ))
}
