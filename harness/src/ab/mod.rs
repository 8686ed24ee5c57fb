//! `ab`: a paired comparison of two builds of one program.
//!
//! Two runs of `bench` minutes apart differ by the host's drift, which
//! hides a 1 % change. Here both builds run side by side as serve-mode
//! children ([`crate::engine::serve`]); the driver gets every record's inputs once,
//! sends the same text to both, compares their answers (a difference is a
//! verdict of its own, "broke"), then alternates single samples and judges
//! the paired ratios, one change per pair of processes (see `stats.rs`). Instruction counts of
//! both builds are compared exactly. Builds without serve mode still get
//! answers and counts, and an unpaired time comparison labelled so.
//!
//! [`run`] goes through these steps, each in a file of its own:
//! - `options.rs`: what to compare and the thresholds;
//!   `build.rs`: each build and its serve-mode child (`child.rs`);
//!   `plan.rs`: the records to compare.
//! - `answers.rs`: both builds' answers, compared before anything is timed.
//! - `time.rs`: a record's paired time, from `instances.rs` (fresh pairs
//!   of processes), `pairs.rs` (the samples), `modes.rs` (a slow mode on
//!   one side) and `stats.rs` (Student's t over the pairs of processes,
//!   at the run's level; `student.rs`); unpaired through `oneshot.rs`
//!   where a build does not serve.
//! - `verdicts.rs`: the one warning over the time rows.
//! - `counts.rs`: instruction counts of both builds, judged exactly;
//!   `attribute.rs`: where a time regression came from.
//! - `table.rs`: what is printed; `records.rs`: what the results file
//!   keeps.
//!
//! `single.rs` compares one record alone, for `history bisect`.

mod allocated;
mod answers;
mod attribute;
mod build;
mod child;
mod counts;
mod instances;
mod modes;
pub mod oneshot;
mod options;
mod pairs;
mod plan;
mod records;
mod single;
mod slices;
mod stats;
mod student;
mod table;
mod taken;
mod time;
mod verdicts;

pub use build::build_commit;
pub use counts::count_tools;
pub use options::{Builds, EXTEND, Options, SECONDS_PER_RECORD};
pub use single::paired_time;
pub use table::{Outcome, Pinning, Row};

use crate::entry::Suite;
use crate::error::Error;
use crate::revision;
use answers::{Compared, answers};
use attribute::attribute_time;
use build::Build;
use counts::Counter;
use plan::{Planned, plan};
use records::keep_profiles;
use reports::compare::{Verdict, gate};
use reports::metric::InAb;
use reports::{Metric, Record};
use std::path::{Path, PathBuf};
use std::time::Duration;
use time::{time, time_note};
use verdicts::warning;

/// Runs `ab`; `Err(Failed)` when a record regressed or broke.
pub fn run(suite: &Suite, options: &Options) -> Result<(), Error> {
    let metrics = gate(options.threshold_pct, &options.metrics).map_err(Error::usage)?;
    let origin = suite.origin();
    let dir = revision::ab_dir(origin)?;
    let (a, b) = options.builds.sides(origin)?;
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
            .unwrap_or_else(|| reports::thresholds::paired(m))
    };
    let budget = budget(options, &metrics, planned.len(), threshold(Metric::Time));
    let files = dir.join("files");
    let loaded = in_ab(&metrics, InAb::Loaded);
    let judged = Judged {
        budget,
        loaded: &loaded,
        threshold: &threshold,
    };
    let mut tally = answer_and_time(suite, options, &planned, [&mut a, &mut b], judged, &files);
    let paired = a.child.is_some() && b.child.is_some();
    let environments =
        [&a, &b].map(|side| side.child.as_ref().and_then(|(_, h)| h.environment.clone()));
    let (a, b) = (a.stop(), b.stop());
    let mut notes = vec![format!(
        "answers: {} of {} record(s) agree on every input",
        tally.agreed,
        planned.len()
    )];
    if let Some(differ) =
        reports::environment::differences(environments[0].as_ref(), environments[1].as_ref())
    {
        notes.push(format!(
            "environment: A and B ran with different environments ({differ}): a change may come \
             from that alone"
        ));
    }
    if let (true, Some(budget)) = (paired, budget) {
        notes.push(time_note(&tally.rows, budget.base));
    }
    if !paired {
        notes.push(
            "time: unpaired (a build without serve mode), one `bench --quick` run of each"
                .to_owned(),
        );
    }
    let counted = in_ab(&metrics, InAb::Counted);
    let counter = Counter::new(origin, options, [&a, &b], (&files, &beside), &counted);
    notes.extend(count_and_attribute(
        &counter, &planned, &counted, &threshold, &mut tally,
    ));
    machine.load_end = crate::machine::load_average();
    let outcome = Outcome {
        a,
        b,
        pinning: pinning(options.core, &tally.cores),
        warning: warning(&tally.rows),
        rows: tally.rows,
        family: if paired && budget.is_some() {
            planned.len()
        } else {
            0
        },
        notes,
    };
    crate::out!("{}", outcome.render(options.format));
    if let Some(line) = &outcome.warning {
        eprintln!("ab: {line}");
    }
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut file =
        crate::machine::results_file(date, command, machine, crate::machine::build(), true);
    // Each record carries its input set's parameters and the oracle, as
    // `bench`'s do, so the report of an A/B file draws a sweep as a sweep.
    for w in suite.workloads() {
        w.annotate(&mut tally.records);
    }
    file.records = keep_profiles(tally.records, &files, &beside);
    file.write(&path)?;
    eprintln!("ab: results written to {}", path.display());
    outcome.exit()
}

/// What the records' answers and times came to.
struct Tally {
    /// One row per record whose answers differ or could not be compared,
    /// and one per timed record.
    rows: Vec<Row>,
    /// Both sides' records of the times, for the results file.
    records: Vec<Record>,
    /// How many records both builds answered alike.
    agreed: usize,
    /// The cores the pairs were taken on, each once.
    cores: Vec<usize>,
}

/// Time's budget over `records` records when `metrics` judge time: each
/// record's share of `--seconds` (or [`SECONDS_PER_RECORD`]), extended up
/// to [`EXTEND`] times that.
fn budget(
    options: &Options,
    metrics: &[Metric],
    records: usize,
    threshold_pct: f64,
) -> Option<pairs::Budget> {
    let base = Duration::from_secs_f64(
        options
            .seconds
            .map_or(SECONDS_PER_RECORD, |s| s / records.max(1) as f64),
    );
    metrics.contains(&Metric::Time).then(|| pairs::Budget {
        base,
        cap: base * EXTEND,
        threshold_pct,
        records,
    })
}

/// The `metrics` that `ab` measures as `how`.
fn in_ab(metrics: &[Metric], how: InAb) -> Vec<Metric> {
    metrics
        .iter()
        .copied()
        .filter(|m| m.descriptor().ab == how)
        .collect()
}

/// What is judged of a record whose answers agree.
struct Judged<'a> {
    /// Time, when it is judged.
    budget: Option<pairs::Budget>,
    /// The metrics the builds count as they load a batch.
    loaded: &'a [Metric],
    /// Each metric's threshold.
    threshold: &'a dyn Fn(Metric) -> f64,
}

/// Every planned record in turn: both builds' answers (a build that
/// crashed or hung started again for the next record), then, where they
/// agree, the metrics counted as they loaded it and, where time is
/// judged, its time on `--core` or the least busy core.
fn answer_and_time(
    suite: &Suite,
    options: &Options,
    planned: &[Planned],
    [a, b]: [&mut Build; 2],
    judged: Judged<'_>,
    files: &Path,
) -> Tally {
    let mut tally = Tally {
        rows: Vec::new(),
        records: Vec::new(),
        agreed: 0,
        cores: Vec::new(),
    };
    let bar = crate::progress::bar(planned.len() as u64, "ab");
    for p in planned {
        bar.set_message(format!("{}/{}/{}", p.workload, p.variant, p.set));
        let mut row = Row::new(p, "answers", "");
        let answered = answers(Some(suite), p, options.seed, a, b, files);
        a.revive();
        b.revive();
        match answered {
            Err(verdict) => {
                row.verdict = verdict;
                tally.rows.push(row);
            }
            Ok(Compared::Differ(verdict, repro)) => {
                row.verdict = verdict;
                row.repro = repro;
                tally.rows.push(row);
            }
            Ok(Compared::Agree(batch)) => {
                tally.agreed += 1;
                if !judged.loaded.is_empty() {
                    tally.rows.extend(allocated::judge(
                        p,
                        &batch,
                        [&a.side, &b.side],
                        judged.loaded,
                        judged.threshold,
                        &mut tally.records,
                    ));
                }
                if let Some(budget) = judged.budget {
                    let core = options
                        .core
                        .or_else(|| crate::cores::least_busy(crate::cores::LOOK));
                    tally
                        .cores
                        .extend(core.filter(|c| !tally.cores.contains(c)));
                    let timed = time(
                        p,
                        batch,
                        [&mut *a, &mut *b],
                        (budget, core),
                        files,
                        &mut tally.records,
                    );
                    tally.rows.push(timed.unwrap_or_else(|e| {
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
    tally
}

/// Judges the exact `counted` metrics on both builds' counts, then says
/// where each time regression came from; the note to print when
/// instructions cannot be counted here.
fn count_and_attribute(
    counter: &Counter<'_>,
    planned: &[Planned],
    counted: &[Metric],
    threshold: &dyn Fn(Metric) -> f64,
    tally: &mut Tally,
) -> Option<String> {
    let tools = count_tools();
    let mut note = None;
    if !counted.is_empty() {
        match &tools {
            Some(reason) => note = Some(format!("instructions: not counted: {reason}")),
            None => {
                let judged = counter.judge(planned, counted, threshold, &mut tally.records);
                tally.rows.extend(judged);
            }
        }
    }
    let instructions = (tools.as_deref(), threshold(Metric::Instructions));
    attribute_time(
        &mut tally.rows,
        planned,
        counter,
        instructions,
        &mut tally.records,
    );
    note
}

/// Where the pairs were taken: the core named, or the least busy ones
/// found (`used`), if any.
fn pinning(core: Option<usize>, used: &[usize]) -> Pinning {
    match (core, used) {
        (Some(core), _) => Pinning::Named(core),
        (None, []) => Pinning::None,
        (None, used) => Pinning::LeastBusy(used.to_vec()),
    }
}
