//! The gungraun harness: the plan handed over by environment, the
//! binary-benchmark group built from it, and the callgrind configuration
//! that counts only [`counted_region`](super::counted_region).
//!
//! gungraun's macros want a `main` of their own; they expand in a private
//! module whose `main` [`bench_main`] and [`gungraun_entry`] call.

use super::{CountOptions, CountPlan, DEFAULT_MAX_BATCH, PLAN_ENV, mark_unrunnable, plan};
use crate::dyn_workload::DynWorkload;
use crate::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

static PLAN: OnceLock<CountPlan> = OnceLock::new();

/// Called first in a bitbench program's `main`: when [`PLAN_ENV`] is set,
/// this process is the gungraun harness its `count` started, and runs it.
pub fn gungraun_entry() -> Option<ExitCode> {
    let text = std::env::var(PLAN_ENV).ok()?;
    Some(match serde_json::from_str(&text) {
        Ok(plan) => run_harness(plan),
        Err(e) => {
            let program = crate::repro::program(env!("CARGO_PKG_NAME"));
            eprintln!("{program}: {PLAN_ENV} is not a count plan: {e}");
            ExitCode::from(2)
        }
    })
}

/// The `instructions` bench's `main`: counts every case `bitbench count`
/// would, with gungraun's own reports and baselines (caches simulated).
pub fn bench_main(workloads: &[&dyn DynWorkload], bitbench: &str) -> ExitCode {
    let bitbench = PathBuf::from(bitbench);
    let options = CountOptions {
        seed: 1,
        max_batch: DEFAULT_MAX_BATCH,
        ..CountOptions::default()
    };
    let planned = plan(workloads, &options).and_then(|mut planned| {
        mark_unrunnable(&mut planned, &bitbench).map_err(Error::usage)?;
        Ok(planned)
    });
    let planned = match planned {
        Ok(planned) => planned,
        Err(e) => {
            eprintln!("instructions: {e}");
            return ExitCode::from(2);
        }
    };
    for p in &planned {
        if let Err((_, reason)) = &p.outcome {
            let c = &p.case;
            eprintln!(
                "instructions: {}/{}/{}: {reason}",
                c.workload, c.variant, c.set
            );
        }
    }
    run_harness(CountPlan {
        bitbench,
        seed: options.seed,
        cases: planned
            .into_iter()
            .filter(|p| p.outcome.is_ok())
            .map(|p| p.case)
            .collect(),
        cache_sim: true,
    })
}

/// Runs gungraun over `plan`; its own lines name the program it counts.
fn run_harness(plan: CountPlan) -> ExitCode {
    let program = plan
        .bitbench
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy();
    if let Err(e) = plan.check_ids() {
        eprintln!("{program}: cannot count: {e}");
        return ExitCode::from(2);
    }
    if plan.cases.is_empty() {
        eprintln!("{program}: nothing to count");
        return ExitCode::SUCCESS;
    }
    PLAN.set(plan).expect("the plan is set once per process");
    harness::run();
    ExitCode::SUCCESS
}

/// The gungraun group: one binary benchmark per (workload, variant), one
/// bench per input set, in plan order.
fn setup_group(group: &mut gungraun::BinaryBenchmarkGroup) {
    let plan = PLAN.get().expect("the plan is set before gungraun runs");
    let mut benchmarks: Vec<(String, gungraun::BinaryBenchmark)> = Vec::new();
    for case in &plan.cases {
        let id = case.benchmark_id();
        let index = match benchmarks.iter().position(|(b, _)| *b == id) {
            Some(i) => i,
            None => {
                benchmarks.push((id.clone(), gungraun::BinaryBenchmark::new(id)));
                benchmarks.len() - 1
            }
        };
        let command = gungraun::Command::new(&plan.bitbench)
            .args([
                "count",
                "--run-case",
                &case.workload,
                &case.variant,
                &case.set,
                "--seed",
                &plan.seed.to_string(),
            ])
            .build();
        benchmarks[index]
            .1
            .bench(gungraun::Bench::new(case.bench_id()).command(command));
    }
    for (_, benchmark) in benchmarks {
        group.binary_benchmark(benchmark);
    }
}

/// The callgrind `--toggle-collect` pattern matching
/// [`counted_region`](super::counted_region): its path must end in
/// `counting::counted_region`, so the function stays in `counting`.
const ENTRY_POINT: &str = "*counting::counted_region";

/// The simulated caches, fixed so that the figures compare across
/// machines (callgrind otherwise copies the host's): 32 KiB 8-way
/// first-level instruction and data caches and an 8 MiB 16-way last
/// level, all with 64-byte lines — a common x86-64 core's shape.
pub const CACHES: [&str; 3] = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"];

fn harness_config() -> gungraun::BinaryBenchmarkConfig {
    let cache_sim = PLAN.get().is_some_and(|p| p.cache_sim);
    let mut callgrind = if cache_sim {
        gungraun::Callgrind::with_args(["--cache-sim=yes"].into_iter().chain(CACHES))
    } else {
        gungraun::Callgrind::with_args(["--cache-sim=no"])
    };
    callgrind.entry_point(gungraun::EntryPoint::Custom(ENTRY_POINT.to_owned()));
    let mut config = gungraun::BinaryBenchmarkConfig::default();
    config.tool(callgrind).env_clear(true);
    config
}

fn parallel_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The gungraun macros generate undocumented items and a `main`; they live
/// in this module and [`harness::run`] calls that `main`.
#[allow(missing_docs, clippy::pedantic)]
mod harness {
    use gungraun::{binary_benchmark_group, main};

    binary_benchmark_group!(
        name = counts;
        compare_by_id = true;
        max_parallel = crate::counting::gungraun::parallel_jobs();
        benchmarks = |group: &mut BinaryBenchmarkGroup| crate::counting::gungraun::setup_group(group)
    );

    main!(
        config = crate::counting::gungraun::harness_config();
        binary_benchmark_groups = counts
    );

    /// Runs gungraun's harness on the plan that was set.
    pub fn run() {
        main();
    }
}
