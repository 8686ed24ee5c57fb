//! Setup cost: each variant's cold start, measured in fresh processes.
//!
//! Several variants build their tables lazily, in statics on first use,
//! so timing `solver()` alone reads about zero. Setup is therefore a cold
//! start: `solver()` plus the first batch in a fresh process, less the
//! warm time of that batch. `bench` starts this same program once per
//! sample with [`CASE_ENV`] set; the child generates the inputs (untimed),
//! times building the solver and the first run, then the best of a few
//! warm runs, and prints them; the parent keeps one [`Metric::Setup`]
//! record per variant (unit `ns/start`, one sample per process).

use crate::dyn_workload::DynWorkload;
use crate::engine::batch::{BatchError, BatchRequest};
use crate::engine::bench::BenchOptions;
use crate::entry::Suite;
use crate::grid;
use crate::machine;
use crate::outln;
use crate::stats;
use reports::{Metric, Record, Status};
use serde::{Deserialize, Serialize};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Environment variable carrying a [`Case`] (JSON) to the child process
/// that measures one cold start.
pub const CASE_ENV: &str = "BITBENCH_SETUP_CASE";

/// The unit of setup records: nanoseconds per cold start.
pub const UNIT: &str = "ns/start";

/// Fresh processes per variant: each is one sample.
fn starts(quick: bool) -> usize {
    if quick { 3 } else { 5 }
}

/// Warm runs after the first stop after this long (at least one runs):
/// quick keeps it short, as it runs for every variant in the main job.
fn warm_budget(quick: bool) -> Duration {
    Duration::from_millis(if quick { 10 } else { 50 })
}

/// One cold start to measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Case {
    workload: String,
    variant: String,
    set: String,
    seed: u64,
    quick: bool,
}

/// What the child measured, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct Start {
    /// Building the solver.
    solver: f64,
    /// The first run of the batch.
    first: f64,
    /// The least of the warm runs after it.
    warm: f64,
}

impl Start {
    /// The setup this start shows: never below zero (a warm run can be
    /// slower than the first by noise alone).
    fn setup(self) -> f64 {
        (self.solver + self.first - self.warm).max(0.0)
    }
}

/// Called first in the command-line entry: when [`CASE_ENV`] is set, this
/// process is a cold start `bench` started, and measures it.
pub fn child_entry(suite: &Suite) -> Option<ExitCode> {
    let text = std::env::var(CASE_ENV).ok()?;
    Some(match cold_start(suite, &text) {
        Ok(start) => {
            println!(
                "{}",
                serde_json::to_string(&start).expect("starts serialise")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    })
}

fn cold_start(suite: &Suite, text: &str) -> Result<Start, String> {
    let case: Case =
        serde_json::from_str(text).map_err(|e| format!("{CASE_ENV} is not a setup case: {e}"))?;
    let w = suite.find(&case.workload).map_err(|e| e.to_string())?;
    let mut batch = w
        .prepare_batch(&BatchRequest {
            variant: &case.variant,
            set: &case.set,
            seed: case.seed,
            quick: case.quick,
            verify: false,
        })
        .map_err(|e| match e {
            BatchError::Skipped(r) | BatchError::Wrong(r) => r,
            BatchError::Invalid(e) => e.to_string(),
        })?;
    let nanos = |d: Duration| d.as_nanos() as f64;
    let first = Instant::now();
    batch.run();
    let first = first.elapsed();
    let (mut warm, started) = (Duration::MAX, Instant::now());
    while warm == Duration::MAX || started.elapsed() < warm_budget(case.quick) {
        let run = Instant::now();
        batch.run();
        warm = warm.min(run.elapsed());
    }
    Ok(Start {
        solver: nanos(batch.solver_built),
        first: nanos(first),
        warm: nanos(warm),
    })
}

/// A first batch longer than this buries the setup in the batch's own
/// noise (one run varies by a few per cent), so a cheaper set is taken.
const LONG_BATCH_NS: f64 = 20e6;

/// The set whose batch a variant's cold start runs: the first it was
/// timed on, unless one sample there took longer than [`LONG_BATCH_NS`]
/// (then it is a batch or more), where the set of its quickest sample is
/// taken instead.
fn first_batch<'r>(records: &'r [Record], variant: &str) -> Option<&'r Record> {
    let timed: Vec<&Record> = records
        .iter()
        .filter(|r| r.variant == variant && r.metric == Metric::Time && r.status == Status::Ok)
        .collect();
    let sample_ns = |r: &&Record| r.median * r.elements_per_sample as f64;
    timed
        .iter()
        .find(|r| sample_ns(r) <= LONG_BATCH_NS)
        .or_else(|| {
            timed
                .iter()
                .min_by(|a, b| sample_ns(a).total_cmp(&sample_ns(b)))
        })
        .copied()
}

/// Measures the setup of every variant of `w` that `records` (its bench
/// records) timed, on the set [`first_batch`] picks: one record per
/// variant, skipped with the reason where a start failed.
pub fn measure(w: &dyn DynWorkload, records: &[Record], options: &BenchOptions) -> Vec<Record> {
    let Ok(exe) = std::env::current_exe() else {
        return Vec::new();
    };
    let oracle = Some(w.oracle().to_owned());
    let mut out = Vec::new();
    for v in w.variants() {
        let Some(timed) = first_batch(records, v.name) else {
            continue;
        };
        let case = Case {
            workload: w.name().to_owned(),
            variant: v.name.to_owned(),
            set: timed.input_set.clone(),
            seed: options.seed,
            quick: options.quick,
        };
        let base = Record {
            workload: case.workload.clone(),
            variant: case.variant.clone(),
            input_set: case.set.clone(),
            target_cpu: machine::target_cpu().to_owned(),
            metric: Metric::Setup,
            unit: UNIT.to_owned(),
            oracle: oracle.clone(),
            ..Record::default()
        };
        let starts: Result<Vec<f64>, String> = (0..starts(options.quick))
            .map(|_| start(&exe, &case).map(Start::setup))
            .collect();
        out.push(match starts {
            Ok(samples) => record(base, samples),
            Err(reason) => Record {
                status: Status::Skipped,
                reason: Some(format!("setup not measured: {reason}")),
                ..base
            },
        });
    }
    out
}

/// A setup record from its samples (nanoseconds, one per fresh process).
fn record(base: Record, samples: Vec<f64>) -> Record {
    let s = stats::summarize(&samples).expect("at least one start");
    Record {
        median: s.median,
        mad: s.mad,
        min: s.min,
        max: s.max,
        samples: samples.len() as u32,
        elements_per_sample: 1,
        rounds: vec![samples],
        ..base
    }
}

/// Runs one cold start in a fresh process of `exe`.
fn start(exe: &std::path::Path, case: &Case) -> Result<Start, String> {
    let output = crate::fault::child_command(exe)
        .env(
            CASE_ENV,
            serde_json::to_string(case).expect("cases serialise"),
        )
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(stderr.lines().last().unwrap_or("failed").trim().to_owned());
    }
    serde_json::from_str(stdout.trim()).map_err(|e| format!("unexpected child output: {e}"))
}

/// Prints one line per variant: its setup (median and range over fresh
/// processes) and the set its first batch came from.
pub fn print(w: &dyn DynWorkload, records: &[Record]) {
    if records.is_empty() {
        return;
    }
    let width = records.iter().map(|r| r.variant.len()).max().unwrap_or(0);
    let n = records.iter().map(|r| r.samples).max().unwrap_or(0);
    outln!(
        "{}: setup (cold start: solver() + first batch in a fresh process, less the warm batch; median of {n} processes, min–max)",
        w.name()
    );
    for r in records {
        let cell = match r.status {
            Status::Ok => format!(
                "{} ({}–{})",
                grid::time(r.median, ""),
                grid::time(r.min, ""),
                grid::time(r.max, "")
            ),
            _ => r.reason.clone().unwrap_or_default(),
        };
        outln!(
            "  {:<width$}  {cell}  first batch: {}",
            r.variant,
            r.input_set
        );
    }
    outln!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_record_keeps_every_start_and_never_goes_below_zero() {
        let start = |solver, first, warm| Start {
            solver,
            first,
            warm,
        };
        // Tables built in solver(), then lazily in the first run.
        assert_eq!(start(1000.0, 5000.0, 2000.0).setup(), 4000.0);
        // Nothing to set up, a noisy warm run: zero, not negative.
        assert_eq!(start(10.0, 2000.0, 2100.0).setup(), 0.0);

        let base = Record {
            workload: "w".into(),
            variant: "table".into(),
            input_set: "s".into(),
            metric: Metric::Setup,
            unit: UNIT.into(),
            ..Record::default()
        };
        let r = record(base.clone(), vec![4000.0, 3000.0, 9000.0]);
        assert_eq!(r.metric, Metric::Setup);
        assert_eq!((r.median, r.min, r.max), (4000.0, 3000.0, 9000.0));
        assert_eq!((r.samples, r.elements_per_sample), (3, 1));
        assert_eq!(r.rounds, vec![vec![4000.0, 3000.0, 9000.0]]);
        assert_eq!(r.status, Status::Ok);
        // It reads back as written, through the results file's schema.
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"metric\":\"setup\""), "{json}");
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn the_first_batch_is_the_first_set_unless_its_batch_is_long() {
        let timed = |set: &str, variant: &str, sample_ms: f64| Record {
            variant: variant.into(),
            input_set: set.into(),
            metric: Metric::Time,
            median: sample_ms * 1e6 / 1000.0,
            elements_per_sample: 1000,
            ..Record::default()
        };
        let records = [
            timed("full", "slow", 400.0),
            timed("partial:3", "slow", 30.0),
            timed("partial:5", "slow", 90.0),
            timed("full", "quick", 4.0),
            timed("partial:3", "quick", 1.0),
        ];
        let set = |v: &str| first_batch(&records, v).map(|r| r.input_set.as_str());
        assert_eq!(set("quick"), Some("full"));
        assert_eq!(set("slow"), Some("partial:3"));
        assert_eq!(set("absent"), None);
    }
}
