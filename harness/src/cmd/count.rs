//! `bitbench count`: instructions per element, counted by gungraun.
//!
//! Every selected (variant, input set) is first verified natively, as in
//! `bench`; the survivors become a [`CountPlan`] that this same binary runs
//! as a gungraun harness (a child process, see
//! [`counting::gungraun_entry`]), and gungraun's JSON summaries become
//! records. Nothing is dropped silently: variants valgrind cannot run
//! (AVX-512) are recorded as not countable, with the reason.

use crate::counting::{self, CountPlan, Summary};
use crate::dyn_workload::DynWorkload;
use crate::entry::Suite;
use crate::error::Error;
use crate::fault::TimeoutArg;
use crate::levels::NO_AVX512;
use crate::machine::{self, MachineArg};
use crate::outln;
use reports::{Metric, Record, Status};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// `bitbench count`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Workloads to count; default: all.
    workloads: Vec<String>,
    /// Variants to count; default: all.
    #[arg(long, num_args = 1..)]
    variant: Vec<String>,
    /// Input sets (see `{program} list`); default: the workload's quick bench sets.
    #[arg(long, num_args = 1..)]
    inputs: Vec<String>,
    /// Seed of the generated inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Results file; default: results/count-TIMESTAMP.json.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Skip (with the reason) cases whose batch takes longer than this
    /// natively: callgrind runs code about 50 times slower.
    #[arg(long, value_name = "MS", default_value_t = counting::DEFAULT_MAX_BATCH.as_millis() as u64)]
    max_batch_ms: u64,
    /// Also simulate the caches (callgrind's, with fixed sizes: 32 KiB
    /// 8-way L1s, an 8 MiB 16-way LL, 64-byte lines) and record D1 and LL
    /// misses and estimated cycles per element; counting takes 1.4 to 1.7
    /// times as long.
    #[arg(long)]
    cache: bool,
    /// Do not keep callgrind's profile of each counted record. By default
    /// they go into a directory beside the results file (named like it,
    /// without `.json`; compressed when large), and each record points at
    /// its own: `ab`, `compare` and `history bisect` rank the functions
    /// whose counts changed from them, `report --flamegraphs` draws them.
    #[arg(long)]
    no_profiles: bool,
    #[command(flatten)]
    timeout: TimeoutArg,
    #[command(flatten)]
    machine: MachineArg,
    /// Internal: run one case inside valgrind (what gungraun executes).
    #[arg(long, num_args = 3, value_names = ["WORKLOAD", "VARIANT", "SET"], hide = true)]
    run_case: Vec<String>,
    #[command(flatten)]
    pub(crate) env: crate::measuring_env::KeepEnv,
}

/// Runs `bitbench count`: verifies natively, counts what it can and
/// writes one results file. A variant that answers wrong in the native
/// verification is not counted and its record is an error; one that
/// crashes or hangs there gets a record saying so and its finding printed;
/// the file is written, then `Err(Failed)` names them ([`crate::verdict`]).
/// A case gungraun reports nothing for is a tool failure, recorded as
/// skipped with that reason, never as an error.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    if let [workload, variant, set] = args.run_case.as_slice() {
        return counting::run_case(suite.find(workload)?, variant, set, args.seed);
    }
    let machine = args.machine.resolve()?;
    let selected = suite.select(&args.workloads)?;
    if !args.variant.is_empty() && selected.len() > 1 {
        return Err(Error::usage(
            "--variant needs exactly one workload (variant names differ between workloads)",
        ));
    }
    let options = counting::CountOptions {
        variants: args.variant.clone(),
        sets: args.inputs.clone(),
        seed: args.seed,
        max_batch: Duration::from_millis(args.max_batch_ms),
        exclude: Vec::new(),
    };
    let (date, stamp) = machine::now();
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/count-{stamp}.json")));
    let program = crate::repro::program(suite.origin().binary);
    let (mut planned, findings) = plan(&selected, &options, args.timeout.per_batch(), &program)?;
    let build = machine::build();
    skip_uncountable(&mut planned, &build)?;
    let keep = (!args.no_profiles).then(|| Kept::beside(&path, machine::target_cpu()));
    let (counts, seen) = count(&mut planned, options.seed, args.cache, keep.as_ref())?;

    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut results = machine::results_file(date, command, machine::machine(&machine), build, true);
    // The counted processes ran under valgrind and saw its CPU, not this one.
    results.machine.detected_features = seen;
    results.records = records(planned, &counts, args.cache);
    for w in &selected {
        w.annotate(&mut results.records);
        print_table(*w, &results.records);
    }
    for finding in &findings {
        finding.print();
    }
    results.write(&path)?;
    outln!("results: {}", path.display());
    if let Some(keep) = &keep {
        print_kept(keep, &path, &counts);
    }
    crate::verdict::check("count", &results.records)
}

/// [`counting::plan`], each workload's native verification in a watched
/// child ([`crate::fault`]), each batch stopped `timeout` past its
/// allowance: a variant that crashes or hangs is not counted, its record
/// says so, and its finding (with a repro line naming `program`) comes
/// back with the plan.
fn plan<'a>(
    workloads: &[&'a dyn DynWorkload],
    options: &counting::CountOptions,
    timeout: Duration,
    program: &str,
) -> Result<(Vec<counting::Planned<'a>>, Vec<crate::fault::Finding>), Error> {
    let mut planned = Vec::new();
    let mut findings = Vec::new();
    for &w in workloads {
        let (cases, found) = crate::isolated::count_cases(w, options, timeout, program)?;
        planned.extend(cases.into_iter().map(|(case, outcome)| counting::Planned {
            workload: w,
            case,
            outcome,
        }));
        findings.extend(found);
    }
    Ok((planned, findings))
}

/// Marks every countable case skipped, with the reason, when valgrind
/// cannot count here: a binary built with AVX-512, or the tools missing
/// (a usage error then, unless nothing was countable anyway).
fn skip_uncountable(
    planned: &mut [counting::Planned<'_>],
    build: &reports::Build,
) -> Result<(), Error> {
    let blocker = if build.features.iter().any(|f| f.starts_with("avx512")) {
        Some(format!(
            "{NO_AVX512} (this binary was built for target-cpu={} with AVX-512 enabled)",
            build.target_cpu
        ))
    } else {
        counting::check_tools().err()
    };
    if let Some(reason) = &blocker {
        if !planned.iter().any(|p| p.outcome.is_ok()) {
            // Nothing was countable anyway; the records say why.
        } else if !reason.starts_with("not countable") {
            return Err(Error::usage(format!("count: {reason}")));
        }
        for p in planned.iter_mut().filter(|p| p.outcome.is_ok()) {
            p.outcome = Err((Status::Skipped, reason.clone()));
        }
    }
    Ok(())
}

/// Counts the cases still countable under gungraun (the cache simulation
/// too when `cache_sim`), keeping each profile where `keep` says: each
/// case's summary and kept profile, by (benchmark id, bench id), and the
/// CPU features the counted processes detected (`None` when none ran, or
/// valgrind would not say).
fn count(
    planned: &mut [counting::Planned<'_>],
    seed: u64,
    cache_sim: bool,
    keep: Option<&Kept>,
) -> Result<(Counts, Option<Vec<String>>), Error> {
    let bitbench = std::env::current_exe()
        .map_err(|e| Error::usage(format!("count: cannot find this executable: {e}")))?;
    counting::mark_unrunnable(planned, &bitbench).map_err(Error::usage)?;
    let plan = CountPlan {
        bitbench,
        seed,
        cache_sim,
        cases: planned
            .iter()
            .filter(|p| p.outcome.is_ok())
            .map(|p| p.case.clone())
            .collect(),
    };
    if plan.cases.is_empty() {
        return Ok((HashMap::new(), None));
    }
    let seen = counting::valgrind_features(&plan.bitbench).ok();
    Ok((run_gungraun(&plan, keep)?, seen))
}

/// Each planned case's records: its counts where gungraun gave them,
/// else the reason it was not counted.
fn records(planned: Vec<counting::Planned<'_>>, counts: &Counts, cache_sim: bool) -> Vec<Record> {
    let target_cpu = machine::target_cpu();
    let mut records = Vec::new();
    for p in planned {
        let key = (p.case.benchmark_id(), p.case.bench_id());
        let outcome = match p.outcome {
            Ok(elements) => match counts.get(&key) {
                Some((s, _)) if s.threads > 1 => Err((
                    Status::Skipped,
                    format!(
                        "not countable: ran on {} threads, and the entry point counts only \
                         the calling thread",
                        s.threads
                    ),
                )),
                Some((s, _)) => Ok((s, elements)),
                // The tool failed, not the variant (verified above).
                None => Err((
                    Status::Skipped,
                    "not counted: gungraun reported no count for this case".to_owned(),
                )),
            },
            Err(e) => Err(e),
        };
        let profile = counts.get(&key).and_then(|(_, kept)| kept.clone());
        records.extend(
            counting::records(p.workload, &p.case, target_cpu, cache_sim, outcome)
                .into_iter()
                .map(|r| Record {
                    profile: profile.clone().filter(|_| r.status == Status::Ok),
                    ..r
                }),
        );
    }
    records
}

/// Prints where the profiles beside the results file at `path` went, and
/// their size, when any were kept.
fn print_kept(keep: &Kept, path: &Path, counts: &Counts) {
    let kept: Vec<PathBuf> = counts
        .values()
        .filter_map(|(_, rel)| Some(path.parent()?.join(rel.as_ref()?)))
        .collect();
    if kept.is_empty() {
        return;
    }
    let bytes: u64 = kept
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    outln!(
        "profiles: {} ({} files, {:.1} MB)",
        keep.dir.display(),
        kept.len(),
        bytes as f64 / 1e6
    );
}

/// Where `count` keeps the profiles of one results file: a directory
/// beside it, named like it without `.json`.
struct Kept {
    /// The directory.
    dir: PathBuf,
    /// Its name, which starts each record's relative `profile` path.
    name: String,
    /// The build's target CPU, which ends each profile's name.
    target_cpu: String,
}

impl Kept {
    fn beside(results: &Path, target_cpu: &str) -> Kept {
        let dir = results.with_extension("");
        Kept {
            name: dir
                .file_name()
                .map_or_else(|| "profiles".into(), |n| n.to_string_lossy().into_owned()),
            dir,
            target_cpu: target_cpu.to_owned(),
        }
    }

    /// Keeps `case`'s profile `from` (compressed when large); its path
    /// relative to the results file's directory.
    fn keep(&self, case: &counting::CountCase, from: &Path) -> Result<String, Error> {
        let stem = crate::attribution::file_stem(&[
            &case.workload,
            &case.variant,
            &case.set,
            &self.target_cpu,
        ]);
        let io = |e: std::io::Error| {
            Error::usage(format!(
                "count: cannot keep the profile in {}: {e}",
                self.dir.display()
            ))
        };
        std::fs::create_dir_all(&self.dir).map_err(io)?;
        let kept = reports::profile::store(from, &self.dir.join(stem)).map_err(io)?;
        let file = kept.file_name().expect("a file").to_string_lossy();
        Ok(format!("{}/{file}", self.name))
    }
}

/// A counted case: its summary and, when kept, its profile's path.
type Counted = (Summary, Option<String>);

/// Each counted case by (benchmark id, bench id).
type Counts = HashMap<(String, String), Counted>;

/// Runs the plan as a gungraun harness (this executable, as a child) and
/// returns the summaries by (benchmark id, bench id), keeping each case's
/// callgrind profile in `keep` before gungraun's directory is removed.
fn run_gungraun(plan: &CountPlan, keep: Option<&Kept>) -> Result<Counts, Error> {
    let home = std::env::temp_dir().join(format!("bitbench-count-{}", std::process::id()));
    let json = serde_json::to_string(plan).expect("plans serialise");
    eprintln!(
        "count: {} case(s) under valgrind (gungraun {})...",
        plan.cases.len(),
        counting::GUNGRAUN_VERSION
    );
    // `--bench` as `cargo bench` passes it: without it gungraun runs in
    // test mode and measures nothing.
    let output = crate::measuring_env::apply(&mut Command::new(&plan.bitbench))
        .args(["--bench", "--output-format=json"])
        .env(counting::PLAN_ENV, json)
        .env("GUNGRAUN_HOME", &home)
        .env("GUNGRAUN_WORKSPACE_ROOT", &home)
        .output();
    let counted = output
        .map_err(|e| Error::usage(format!("count: cannot start gungraun: {e}")))
        .and_then(|output| {
            let summaries = summaries(&output)?;
            let profiles = keep.map(|_| counting::profiles(&home)).unwrap_or_default();
            summaries
                .into_iter()
                .map(|s| {
                    let key = (s.benchmark.clone(), s.bench.clone());
                    let case = plan
                        .cases
                        .iter()
                        .find(|c| (c.benchmark_id(), c.bench_id()) == key);
                    let kept = match (keep, case, profiles.get(&key)) {
                        (Some(keep), Some(case), Some(from)) => Some(keep.keep(case, from)?),
                        _ => None,
                    };
                    Ok((key, (s, kept)))
                })
                .collect()
        });
    let _ = std::fs::remove_dir_all(&home);
    counted
}

/// gungraun's summaries from its output, or its error's last lines.
fn summaries(output: &std::process::Output) -> Result<Vec<Summary>, Error> {
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(Error::usage(format!(
            "count: gungraun failed ({}):\n{}",
            output.status,
            tail.join("\n")
        )));
    }
    counting::parse_summaries(&String::from_utf8_lossy(&output.stdout)).map_err(Error::usage)
}

/// Prints each counted metric per element (instructions, and the cache
/// simulation's when it ran), one row per input set and one column per
/// variant, then the reasons for every missing count.
fn print_table(w: &dyn DynWorkload, records: &[Record]) {
    let records: Vec<&Record> = records.iter().filter(|r| r.workload == w.name()).collect();
    let (variants, sets) = crate::grid::axes(w, &records);
    for metric in Metric::ALL {
        let of: Vec<&Record> = records
            .iter()
            .copied()
            .filter(|r| r.metric == metric)
            .collect();
        let Some(unit) = of.first().map(|r| r.unit.clone()) else {
            continue;
        };
        let title = format!("{}: {unit}", w.name());
        crate::grid::print_grid(&title, &sets, &variants, 12, |v, set| {
            match of.iter().find(|r| r.variant == v && r.input_set == set) {
                Some(r) if r.status == Status::Ok => format_count(r.median),
                Some(r) if r.status == Status::Error => "WRONG".to_owned(),
                Some(r) if r.status.faulted() => r.status.as_str().to_uppercase(),
                Some(r)
                    if r.reason
                        .as_deref()
                        .is_some_and(|s| s.starts_with("not countable")) =>
                {
                    "n/c".to_owned()
                }
                Some(_) => "skipped".to_owned(),
                None => "-".to_owned(),
            }
        });
    }
    let mut reasons: Vec<String> = Vec::new();
    for r in records.iter().filter(|r| r.status != Status::Ok) {
        let line = format!("  {}: {}", r.variant, r.reason.as_deref().unwrap_or(""));
        if !reasons.contains(&line) {
            reasons.push(line);
        }
    }
    for line in reasons {
        outln!("{line}");
    }
}

/// A count per element: three significant digits (more decimals below
/// 1, as for a byte kernel), whole numbers from 10 000.
fn format_count(value: f64) -> String {
    if value < 1e4 {
        reports::numbers::sig3(value)
    } else {
        format!("{value:.0}")
    }
}
