//! `bitbench check`: run every variant against the oracle and report,
//! each workload in a watched child ([`crate::fault`]).

use crate::dyn_workload::DynWorkload;
use crate::engine::check::{CheckOptions, CheckReport};
use crate::entry::Suite;
use crate::error::Error;
use crate::fault::TimeoutArg;
use crate::outln;
use crate::repro::solve_line;
use reports::excerpt::{around, disagreement};
use std::time::Duration;

/// `bitbench check`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Workloads to check; default: all.
    workloads: Vec<String>,
    /// Generated inputs per input set.
    #[arg(long, default_value_t = 10_000)]
    cases: usize,
    /// Seed of the generated inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    timeout: TimeoutArg,
    #[command(flatten)]
    pub(crate) env: crate::measuring_env::KeepEnv,
}

/// Checks the workloads named; `Err` with exit code 1 on any disagreement.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    all(
        &suite.select(&args.workloads)?,
        &CheckOptions::new(args.cases, args.seed),
        args.timeout.per_batch(),
        &crate::repro::program(suite.origin().binary),
    )
}

/// Checks `workloads`, each batch of a kernel stopped `timeout` past its
/// allowance; `Err` with exit code 1 on any disagreement, whose
/// reproducing commands name `program` (see [`crate::repro::program`]).
pub fn all(
    workloads: &[&dyn DynWorkload],
    options: &CheckOptions,
    timeout: Duration,
    program: &str,
) -> Result<(), Error> {
    let mut failed = Vec::new();
    for w in workloads {
        let started = std::time::Instant::now();
        eprintln!(
            "checking {} ({} cases per input set, seed {})",
            w.name(),
            options.cases,
            options.seed
        );
        let report = crate::isolated::check(*w, options, timeout, program)?;
        print_report(&report, program);
        outln!(
            "{}: {} in {:.1} s",
            w.name(),
            verdict(&report),
            started.elapsed().as_secs_f64()
        );
        if report.failed() {
            failed.push(w.name());
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::failed(format!(
            "check failed for: {}",
            failed.join(", ")
        )))
    }
}

/// A workload's verdict: `ok`, or `FAILED` with how many variants
/// disagreed and how many crashed or hung.
fn verdict(report: &CheckReport) -> String {
    if !report.failed() {
        return "ok".to_owned();
    }
    let mut why = Vec::new();
    match report.failures.len() {
        0 => {}
        1 => why.push("1 variant disagrees".to_owned()),
        n => why.push(format!("{n} variants disagree")),
    }
    match report.faults.len() {
        0 => {}
        n => why.push(format!("{n} crashed or hung")),
    }
    format!("FAILED ({})", why.join(", "))
}

fn print_report(report: &CheckReport, program: &str) {
    for line in &report.summary {
        outln!("  {line}");
    }
    for note in &report.notes {
        outln!("  note: {note}");
    }
    for f in &report.failures {
        outln!();
        let shrunk = match (f.minimised, f.out_of_budget) {
            (true, false) => "minimised",
            (true, true) => "minimised until its budget ran out",
            (false, _) => "not minimised: the workload's shrink offers no smaller input",
        };
        outln!(
            "  {} disagrees with {} on this input ({shrunk}; from {}):",
            f.variant,
            f.reference,
            f.origin
        );
        // Each value cut to a few hundred characters around the answers'
        // first difference.
        let cut = disagreement(&f.input, &f.expected, &f.got);
        let long = cut.input != f.input;
        if long {
            outln!("    input: {}", cut.input);
        }
        for line in around(&f.picture, 0).lines() {
            outln!("      {line}");
        }
        outln!("    {:>10}: {}", f.reference, cut.expected);
        outln!("    {:>10}: {}", f.variant, cut.got);
        if long {
            outln!(
                "    reproduce: too long for a command line; `{program} inputs {}` \
                 regenerates it from the set and seed above",
                report.workload
            );
            continue;
        }
        let input = std::slice::from_ref(&f.input);
        let repro =
            |variant: &str| solve_line(program, &report.workload, Some(variant), input, None);
        outln!("    reproduce: {}", repro(&f.variant));
        outln!("               {}", repro(&f.reference));
    }
    for finding in &report.faults {
        finding.print();
    }
}
