//! `bitbench` with no subcommand: the main job a newcomer runs first.
//!
//! Checks every workload on a modest number of cases, runs the quick
//! benchmark, writes the results file and draws the report, so one command
//! shows that the variants agree and how fast they are on this machine.
//! A failed check does not stop it (the benchmark verifies again and never
//! times a wrong answer, and the report shows it); the job fails at the
//! end, naming the check's failures and the wrong, crashed or hung records.

use crate::engine::bench::BenchOptions;
use crate::engine::check::CheckOptions;
use crate::entry::Suite;
use crate::error::Error;
use crate::fault::TimeoutArg;
use crate::workload::runnable;
use crate::{out, outln};
use std::path::Path;

/// Cases per input set in the main job's check: enough to catch a broken
/// variant, few enough to leave the time budget to the benchmark.
const CASES: usize = 300;

/// Runs check, quick bench and the report (into `report/`), then prints a
/// one-line-per-workload summary and where `index.html` is; `Err(Failed)`
/// last when the check failed or a record is a finding.
pub fn run(suite: &Suite, seed: u64, out: Option<&Path>) -> Result<(), Error> {
    let all = suite.workloads();
    let program = crate::repro::program(suite.origin().binary);
    // No `--timeout` here: the main job's deadlines are the default's.
    let timeout = TimeoutArg::default().per_batch();
    let options = CheckOptions::new(CASES, seed);
    let checked = match super::check::all(all, &options, timeout, &program) {
        Err(Error::Failed(why)) => Some(why),
        other => other.map(|()| None)?,
    };
    let options = BenchOptions {
        quick: true,
        seed,
        ..BenchOptions::default()
    };
    let machine = crate::machine::default_name();
    let (path, mut results) =
        super::bench::measure(all, &options, timeout, out, None, &machine, &program)?;
    for w in all {
        let sets = w.sweep_sets();
        let default = runnable(&w.variants(), w.default_variant());
        let (false, Some(default)) = (sets.is_empty(), default) else {
            continue;
        };
        let sweep = BenchOptions {
            variants: vec![default.to_owned()],
            sets: sets.clone(),
            ..options.clone()
        };
        let (records, findings) = crate::isolated::bench(*w, &sweep, timeout, &program)?;
        for finding in &findings {
            finding.print();
        }
        outln!(
            "sweep: {} {} with {} ({} records)",
            w.name(),
            sets.join(" "),
            default,
            records.len()
        );
        results.records.extend(records);
    }
    results.write(&path)?;
    let found = crate::verdict::summary(&results.records)
        .map(|found| format!("{found} (the results file records them)"));
    let sources = [reports::Source::new(label(&path), &path, results)];
    let report = super::report::render(&sources, Path::new(super::report::DEFAULT_DIR))?;
    outln!("\nsummary (quick run; `{program} bench` measures longer):");
    out!("{}", reports::summary(&sources));
    outln!("report: {}", report.index.display());
    match checked.into_iter().chain(found).collect::<Vec<_>>() {
        failures if failures.is_empty() => Ok(()),
        failures => Err(Error::failed(failures.join("; "))),
    }
}

/// The results file's name without `.json`, as the report labels it.
fn label(path: &Path) -> String {
    path.file_stem().map_or_else(
        || "results".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    )
}
