//! `ab`: a paired comparison of two builds of one program.
//!
//! Two runs of `bench` minutes apart differ by the host's drift, which
//! hides a 1 % change. Here both builds run side by side as serve-mode
//! children ([`crate::serve`]); the driver gets every record's inputs once,
//! sends the same text to both, compares their answers (a difference is a
//! verdict of its own, "broke"), then alternates single samples and judges
//! the paired ratios (a sign test, see `stats.rs`). Instruction counts of
//! both builds are compared exactly. Builds without serve mode still get
//! answers and counts, and an unpaired time comparison labelled so.

mod child;
mod instances;
mod modes;
pub mod oneshot;
mod pairs;
mod stats;
mod table;

pub use table::{Outcome, Pinning, Row};

use crate::attribution::{self, Attribution};
use crate::entry::Suite;
use crate::error::Error;
use crate::revision::{self, Side};
use crate::serve::{Answers, Hello, HelloWorkload, Lines, Request};
use child::Child;
use reports::compare::{ALPHA, Format, Verdict, compare, default_threshold, holm_rejects};
use reports::interval::Interval;
use reports::{Disturbance, Metric, Paired, Record, ResultsFile, Status};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Which two builds to compare.
#[derive(Clone, Debug)]
pub enum Builds {
    /// Git revisions of the program's repository; no head: the working tree.
    Revisions {
        /// A.
        base: String,
        /// B.
        head: Option<String>,
    },
    /// Two prebuilt binaries of the program.
    Binaries(PathBuf, PathBuf),
}

/// What `ab` should do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The builds.
    pub builds: Builds,
    /// Workloads; empty: all.
    pub workloads: Vec<String>,
    /// Variants; empty: each workload's declared default.
    pub variants: Vec<String>,
    /// Input sets; empty: each workload's quick bench sets.
    pub sets: Vec<String>,
    /// Metrics judged besides answers; empty: time and instructions.
    pub metrics: Vec<Metric>,
    /// Overrides the default thresholds (1 % each).
    pub threshold_pct: Option<f64>,
    /// Paired measuring time in all; `None`: 2 s per record.
    pub seconds: Option<f64>,
    /// How long a build may take to answer one request.
    pub timeout: Duration,
    /// Seed of the generated inputs.
    pub seed: u64,
    /// Output format.
    pub format: Format,
    /// Results file; default `results/ab-<timestamp>.json`.
    pub out: Option<PathBuf>,
    /// The machine's name, for the results file (the driver writes it:
    /// the builds, maybe older than `--machine`, are never asked).
    pub machine: String,
    /// The core both builds run on (`--core`); `None`: the least busy
    /// core, chosen again for each record.
    pub core: Option<usize>,
    /// Count with the cache simulation (`--cache`): D1 and LL misses can
    /// be judged and ranked per function, and a time change that
    /// instructions do not explain gets the D1 misses' table.
    pub cache: bool,
}

/// Measuring time per record when `--seconds` is not given.
pub const SECONDS_PER_RECORD: f64 = 2.0;

/// How many times its share of the time a record may measure when its
/// pairs spread too wide to resolve the threshold.
pub const EXTEND: u32 = 4;

/// One build: its side and, when it has serve mode, the running child.
struct Build {
    side: Side,
    child: Option<(Child, Hello)>,
    timeout: Duration,
}

impl Build {
    /// Starts `side`'s serve-mode child, answering within `timeout`;
    /// without one (a build from before serve mode) the build still runs
    /// its subcommands.
    fn start(side: Side, timeout: Duration) -> Build {
        let mut build = Build {
            side,
            child: None,
            timeout,
        };
        build.child = build.spawn();
        build
    }

    fn spawn(&self) -> Option<(Child, Hello)> {
        let name = format!("{} ({})", self.side.label, self.side.name);
        // Starting builds every variant: that may take longer than one batch.
        let mut child = Child::spawn(&self.side.exe, &name, self.timeout).ok()?;
        let hello = child.request::<Hello>(&Request::Hello).ok()?;
        Some((child, hello))
    }

    /// Why its child stopped answering, if it did.
    fn fault(&self) -> Option<crate::fault::Fault> {
        self.child.as_ref().and_then(|(c, _)| c.fault().cloned())
    }

    /// A fresh child in place of one that crashed or hung, for the records
    /// that follow.
    fn revive(&mut self) {
        if self.fault().is_some() {
            self.child = self.spawn();
        }
    }

    /// Ends the child, if any (before counting: valgrind needs the core
    /// more than an idle child).
    fn stop(self) -> Side {
        self.side
    }
}

/// One (workload, variant, input set) to compare.
#[derive(Clone, Debug)]
struct Planned {
    workload: String,
    variant: String,
    set: String,
    unit: String,
    /// The unit's plural, where the build says (protocol 2).
    plural: Option<String>,
}

/// Runs `ab`; `Err(Failed)` when a record regressed or broke.
pub fn run(suite: &Suite, options: &Options) -> Result<(), Error> {
    let metrics =
        reports::compare::gate(options.threshold_pct, &options.metrics).map_err(Error::usage)?;
    let origin = suite.origin();
    let dir = revision::ab_dir(origin)?;
    let (a, b) = match &options.builds {
        Builds::Revisions { base, head } => revision::revisions(origin, base, head.as_deref())?,
        Builds::Binaries(a, b) => revision::binaries(a, b)?,
    };
    let (date, stamp) = crate::machine::now();
    let path = options
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/ab-{stamp}.json")));
    // Profiles and flame graphs go beside the results file.
    let beside = path.with_extension("");
    let mut machine = crate::machine::machine(&options.machine);
    let mut a = Build::start(a, options.timeout);
    let mut b = Build::start(b, options.timeout);
    let planned = plan(suite, options, &a, &b)?;
    let threshold = |m| {
        options
            .threshold_pct
            .unwrap_or_else(|| default_threshold_ab(m))
    };
    let base = Duration::from_secs_f64(
        options
            .seconds
            .map_or(SECONDS_PER_RECORD, |s| s / planned.len().max(1) as f64),
    );
    let mut cores = Vec::new();
    let files = dir.join("files");
    let mut rows = Vec::new();
    let mut records = Vec::new();
    let mut agreed = 0;
    let bar = crate::progress::bar(planned.len() as u64, "ab");
    for p in &planned {
        bar.set_message(format!("{}/{}/{}", p.workload, p.variant, p.set));
        let mut row = Row::new(p, "answers", "");
        let answered = answers(Some(suite), p, options.seed, &mut a, &mut b, &files);
        a.revive();
        b.revive();
        match answered {
            Err(verdict) => {
                row.verdict = verdict;
                rows.push(row);
            }
            Ok(Compared::Differ(verdict, repro)) => {
                row.verdict = verdict;
                row.repro = repro;
                rows.push(row);
            }
            Ok(Compared::Agree(batch)) => {
                agreed += 1;
                if metrics.contains(&Metric::Time) {
                    let budget = pairs::Budget {
                        base,
                        cap: base * EXTEND,
                        threshold_pct: threshold(Metric::Time),
                    };
                    let core = options
                        .core
                        .or_else(|| crate::cores::least_busy(crate::cores::LOOK));
                    cores.extend(core.filter(|c| !cores.contains(c)));
                    let timed = time(
                        p,
                        batch,
                        [&mut a, &mut b],
                        (budget, core),
                        &files,
                        &mut records,
                    );
                    rows.push(timed.unwrap_or_else(|e| {
                        let mut row = Row::new(p, "time", "");
                        row.verdict = Verdict::NotComparable(e.to_string());
                        row
                    }));
                }
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    holm(&mut rows);
    let paired = a.child.is_some() && b.child.is_some();
    let (a, b) = (a.stop(), b.stop());
    let mut notes = vec![format!(
        "answers: {agreed} of {} record(s) agree on every input",
        planned.len()
    )];
    if paired && metrics.contains(&Metric::Time) {
        notes.push(time_note(&rows, base));
    }
    if !paired {
        notes.push(
            "time: unpaired (a build without serve mode), one `bench --quick` run of each"
                .to_owned(),
        );
    }
    let counted: Vec<Metric> = metrics.iter().copied().filter(|m| m.exact()).collect();
    let counter = Counter {
        seed: options.seed,
        sides: [&a, &b],
        files: &files,
        cache: options.cache || counted.iter().any(|&m| m != Metric::Instructions),
        beside: &beside,
    };
    let tools = count_tools();
    if !counted.is_empty() {
        match &tools {
            Some(reason) => notes.push(format!("instructions: not counted: {reason}")),
            None => {
                let judged = counter.judge(&planned, &counted, &threshold, &mut records);
                rows.extend(judged);
            }
        }
    }
    let instructions = (tools.as_deref(), threshold(Metric::Instructions));
    attribute_time(&mut rows, &planned, &counter, instructions, &mut records);
    machine.load_end = crate::machine::load_average();
    let pinning = match (options.core, cores.as_slice()) {
        (Some(core), _) => Pinning::Named(core),
        (None, []) => Pinning::None,
        (None, used) => Pinning::LeastBusy(used.to_vec()),
    };
    let outcome = Outcome {
        a,
        b,
        pinning,
        warning: warning(&rows),
        rows,
        notes,
    };
    crate::out!("{}", outcome.render(options.format));
    if let Some(line) = &outcome.warning {
        eprintln!("ab: {line}");
    }
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut file = ResultsFile::new(date, command, machine, crate::machine::build());
    file.records = keep_profiles(records, &files, &beside);
    file.write(&path)?;
    eprintln!("ab: results written to {}", path.display());
    outcome.exit()
}

/// The commit `exe` says it was built from (its serve mode's hello);
/// `None` for a build without serve mode or not told its commit.
pub fn build_commit(exe: &Path) -> Option<String> {
    let timeout = crate::fault::DEFAULT_TIMEOUT;
    let mut child = Child::spawn(exe, &exe.display().to_string(), timeout).ok()?;
    let hello = child.request::<Hello>(&Request::Hello).ok()?;
    (hello.commit != "unknown").then_some(hello.commit)
}

/// One record's time in two builds with serve mode, paired as `ab` pairs
/// them (after comparing their answers; only those unless `timed`): `ab`'s
/// row for it, judged alone.
/// `record` is (workload, variant, input set); `Err` (usage) when a build
/// has no serve mode or does not know the record.
pub fn paired_time(
    sides: [Side; 2],
    record: [&str; 3],
    seed: u64,
    budget: Duration,
    threshold: f64,
    files: &Path,
    timed: bool,
) -> Result<Row, Error> {
    let [workload, variant, set] = record;
    let [a, b] = sides;
    let timeout = crate::fault::DEFAULT_TIMEOUT;
    let (mut a, mut b) = (Build::start(a, timeout), Build::start(b, timeout));
    let mut unit = None;
    let mut plural = None;
    for build in [&a, &b] {
        let Some((_, hello)) = &build.child else {
            return Err(Error::usage(format!(
                "{} has no serve mode, which paired time needs",
                build.side.name
            )));
        };
        let known = hello.workloads.iter().find(|w| w.name == workload);
        unit = known.map(|w| w.unit.clone());
        plural = known.and_then(|w| w.plural.clone());
    }
    let p = Planned {
        workload: workload.to_owned(),
        variant: variant.to_owned(),
        set: set.to_owned(),
        unit: unit.ok_or_else(|| Error::usage(format!("unknown workload '{workload}'")))?,
        plural,
    };
    let mut row = match answers(None, &p, seed, &mut a, &mut b, files) {
        Err(Verdict::NotComparable(why)) => return Err(Error::usage(why)),
        Err(verdict) | Ok(Compared::Differ(verdict, _)) => {
            let mut row = Row::new(&p, "answers", "");
            row.verdict = verdict;
            return Ok(row);
        }
        Ok(Compared::Agree(_)) if !timed => {
            let mut row = Row::new(&p, "answers", "");
            row.verdict = Verdict::NoChange;
            return Ok(row);
        }
        Ok(Compared::Agree(batch)) => {
            let budget = pairs::Budget {
                base: budget,
                cap: budget * EXTEND,
                threshold_pct: threshold,
            };
            let core = crate::cores::least_busy(crate::cores::LOOK);
            time(
                &p,
                batch,
                [&mut a, &mut b],
                (budget, core),
                files,
                &mut Vec::new(),
            )?
        }
    };
    holm(std::slice::from_mut(&mut row));
    Ok(row)
}

/// The default threshold of `ab`: 1 % for time too, since pairing makes
/// a 1 % change visible.
pub fn default_threshold_ab(metric: Metric) -> f64 {
    match metric {
        Metric::Time => 1.0,
        m => default_threshold(m),
    }
}

/// The records to compare: from A's own list when it has serve mode (else
/// B's, else this program's), the variants and sets asked for, each
/// workload's declared default variant and quick sets otherwise.
fn plan(suite: &Suite, options: &Options, a: &Build, b: &Build) -> Result<Vec<Planned>, Error> {
    let hello = a
        .child
        .as_ref()
        .or(b.child.as_ref())
        .map(|(_, h)| h.clone());
    let listed: Vec<HelloWorkload> = match hello {
        Some(h) => h.workloads,
        None => suite.workloads().iter().map(|w| w.hello()).collect(),
    };
    for name in &options.workloads {
        if !listed.iter().any(|w| &w.name == name) {
            let known: Vec<_> = listed.iter().map(|w| w.name.as_str()).collect();
            return Err(Error::usage(format!(
                "unknown workload '{name}' (known: {})",
                known.join(", ")
            )));
        }
    }
    let mut planned = Vec::new();
    for w in listed {
        if !options.workloads.is_empty() && !options.workloads.contains(&w.name) {
            continue;
        }
        let variants = if options.variants.is_empty() {
            vec![w.default_variant]
        } else {
            options.variants.clone()
        };
        let sets = if options.sets.is_empty() {
            w.sets
        } else {
            options.sets.clone()
        };
        for variant in &variants {
            for set in &sets {
                planned.push(Planned {
                    workload: w.name.clone(),
                    variant: variant.clone(),
                    set: set.clone(),
                    unit: w.unit.clone(),
                    plural: w.plural.clone(),
                });
            }
        }
    }
    if planned.is_empty() {
        return Err(Error::usage("ab: nothing to compare"));
    }
    Ok(planned)
}

/// A batch both builds answered alike.
#[derive(Clone, Debug)]
struct Batch {
    /// Its inputs, as the builds read them (a restarted build loads them
    /// again).
    lines: Vec<String>,
    /// How many.
    inputs: usize,
    /// Its throughput elements, where a serve-mode build said (else 1).
    elements: u64,
}

/// How a record's answers compared.
enum Compared {
    /// The same on every input.
    Agree(Batch),
    /// Different: the verdict and the commands that show it.
    Differ(Verdict, Vec<String>),
}

/// Gets the inputs once and both builds' answers on them (serve-mode
/// children keep the batch loaded for timing); `Err`: the record cannot
/// be compared.
fn answers(
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
    let mut elements = 1;
    let mut solve = |build: &mut Build| -> Result<Vec<String>, Error> {
        match &mut build.child {
            Some((child, _)) => child
                .request::<Answers>(&Request::Load {
                    workload: p.workload.clone(),
                    variant: p.variant.clone(),
                    inputs: lines.clone(),
                })
                .map(|answers| {
                    elements = answers.elements;
                    answers.outputs
                }),
            None => {
                write_lines(&file, &lines)?;
                oneshot::solve(&build.side.exe, &p.workload, &p.variant, &file)
            }
        }
    };
    let (from_a, from_b) = (solve(a), solve(b));
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
    let Some(i) = (0..lines.len()).find(|&i| from_a.get(i) != from_b.get(i)) else {
        return Ok(Compared::Agree(Batch {
            inputs: lines.len(),
            lines,
            elements,
        }));
    };
    let input = files.join(format!("{stem}-broke-{i}.txt"));
    write_lines(&input, std::slice::from_ref(&lines[i])).map_err(|e| not("repro", e))?;
    let shown = |x: Option<&String>| x.map_or("nothing".to_owned(), |s| format!("'{s}'"));
    let why = format!(
        "answers differ on input '{}' (#{} of {}): A {}, B {}",
        lines[i],
        i + 1,
        p.set,
        shown(from_a.get(i)),
        shown(from_b.get(i))
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
            let shown: Vec<String> = found.inputs.iter().map(|i| format!("'{i}'")).collect();
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

fn write_lines(path: &Path, lines: &[String]) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::usage(format!("{}: cannot write: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(path, lines.join("\n") + "\n").map_err(io)
}

impl Planned {
    /// A file-name stem for the record.
    fn stem(&self) -> String {
        attribution::file_stem(&[&self.workload, &self.variant, &self.set])
    }

    /// A results-file record of one side's samples (ns per element, in
    /// the order taken), split into ten consecutive rounds so the median
    /// gets an interval as `bench`'s do.
    fn record(
        &self,
        side: &Side,
        samples: &[f64],
        elements: u64,
        disturbance: Disturbance,
    ) -> Record {
        let summary = crate::stats::summarize(samples).unwrap_or(crate::stats::Summary {
            median: 0.0,
            mad: 0.0,
            min: 0.0,
            max: 0.0,
        });
        let rounds: Vec<Vec<f64>> = samples
            .chunks(samples.len().div_ceil(10).max(1))
            .map(<[f64]>::to_vec)
            .collect();
        let seed = reports::interval::seed_of(&[&self.workload, &self.variant, &self.set]);
        Record {
            workload: self.workload.clone(),
            variant: self.variant.clone(),
            input_set: self.set.clone(),
            target_cpu: crate::machine::target_cpu().to_owned(),
            metric: Metric::Time,
            unit: format!("ns/{}", self.unit),
            status: Status::Ok,
            median: summary.median,
            mad: summary.mad,
            min: summary.min,
            max: summary.max,
            samples: samples.len() as u32,
            elements_per_sample: elements,
            source: Some(format!("{} {}", side.label, side.name)),
            interval: reports::interval::median_interval(&rounds, seed),
            rounds,
            disturbance: Some(disturbance),
            unit_plural: self.plural.clone(),
            ..Record::default()
        }
    }
}

/// Times one record: paired when both builds serve (the batch is loaded),
/// else one `bench --quick` of each, unpaired. Both sides' records go to
/// `records`.
///
/// The pairs are taken on `core` (both children pinned to it) under
/// `budget`; the row says how many were set aside as disturbed and, as
/// its `concern`, why its verdict may not hold.
fn time(
    p: &Planned,
    batch: Batch,
    [a, b]: [&mut Build; 2],
    (budget, core): (pairs::Budget, Option<usize>),
    files: &Path,
    records: &mut Vec<Record>,
) -> Result<Row, Error> {
    let threshold = budget.threshold_pct;
    if a.child.is_none() || b.child.is_none() {
        return unpaired(p, [&a.side, &b.side], threshold, files, records);
    }
    let measured = instances::measure(p, &batch, [&mut *a, &mut *b], budget, core)?;
    let pairs = &measured.pairs;
    let (xs, ys): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
    let mut row = Row::new(p, "time", &format!("ns/{}", p.unit));
    row.threshold_pct = threshold;
    let disturbance = Disturbance {
        taken: (pairs.len() + measured.set_aside) as u32,
        set_aside: measured.set_aside as u32,
        probe: measured.probe.to_owned(),
    };
    records.push(p.record(&a.side, &xs, batch.elements, disturbance.clone()));
    records.push(p.record(&b.side, &ys, batch.elements, disturbance.clone()));
    let [ra, rb] = [&records[records.len() - 2], &records[records.len() - 1]];
    (row.a, row.b) = (Some(ra.median), Some(rb.median));
    row.pairs = pairs.len();
    row.set_aside = measured.set_aside;
    row.seconds = measured.elapsed.as_secs_f64();
    row.concern = concern(&measured, &disturbance, threshold);
    row.ratios = pairs.iter().map(|(x, y)| y / x).collect();
    // Judged on the pairs both sides share, the interval widened by the
    // spread between pairs of processes.
    let shared = modes::shared(pairs, &measured.windows);
    let kept: Vec<(f64, f64)> = shared.kept.iter().map(|&i| pairs[i]).collect();
    row.outliers = shared.set_aside;
    row.slow_mode = shared.slow.map(|s| s.describe(kept.len()));
    let (tau, slices) = instances::between(&measured, &shared.kept);
    row.processes = slices.max(1);
    row.between_pct = (slices > 1).then_some(tau * 100.0);
    let judged = stats::judge(&kept, threshold).map(|j| stats::Judged {
        interval: instances::widen(j.ratio, j.interval, tau, slices),
        ..j
    });
    // Too few pairs to judge still leave their ratios to draw, about their
    // plain median.
    let median = crate::stats::summarize(&row.ratios).map(|s| s.median);
    if let (Some(last), Some(median)) = (records.last_mut(), median) {
        last.paired = Some(Paired {
            ratio: judged.as_ref().map_or(median, |j| j.ratio),
            interval: judged.as_ref().map(|j| j.interval),
            ratios: row.ratios.clone(),
        });
    }
    match judged {
        Some(j) => {
            row.change_pct = Some((j.ratio - 1.0) * 100.0);
            row.interval_pct = Some(Interval {
                low: (j.interval.low - 1.0) * 100.0,
                high: (j.interval.high - 1.0) * 100.0,
            });
            row.p_value = Some(j.p_value);
        }
        None => {
            row.verdict = Verdict::NotComparable(format!(
                "{} pairs, fewer than {}",
                kept.len(),
                stats::MIN_PAIRS
            ));
        }
    }
    Ok(row)
}

/// Why a paired time's verdict may not hold: too many pairs disturbed, or
/// too few undisturbed ones for how widely they spread.
fn concern(measured: &pairs::Measured, d: &Disturbance, threshold: f64) -> Option<String> {
    let mut why: Vec<String> = d
        .too_busy("pairs")
        .map(|busy| format!("{busy}, set aside"))
        .into_iter()
        .collect();
    if !measured.resolved() {
        let spread = stats::spread(&measured.pairs).unwrap_or(0.0) * 100.0;
        why.push(format!(
            "pairs spread ±{spread:.2} %: resolving {threshold} % needs {} undisturbed pairs for {:.0} % power, {} measured in {:.1} s reached {:.0} %",
            measured.needed,
            stats::POWER * 100.0,
            measured.pairs.len(),
            measured.elapsed.as_secs_f64(),
            stats::power(&measured.pairs, threshold) * 100.0,
        ));
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// The note on how time was measured: the budget, the cap, and the
/// records that went beyond the budget.
fn time_note(rows: &[Row], base: Duration) -> String {
    let extended = rows
        .iter()
        .filter(|r| r.seconds > base.as_secs_f64() * 1.1)
        .count();
    format!(
        "time: {:.1} s per record, extended up to {:.1} s where the pairs spread too wide for the threshold ({extended} extended); disturbed pairs set aside",
        base.as_secs_f64(),
        (base * EXTEND).as_secs_f64()
    )
}

/// The one warning line for the rows with a concern, if any.
fn warning(rows: &[Row]) -> Option<String> {
    let named: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let why = r.concern.as_ref()?;
            Some(format!(
                "{} {} {}: {why}",
                r.workload, r.variant, r.input_set
            ))
        })
        .collect();
    reports::disturbance::warning_line(
        &named,
        "time verdict(s)",
        "Give it more --seconds, a quieter machine, or --core N on an idle core.",
    )
}

/// One `bench --quick` run of each build, compared as `compare` does.
fn unpaired(
    p: &Planned,
    sides: [&Side; 2],
    threshold: f64,
    files: &Path,
    records: &mut Vec<Record>,
) -> Result<Row, Error> {
    let run = |side: &Side| {
        let out = files.join(format!("{}-bench-{}.json", p.stem(), side.label));
        oneshot::measure(
            &side.exe,
            &["bench", "--quick"],
            &p.workload,
            std::slice::from_ref(&p.variant),
            std::slice::from_ref(&p.set),
            1,
            &out,
        )
    };
    let (fa, fb) = (run(sides[0])?, run(sides[1])?);
    let compared = compare(&fa, &fb, &[Metric::Time], Some(threshold));
    let mut row = compared
        .rows
        .iter()
        .find(|r| r.new.variant == p.variant && r.new.input_set == p.set)
        .map(|r| Row::from_compared(r, "time (unpaired)"))
        .ok_or_else(|| Error::failed("no time record in common"))?;
    row.threshold_pct = threshold;
    labelled(records, &fa, sides[0]);
    labelled(records, &fb, sides[1]);
    Ok(row)
}

/// Appends `file`'s records, each labelled with the side it measured.
fn labelled(records: &mut Vec<Record>, file: &ResultsFile, side: &Side) {
    records.extend(file.records.iter().cloned().map(|r| Record {
        source: Some(format!("{} {}", side.label, side.name)),
        ..r
    }));
}

/// Holm's correction over the paired time rows: those whose p-value
/// survives moved beyond the threshold, in the direction of their change.
fn holm(rows: &mut [Row]) {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].metric == "time" && rows[i].p_value.is_some())
        .collect();
    let p: Vec<f64> = tested.iter().filter_map(|&i| rows[i].p_value).collect();
    for (&i, moved) in tested.iter().zip(holm_rejects(&p, ALPHA)) {
        // A move whose interval (widened by the spread between processes)
        // still holds no change is not shown.
        let beyond = rows[i]
            .interval_pct
            .is_none_or(|v| v.low > 0.0 || v.high < 0.0);
        rows[i].verdict = match (moved && beyond, rows[i].change_pct.unwrap_or(0.0) > 0.0) {
            (false, _) => Verdict::NoChange,
            (true, true) => Verdict::Regressed,
            (true, false) => Verdict::Improved,
        };
    }
}

/// Why instructions cannot be counted here, if they cannot.
pub fn count_tools() -> Option<String> {
    #[cfg(feature = "count")]
    return crate::counting::check_tools().err();
    #[cfg(not(feature = "count"))]
    Some("this program was built without bitbench's `count` feature".to_owned())
}

/// One workload's planned records and both builds' counts of them.
type Counts<'p> = (Vec<&'p Planned>, Result<[ResultsFile; 2], Error>);

/// Counts records in both builds (`count --out`, one run per workload
/// and build) and says where the changed ones changed.
struct Counter<'a> {
    seed: u64,
    sides: [&'a Side; 2],
    /// Where the builds' results files go.
    files: &'a Path,
    /// With the cache simulation.
    cache: bool,
    /// Where the flame graphs go.
    beside: &'a Path,
}

impl Counter<'_> {
    /// Both builds' counts of `planned`, per workload: A's and B's results
    /// files (their profiles relative to `files`), or why not.
    fn count<'p>(&self, planned: &[&'p Planned]) -> Vec<Counts<'p>> {
        let mut workloads: Vec<&str> = planned.iter().map(|p| p.workload.as_str()).collect();
        workloads.dedup();
        workloads
            .into_iter()
            .map(|workload| {
                let mine: Vec<&Planned> = planned
                    .iter()
                    .copied()
                    .filter(|p| p.workload == workload)
                    .collect();
                let mut variants: Vec<String> = mine.iter().map(|p| p.variant.clone()).collect();
                let mut sets: Vec<String> = mine.iter().map(|p| p.set.clone()).collect();
                variants.sort();
                variants.dedup();
                sets.sort();
                sets.dedup();
                let run = |side: &Side| {
                    let out = self
                        .files
                        .join(format!("count-{workload}-{}.json", side.label));
                    eprintln!("ab: counting instructions of {workload} in {}", side.label);
                    let command: &[&str] = if self.cache {
                        &["count", "--cache"]
                    } else {
                        &["count"]
                    };
                    oneshot::measure(
                        &side.exe, command, workload, &variants, &sets, self.seed, &out,
                    )
                };
                let counted = run(self.sides[0]).and_then(|fa| Ok([fa, run(self.sides[1])?]));
                (mine, counted)
            })
            .collect()
    }

    /// Both builds' counts of the planned records, compared exactly on
    /// `metrics`; a row that moved beyond its threshold says where.
    fn judge(
        &self,
        planned: &[Planned],
        metrics: &[Metric],
        threshold: &dyn Fn(Metric) -> f64,
        records: &mut Vec<Record>,
    ) -> Vec<Row> {
        let mut rows = Vec::new();
        let all: Vec<&Planned> = planned.iter().collect();
        for (mine, counted) in self.count(&all) {
            let [fa, fb] = match counted {
                Ok(files) => files,
                Err(e) => {
                    for p in mine {
                        for &metric in metrics {
                            let mut row = Row::new(p, metric.as_str(), "");
                            row.verdict = Verdict::NotComparable(e.to_string());
                            rows.push(row);
                        }
                    }
                    continue;
                }
            };
            for &metric in metrics {
                let compared = compare(&fa, &fb, &[metric], Some(threshold(metric)));
                for r in compared.rows.iter().filter(|r| {
                    mine.iter()
                        .any(|p| p.variant == r.new.variant && p.set == r.new.input_set)
                }) {
                    let mut row = Row::from_compared(r, metric.as_str());
                    if matches!(row.verdict, Verdict::Regressed | Verdict::Improved) {
                        row.attribution = Some(self.attribute(r.base, r.new, metric));
                    }
                    rows.push(row);
                }
            }
            labelled(records, &fa, self.sides[0]);
            labelled(records, &fb, self.sides[1]);
        }
        rows
    }

    /// Where `b` changed from `a` in `metric`, its flame graphs beside the
    /// results file.
    fn attribute(&self, a: &Record, b: &Record, metric: Metric) -> Attribution {
        attribution::changed(a, b, metric, [self.files; 2], self.beside)
    }
}

/// Says where each time regression came from: the instruction row's
/// table when instructions moved too; else, since the instructions did
/// not explain it, that sentence and (with `--cache`) the D1 misses'
/// table. Records not counted yet are counted now, in both builds, and
/// judged against the instructions' `threshold`.
fn attribute_time(
    rows: &mut [Row],
    planned: &[Planned],
    counter: &Counter<'_>,
    (tools, threshold): (Option<&str>, f64),
    records: &mut Vec<Record>,
) {
    let same = |r: &Row, p: &Planned| {
        r.workload == p.workload && r.variant == p.variant && r.input_set == p.set
    };
    let slower = |r: &Row| r.metric == "time" && r.verdict == Verdict::Regressed;
    let regressed: Vec<&Planned> = planned
        .iter()
        .filter(|p| rows.iter().any(|r| same(r, p) && slower(r)))
        .collect();
    if let Some(reason) = tools {
        for row in rows.iter_mut().filter(|r| slower(r)) {
            let note = attribution::not_countable(reason);
            row.attribution = Some(Attribution::note(Metric::Instructions, note));
        }
        return;
    }
    let judged = |rows: &[Row], p: &Planned| {
        rows.iter()
            .find(|r| same(r, p) && r.metric == "instructions")
            .map(|r| (r.change_pct, r.verdict.clone(), r.attribution.clone()))
    };
    let uncounted: Vec<&Planned> = regressed
        .iter()
        .copied()
        .filter(|p| judged(rows, p).is_none())
        .collect();
    for (_, counted) in counter.count(&uncounted) {
        if let Ok([fa, fb]) = counted {
            labelled(records, &fa, counter.sides[0]);
            labelled(records, &fb, counter.sides[1]);
        }
    }
    for p in regressed {
        // Both builds' records of `p` in `metric`, as counted above or by
        // the instructions' judgement.
        let pair = |metric| {
            let side = |label: &str| {
                records.iter().find(|r| {
                    r.metric == metric
                        && (&r.workload, &r.variant, &r.input_set)
                            == (&p.workload, &p.variant, &p.set)
                        && r.source.as_deref().is_some_and(|s| s.starts_with(label))
                })
            };
            Some((side("A ")?, side("B ")?))
        };
        let unexplained = |pct: Option<f64>| {
            let note = attribution::time_without_instructions(pct);
            match pair(Metric::D1Misses) {
                Some((a, b)) if counter.cache => Attribution {
                    note: Some(note),
                    ..counter.attribute(a, b, Metric::D1Misses)
                },
                _ => Attribution::note(Metric::Instructions, note),
            }
        };
        let attribution = match (judged(rows, p), pair(Metric::Instructions)) {
            (Some((_, Verdict::Regressed | Verdict::Improved, Some(moved))), _) => moved,
            (_, Some((a, _))) if a.status != Status::Ok => Attribution::note(
                Metric::Instructions,
                attribution::not_countable(a.reason.as_deref().unwrap_or("not counted")),
            ),
            (Some((pct, ..)), _) => unexplained(pct),
            (None, Some((a, b))) => {
                let pct = (b.median / a.median - 1.0) * 100.0;
                if pct.abs() > threshold {
                    counter.attribute(a, b, Metric::Instructions)
                } else {
                    unexplained(Some(pct))
                }
            }
            (None, None) => Attribution::note(
                Metric::Instructions,
                "no attribution: counting the record in both builds failed",
            ),
        };
        for row in rows.iter_mut().filter(|r| same(r, p) && slower(r)) {
            row.attribution = Some(attribution.clone());
        }
    }
}

/// The records as the results file keeps them: each counted record's
/// profile (relative to `files`, where the builds' counts wrote them)
/// copied beside the results file, under the build's label, and the
/// record pointed there.
fn keep_profiles(records: Vec<Record>, files: &Path, beside: &Path) -> Vec<Record> {
    let name = beside
        .file_name()
        .map_or_else(|| "ab".into(), |n| n.to_string_lossy().into_owned());
    records
        .into_iter()
        .map(|mut r| {
            let label = r
                .source
                .as_deref()
                .and_then(|s| s.split(' ').next())
                .unwrap_or("profile")
                .to_owned();
            r.profile = r.profile.take().and_then(|rel| {
                let from = files.join(&rel);
                let file = from.file_name()?.to_string_lossy().into_owned();
                let to = beside.join(&label).join(&file);
                std::fs::create_dir_all(to.parent()?).ok()?;
                std::fs::copy(&from, &to).ok()?;
                Some(format!("{name}/{label}/{file}"))
            });
            r
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` pairs about a ratio of 1 whose log-ratios spread evenly over
    /// ±`width`.
    fn pairs(n: usize, width: f64) -> Vec<(f64, f64)> {
        (0..n)
            .map(|i| {
                let u = (i * 37 % n) as f64 / n as f64 - 0.5;
                (100.0, 100.0 * (2.0 * width * u).exp())
            })
            .collect()
    }

    fn measured(pairs: Vec<(f64, f64)>, set_aside: usize) -> (pairs::Measured, Disturbance) {
        let needed = stats::pairs_needed(&pairs, 0.5);
        let d = Disturbance {
            taken: (pairs.len() + set_aside) as u32,
            set_aside: set_aside as u32,
            probe: "rusage".into(),
        };
        let m = pairs::Measured {
            windows: vec![0; pairs.len()],
            instances: vec![0; pairs.len()],
            pairs,
            set_aside,
            probe: "rusage",
            elapsed: Duration::from_secs(2),
            needed,
        };
        (m, d)
    }

    #[test]
    fn noise_from_outside_the_machine_is_named_though_no_sample_was_disturbed() {
        // 400 quiet pairs within ±0.2 %: nothing to say.
        let (m, d) = measured(pairs(400, 0.002), 4);
        assert_eq!(concern(&m, &d, 0.5), None);
        // The same count spread over ±5 %: no pair disturbed, yet too
        // few for the spread.
        let (m, d) = measured(pairs(400, 0.05), 0);
        let why = concern(&m, &d, 0.5).expect("a concern");
        assert!(
            why.contains("pairs spread ±") && why.contains("needs"),
            "{why}"
        );
        // Many pairs set aside is a concern of its own.
        let (m, d) = measured(pairs(400, 0.002), 100);
        let why = concern(&m, &d, 0.5).expect("a concern");
        assert!(why.contains("100 of 500 pairs disturbed"), "{why}");
    }

    #[test]
    fn the_warning_is_one_line_naming_every_row_with_a_concern() {
        let p = Planned {
            workload: "w".into(),
            variant: "v".into(),
            set: "s".into(),
            unit: "board".into(),
            plural: None,
        };
        let mut rows = vec![Row::new(&p, "time", "ns/board"); 3];
        rows[1].concern = Some("10 of 20 pairs disturbed".into());
        rows[2].concern = Some("pairs spread ±3 %".into());
        let line = warning(&rows).unwrap();
        assert!(!line.contains('\n'));
        assert!(
            line.contains("2 time verdict(s)") && line.contains("--core"),
            "{line}"
        );
        assert_eq!(warning(&rows[..1]), None);
    }
}
