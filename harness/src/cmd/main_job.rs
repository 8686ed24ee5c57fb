//! `bitbench` with no subcommand: the main job a newcomer runs first.
//!
//! Checks every workload on a modest number of cases, runs the quick
//! benchmark, and writes the results file, so one command shows that the
//! variants agree and how fast they are on this machine.

use crate::bench::BenchOptions;
use crate::check::CheckOptions;
use crate::error::CliError;
use crate::workloads;
use std::path::Path;

/// Cases per input set in the main job's check: enough to catch a broken
/// variant, few enough to leave the time budget to the benchmark.
const CASES: usize = 2000;

/// Runs check, quick bench and (once reports exist) the report.
pub fn run(seed: u64, out: Option<&Path>) -> Result<(), CliError> {
    let all = workloads::all();
    super::check::run(all, &CheckOptions { cases: CASES, seed })?;
    let options = BenchOptions {
        quick: true,
        seed,
        ..BenchOptions::default()
    };
    super::bench::run(all, &options, out)?;
    Ok(())
}
