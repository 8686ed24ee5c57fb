//! Instruction counts through gungraun, generated from the registry.
//!
//! A [`CountPlan`] lists one [`CountCase`] per (workload, variant, input
//! set). It becomes a gungraun binary-benchmark group: each case runs
//! `bitbench count --run-case ...` under callgrind, and gungraun's entry
//! point restricts counting to [`counted_region`] — one pass over a batch
//! prepared beforehand — so generating inputs and building solvers never
//! count. `bitbench count` and `cargo bench --bench instructions` share
//! this module; the former parses gungraun's JSON summaries into records.

use crate::batch::{BatchError, BatchRequest, PreparedBatch};
use crate::bench::singular;
use crate::erased::DynWorkload;
use crate::error::CliError;
use reports::{Metric, Record, Status};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Environment variable carrying the plan (JSON) to the gungraun harness
/// that `bitbench count` starts as a child process of itself.
pub const PLAN_ENV: &str = "BITBENCH_COUNT_PLAN";

/// The gungraun version this build links; the runner must match it.
pub const GUNGRAUN_VERSION: &str = "0.20.0";

/// How to get the tools, for error messages.
pub const INSTALL_HINT: &str = "install them with `bash .ci/install-measure-tools` \
     (apt-get install valgrind; cargo install gungraun-runner --version 0.20.0 --locked)";

/// Instruction counts are exact, so every count uses the quick batch size.
const QUICK: bool = true;

/// Cases whose batch takes longer than this natively are not counted by
/// default: callgrind runs code about 50 times slower.
pub const DEFAULT_MAX_BATCH: Duration = Duration::from_millis(250);

/// One (workload, variant, input set) to count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountCase {
    /// Workload name.
    pub workload: String,
    /// Variant name.
    pub variant: String,
    /// Input set (expanded).
    pub set: String,
}

impl CountCase {
    /// gungraun's binary-benchmark id: one per (workload, variant).
    pub fn benchmark_id(&self) -> String {
        gungraun_id(&format!("{}__{}", self.workload, self.variant))
    }

    /// gungraun's bench id: one per (workload, set), so `compare_by_id`
    /// lines up the variants of a workload on the same inputs.
    pub fn bench_id(&self) -> String {
        gungraun_id(&format!("{}__{}", self.workload, self.set))
    }
}

/// Maps a name onto gungraun's id alphabet (`[A-Za-z_][A-Za-z0-9_]*`).
fn gungraun_id(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        id.insert(0, '_');
    }
    id
}

/// What the gungraun harness runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CountPlan {
    /// The `bitbench` executable each case runs.
    pub bitbench: PathBuf,
    /// Generator seed.
    pub seed: u64,
    /// The cases, each countable under valgrind.
    pub cases: Vec<CountCase>,
    /// Simulate caches too (gungraun's default; `bitbench count` only needs
    /// instructions and turns it off, which roughly halves the run time).
    pub cache_sim: bool,
}

impl CountPlan {
    /// Fails when two cases would get the same gungraun ids.
    pub fn check_ids(&self) -> Result<(), String> {
        let mut seen = HashMap::new();
        for case in &self.cases {
            if let Some(other) = seen.insert((case.benchmark_id(), case.bench_id()), case) {
                return Err(format!(
                    "{}/{}/{} and {}/{}/{} map to the same gungraun id",
                    other.workload, other.variant, other.set, case.workload, case.variant, case.set
                ));
            }
        }
        Ok(())
    }
}

static PLAN: OnceLock<CountPlan> = OnceLock::new();

/// Called first in `bitbench`'s `main`: when [`PLAN_ENV`] is set, this
/// process is the gungraun harness `bitbench count` started, and runs it.
pub fn gungraun_entry() -> Option<ExitCode> {
    let text = std::env::var(PLAN_ENV).ok()?;
    Some(match serde_json::from_str(&text) {
        Ok(plan) => run_harness(plan),
        Err(e) => {
            eprintln!("bitbench: {PLAN_ENV} is not a count plan: {e}");
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
        probe(&mut planned, &bitbench).map_err(CliError::usage)?;
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

fn run_harness(plan: CountPlan) -> ExitCode {
    if let Err(e) = plan.check_ids() {
        eprintln!("bitbench: cannot count: {e}");
        return ExitCode::from(2);
    }
    if plan.cases.is_empty() {
        eprintln!("bitbench: nothing to count");
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

/// Only this function's instructions are counted (gungraun's entry point).
#[inline(never)]
pub fn counted_region(batch: &mut PreparedBatch) {
    batch.run();
}

/// The callgrind `--toggle-collect` pattern matching [`counted_region`].
const ENTRY_POINT: &str = "*counting::counted_region";

fn harness_config() -> gungraun::BinaryBenchmarkConfig {
    let cache_sim = PLAN.get().is_some_and(|p| p.cache_sim);
    let mut callgrind = gungraun::Callgrind::with_args([if cache_sim {
        "--cache-sim=yes"
    } else {
        "--cache-sim=no"
    }]);
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
        max_parallel = crate::counting::parallel_jobs();
        benchmarks = |group: &mut BinaryBenchmarkGroup| crate::counting::setup_group(group)
    );

    main!(
        config = crate::counting::harness_config();
        binary_benchmark_groups = counts
    );

    /// Runs gungraun's harness on the plan that was set.
    pub fn run() {
        main();
    }
}

/// Runs one case inside valgrind: prepare (uncounted), then one counted
/// pass. Errors are one line for gungraun's log.
pub fn run_case(w: &dyn DynWorkload, variant: &str, set: &str, seed: u64) -> Result<(), CliError> {
    let workload = w.name();
    let mut batch = w
        .prepare_batch(&BatchRequest {
            variant,
            set,
            seed,
            quick: QUICK,
            verify: false,
        })
        .map_err(|e| match e {
            BatchError::Skipped(r) | BatchError::Wrong(r) => {
                CliError::usage(format!("{workload}/{variant} on {set}: {r}"))
            }
            BatchError::Invalid(e) => e,
        })?;
    counted_region(std::hint::black_box(&mut batch));
    Ok(())
}

/// What to count.
#[derive(Clone, Debug, Default)]
pub struct CountOptions {
    /// Variants to count; empty means all.
    pub variants: Vec<String>,
    /// Input sets; empty means the workload's quick bench sets.
    pub sets: Vec<String>,
    /// Generator seed.
    pub seed: u64,
    /// Cases whose batch takes longer natively are skipped.
    pub max_batch: Duration,
}

/// A case and, once known, why it is not counted.
pub struct Planned<'a> {
    /// The workload.
    pub workload: &'a dyn DynWorkload,
    /// The case.
    pub case: CountCase,
    /// `Ok(elements)` when countable, else the record's status and reason.
    pub outcome: Result<u64, (Status, String)>,
}

/// Lists the cases and verifies each natively; the outcome says which
/// are countable and how many elements one batch holds.
pub fn plan<'a>(
    workloads: &[&'a dyn DynWorkload],
    options: &CountOptions,
) -> Result<Vec<Planned<'a>>, CliError> {
    let mut planned = Vec::new();
    for &w in workloads {
        let variants = w.variants();
        for name in &options.variants {
            if !variants.iter().any(|v| v.name == name) {
                let names: Vec<_> = variants.iter().map(|v| v.name).collect();
                return Err(CliError::usage(format!(
                    "unknown variant '{name}' for workload '{}' (known: {})",
                    w.name(),
                    names.join(", ")
                )));
            }
        }
        for set in w.measured_sets(&options.sets, true) {
            for v in variants.iter().filter(|v| {
                options.variants.is_empty() || options.variants.iter().any(|n| n == v.name)
            }) {
                let request = BatchRequest {
                    variant: v.name,
                    set: &set,
                    seed: options.seed,
                    quick: QUICK,
                    verify: true,
                };
                let outcome = match w.prepare_batch(&request) {
                    Err(BatchError::Skipped(_)) if v.unavailable.is_some() => Err((
                        Status::Skipped,
                        unavailable_here(v.unavailable.as_deref().unwrap_or_default()),
                    )),
                    Ok(mut batch) => {
                        let start = Instant::now();
                        batch.run();
                        let took = start.elapsed();
                        if took > options.max_batch {
                            Err((
                                Status::Skipped,
                                format!(
                                    "not counted: one batch takes {took:.2?} natively, over \
                                     --max-batch-ms {} (callgrind is ~50× slower)",
                                    options.max_batch.as_millis()
                                ),
                            ))
                        } else {
                            Ok(batch.elements.expect("verified batches count elements"))
                        }
                    }
                    Err(BatchError::Skipped(reason)) => Err((Status::Skipped, reason)),
                    Err(BatchError::Wrong(reason)) => Err((Status::Error, reason)),
                    Err(BatchError::Invalid(e)) => return Err(e),
                };
                planned.push(Planned {
                    workload: w,
                    case: CountCase {
                        workload: w.name().to_owned(),
                        variant: v.name.to_owned(),
                        set: set.clone(),
                    },
                    outcome,
                });
            }
        }
    }
    Ok(planned)
}

/// Marks the countable cases valgrind cannot run (see [`not_countable`]).
pub fn probe(planned: &mut [Planned<'_>], bitbench: &Path) -> Result<(), String> {
    if !planned.iter().any(|p| p.outcome.is_ok()) {
        return Ok(());
    }
    let under_valgrind = valgrind_availability(bitbench)?;
    for p in planned.iter_mut().filter(|p| p.outcome.is_ok()) {
        if let Some(reason) = not_countable(&None, &under_valgrind, &p.case) {
            p.outcome = Err((Status::Skipped, reason));
        }
    }
    Ok(())
}

/// Which variants valgrind can run: `(workload, variant) → None` when
/// available under valgrind, `Some(reason)` when not. Found by running
/// `bitbench list --json` under valgrind, whose CPUID hides what it cannot
/// execute (AVX-512), so runtime detection answers honestly.
pub fn valgrind_availability(
    bitbench: &Path,
) -> Result<HashMap<(String, String), Option<String>>, String> {
    let out = Command::new("valgrind")
        .args(["--tool=none", "-q", "--error-exitcode=99"])
        .arg(bitbench)
        .args(["list", "--json"])
        .env("CI", "1")
        .output()
        .map_err(|e| format!("cannot run valgrind ({e}); {INSTALL_HINT}"))?;
    if !out.status.success() {
        return Err(format!(
            "`valgrind {} list --json` failed: {}",
            bitbench.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("unexpected `list --json` output under valgrind: {e}"))?;
    Ok(entries
        .iter()
        .map(|e| {
            let text = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
            let reason = (e["available"] != true).then(|| text("reason"));
            ((text("workload"), text("variant")), reason)
        })
        .collect())
}

/// Why a case cannot be counted, given the variant's native availability
/// and what valgrind can run; `None` when it can.
pub fn not_countable(
    native: &Option<String>,
    under_valgrind: &HashMap<(String, String), Option<String>>,
    case: &CountCase,
) -> Option<String> {
    if let Some(reason) = native {
        return Some(unavailable_here(reason));
    }
    let key = (case.workload.clone(), case.variant.clone());
    match under_valgrind.get(&key) {
        Some(None) => None,
        Some(Some(reason)) if reason.contains("avx512") => Some(format!(
            "{} (under valgrind {reason})",
            crate::levels::NO_AVX512
        )),
        Some(Some(reason)) => Some(format!("not countable: under valgrind {reason}")),
        None => Some("not countable: unknown to the valgrind probe".to_owned()),
    }
}

/// The count record's reason for a variant this CPU cannot run: for
/// AVX-512 ones, that valgrind could not count them on any CPU comes first.
pub fn unavailable_here(reason: &str) -> String {
    if reason.contains("avx512") {
        format!("{} (and {reason})", crate::levels::NO_AVX512)
    } else {
        reason.to_owned()
    }
}

/// Checks that valgrind and a matching gungraun-runner are installed.
pub fn check_tools() -> Result<(), String> {
    let version = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    if version("valgrind").is_none() {
        return Err(format!("valgrind is not installed; {INSTALL_HINT}"));
    }
    match version("gungraun-runner") {
        None => Err(format!("gungraun-runner is not on PATH; {INSTALL_HINT}")),
        Some(v) if !v.split_whitespace().any(|w| w == GUNGRAUN_VERSION) => Err(format!(
            "gungraun-runner is '{v}' but this build links gungraun {GUNGRAUN_VERSION}; \
             {INSTALL_HINT}"
        )),
        Some(_) => Ok(()),
    }
}

/// One parsed gungraun summary: the ids and the instruction count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The binary-benchmark id ([`CountCase::benchmark_id`]).
    pub benchmark: String,
    /// The bench id ([`CountCase::bench_id`]).
    pub bench: String,
    /// Callgrind's `Ir` over the counted region.
    pub instructions: u64,
    /// Threads the case ran on: the entry point counts only the thread
    /// that called [`counted_region`], so more than one means workers'
    /// instructions are missing from `instructions`.
    pub threads: usize,
}

/// Parses gungraun's `--output-format=json` stdout: one summary a line.
pub fn parse_summaries(stdout: &str) -> Result<Vec<Summary>, String> {
    stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .map(parse_summary)
        .collect()
}

fn parse_summary(line: &str) -> Result<Summary, String> {
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("gungraun summary is not JSON: {e}"))?;
    let text = |k: &str| v[k].as_str().map(str::to_owned);
    let name = format!("{}", v["module_path"]);
    let benchmark = text("function_name").ok_or_else(|| format!("{name}: no function_name"))?;
    let bench = text("id").ok_or_else(|| format!("{name}: no id"))?;
    let callgrind = v["profiles"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["tool"] == "Callgrind")
        .map(|p| &p["data"]);
    let instructions = callgrind
        .and_then(|d| d["total"]["metrics"]["Ir"]["values"]["new"].as_u64())
        .ok_or_else(|| format!("{name} {bench}: no callgrind Ir in the summary"))?;
    let threads = callgrind
        .and_then(|d| d["parts"].as_array())
        .map_or(1, |parts| parts.len().max(1));
    Ok(Summary {
        benchmark,
        bench,
        instructions,
        threads,
    })
}

/// Builds the records of a count: one per planned case, counted or not.
pub fn record(
    w: &dyn DynWorkload,
    case: &CountCase,
    target_cpu: &str,
    outcome: Result<(u64, u64), (Status, String)>,
) -> Record {
    let base = Record {
        workload: case.workload.clone(),
        variant: case.variant.clone(),
        input_set: case.set.clone(),
        target_cpu: target_cpu.to_owned(),
        metric: Metric::Instructions,
        unit: format!("instructions/{}", singular(w.unit())),
        ..Record::default()
    };
    match outcome {
        Ok((instructions, elements)) => {
            let per = instructions as f64 / elements as f64;
            Record {
                median: per,
                min: per,
                max: per,
                samples: 1,
                elements_per_sample: elements,
                ..base
            }
        }
        Err((status, reason)) => Record {
            status,
            reason: Some(reason),
            ..base
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_fit_gungraun_and_stay_distinct() {
        let case = CountCase {
            workload: "components-groups4".into(),
            variant: "row-table".into(),
            set: "density:0.5".into(),
        };
        assert_eq!(case.benchmark_id(), "components_groups4__row_table");
        assert_eq!(case.bench_id(), "components_groups4__density_0_5");
        assert_eq!(gungraun_id("9x"), "_9x");
        let clash = CountCase {
            set: "density_0.5".into(),
            ..case.clone()
        };
        let plan = CountPlan {
            bitbench: "bitbench".into(),
            seed: 1,
            cases: vec![case, clash],
            cache_sim: false,
        };
        assert!(plan.check_ids().unwrap_err().contains("same gungraun id"));
    }

    #[test]
    fn summaries_yield_the_callgrind_ir_of_each_bench() {
        // The shape of gungraun 0.20's `--output-format=json` lines, trimmed.
        let line = r#"{"function_name":"components__swar","id":"components__density_0_5",
            "module_path":"harness::counting::harness::counts::components__swar",
            "profiles":[{"tool":"Callgrind","data":{"parts":[{}],"total":{"metrics":{
            "Ir":{"values":{"new":1135105}},"Dr":{"values":{"new":61230}}},
            "regressions":[]}}}]}"#
            .replace('\n', "");
        let stdout = format!("{line}\n{line}\n");
        let summaries = parse_summaries(&stdout).unwrap();
        assert_eq!(summaries.len(), 2);
        assert_eq!(
            summaries[0],
            Summary {
                benchmark: "components__swar".into(),
                bench: "components__density_0_5".into(),
                instructions: 1_135_105,
                threads: 1,
            }
        );
        let no_ir = line.replace("\"Ir\"", "\"Xr\"");
        assert!(
            parse_summaries(&no_ir)
                .unwrap_err()
                .contains("no callgrind Ir")
        );
    }

    #[test]
    fn avx512_variants_are_named_not_countable() {
        let case = CountCase {
            workload: "w".into(),
            variant: "avx512".into(),
            set: "s".into(),
        };
        let mut probe = HashMap::new();
        probe.insert(
            ("w".to_owned(), "avx512".to_owned()),
            Some("this CPU lacks avx512bw+avx512vl".to_owned()),
        );
        assert_eq!(
            not_countable(&None, &probe, &case).unwrap(),
            "not countable: valgrind has no AVX-512 (under valgrind this CPU lacks avx512bw+avx512vl)"
        );
        let native = Some("this CPU lacks avx2".to_owned());
        assert_eq!(not_countable(&native, &probe, &case), native);
        let native = Some("this CPU lacks avx512f".to_owned());
        assert_eq!(
            not_countable(&native, &probe, &case).unwrap(),
            "not countable: valgrind has no AVX-512 (and this CPU lacks avx512f)"
        );
        probe.insert(("w".to_owned(), "avx512".to_owned()), None);
        assert_eq!(not_countable(&None, &probe, &case), None);
    }
}
