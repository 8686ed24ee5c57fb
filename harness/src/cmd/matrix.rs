//! `bitbench matrix`: the same measurements at several target-cpu levels.
//!
//! For each level bitbench rebuilds the running program (its package and
//! binary, from [`Origin`]) as its own runner (`cargo build` with
//! `RUSTFLAGS=-C target-cpu=LEVEL` and a target directory per level, so the
//! builds neither clash nor rebuild each other), runs it as a subprocess
//! for `bench` (and `count` where valgrind can run the level), and merges
//! every record into one results file with the level in `target_cpu`.
//! Levels this CPU cannot run, and counts valgrind cannot take, are
//! recorded as skipped with the reason rather than left out.

use crate::dyn_workload::DynWorkload;
use crate::entry::{Origin, Suite};
use crate::error::Error;
use crate::levels;
use crate::machine::{self, MachineArg};
use crate::outln;
use crate::revision::{cargo, target_dir, working_tree_commit};
use reports::{Build, Metric, Record, ResultsFile, Status};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `bitbench matrix`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Workloads to measure; default: all.
    workloads: Vec<String>,
    /// Comma-separated target-cpu levels.
    #[arg(long, default_value = "x86-64,x86-64-v2,x86-64-v3,x86-64-v4,native")]
    levels: String,
    /// Also count instructions (valgrind and gungraun-runner needed).
    #[arg(long)]
    count: bool,
    /// With --count, also simulate the caches (`count --cache`).
    #[arg(long, requires = "count")]
    cache: bool,
    /// Full-length benchmarks instead of `bench --quick` at every level.
    #[arg(long)]
    full: bool,
    /// Seed of the generated inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory; default: results/matrix-TIMESTAMP.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    machine: MachineArg,
    #[command(flatten)]
    pub(crate) env: crate::measuring_env::KeepEnv,
}

/// Runs `bitbench matrix`.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let levels = levels::parse_list(&args.levels).map_err(Error::usage)?;
    let machine = args.machine.resolve()?;
    let selected = suite.select(&args.workloads)?;
    let options = MatrixOptions {
        levels,
        count: args.count,
        cache: args.cache,
        full: args.full,
        workloads: args.workloads,
        seed: args.seed,
        out: args.out,
        machine,
    };
    measure(suite.origin(), &selected, &options).map(|_| ())
}

/// What `matrix` should do.
#[derive(Clone, Debug, Default)]
pub struct MatrixOptions {
    /// Levels to build, in order.
    pub levels: Vec<String>,
    /// Also count instructions.
    pub count: bool,
    /// Counting also simulates the caches.
    pub cache: bool,
    /// Full-length benchmarks instead of `bench --quick`.
    pub full: bool,
    /// Workload names; empty means all.
    pub workloads: Vec<String>,
    /// Generator seed.
    pub seed: u64,
    /// Output directory; default `results/matrix-<timestamp>`.
    pub out: Option<PathBuf>,
    /// The machine's name, recorded by every level's run too.
    pub machine: String,
}

/// Builds, runs and merges; returns the merged file's path and contents.
pub fn measure(
    origin: &Origin,
    workloads: &[&dyn DynWorkload],
    options: &MatrixOptions,
) -> Result<(PathBuf, ResultsFile), Error> {
    let (date, stamp) = machine::now();
    let dir = options
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/matrix-{stamp}")));
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::usage(format!("--out {}: cannot create: {e}", dir.display())))?;
    let target_base = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => target_dir(origin)?,
    }
    .join("matrix");
    let tools = if options.count {
        crate::ab::count_tools()
    } else {
        None
    };
    if let Some(reason) = &tools {
        eprintln!("matrix: instruction counts skipped: {reason}");
    }

    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let build = Build {
        target_cpu: options.levels.join(","),
        features: Vec::new(),
        profile: "release".to_owned(),
    };
    let mut merged = ResultsFile::new(date, command, machine::machine(&options.machine), build);
    let mut faulted = false;
    for level in &options.levels {
        if let Some(reason) = levels::cannot_run(level) {
            eprintln!("matrix: skipping {level}: {reason}");
            merged
                .records
                .extend(level_not_run(workloads, level, options, reason));
            continue;
        }
        eprintln!("matrix: {level}: building");
        let program = build_level(origin, &target_base, level)?;
        let bench_out = dir.join(format!("bench-{level}.json"));
        let mut args = vec!["bench".to_owned()];
        args.extend(options.workloads.iter().cloned());
        if !options.full {
            args.push("--quick".to_owned());
        }
        faulted |= run_level(&program, level, &args, options, &bench_out)?;
        merge(&mut merged, &bench_out, level)?;

        if !options.count {
            continue;
        }
        let blocker = levels::not_countable(level)
            .map(str::to_owned)
            .or_else(|| tools.clone());
        if let Some(reason) = blocker {
            merged.records.extend(skipped(
                workloads,
                level,
                Metric::Instructions,
                true,
                &reason,
            ));
            continue;
        }
        let count_out = dir.join(format!("count-{level}.json"));
        let mut args = vec!["count".to_owned()];
        if options.cache {
            args.push("--cache".to_owned());
        }
        args.extend(options.workloads.iter().cloned());
        faulted |= run_level(&program, level, &args, options, &count_out)?;
        merge(&mut merged, &count_out, level)?;
    }
    let path = dir.join("matrix.json");
    merged.write(&path)?;
    outln!("merged results: {}", path.display());
    crate::verdict::check("matrix", &merged.records)?;
    if faulted {
        return Err(Error::failed(
            "matrix: a level's run failed after writing its results (see above)",
        ));
    }
    Ok((path, merged))
}

/// The records of a level this machine cannot run, each saying why: its
/// times, and its counts when asked for.
fn level_not_run(
    workloads: &[&dyn DynWorkload],
    level: &str,
    options: &MatrixOptions,
    reason: String,
) -> Vec<Record> {
    let reason = format!("level {level} not run: {reason}");
    let mut records = skipped(workloads, level, Metric::Time, !options.full, &reason);
    if options.count {
        let reason = match levels::not_countable(level) {
            Some(no) => format!("{no} (and {reason})"),
            None => reason,
        };
        records.extend(skipped(
            workloads,
            level,
            Metric::Instructions,
            true,
            &reason,
        ));
    }
    records
}

/// `cargo build --release` of `origin`'s binary for one level, in the
/// level's own target directory; returns the executable.
fn build_level(origin: &Origin, target_base: &Path, level: &str) -> Result<PathBuf, Error> {
    let target = target_base.join(level);
    let mut rustflags = std::env::var("RUSTFLAGS").unwrap_or_default();
    rustflags.push_str(&format!(" -C target-cpu={level}"));
    let mut command = Command::new(cargo());
    // The commit, for `main!` to record in the level's results.
    if let Some((sha, dirty)) = working_tree_commit(Path::new(origin.manifest_dir)) {
        command
            .env("BITBENCH_BUILD_COMMIT", sha)
            .env("BITBENCH_BUILD_DIRTY", dirty);
    }
    let status = command
        .args(["build", "--release", "--quiet", "-p", origin.package])
        .args(["--bin", origin.binary])
        .current_dir(origin.manifest_dir)
        .env("RUSTFLAGS", rustflags.trim())
        // Set by `cargo run`; it would override RUSTFLAGS in the child.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .map_err(|e| Error::usage(format!("matrix: cannot run cargo: {e}")))?;
    if !status.success() {
        return Err(Error::failed(format!(
            "matrix: building {level} failed ({status})"
        )));
    }
    let exe =
        target
            .join("release")
            .join(format!("{}{}", origin.binary, std::env::consts::EXE_SUFFIX));
    if exe.is_file() {
        Ok(exe)
    } else {
        Err(Error::failed(format!(
            "matrix: {level} built, but {} is missing",
            exe.display()
        )))
    }
}

/// Runs one level's build of the program with `args`, the seed, the
/// machine's name and `--out`; `Ok(true)` when it exited 1 having written
/// its file (a variant answered wrong, crashed or hung, and its records
/// say so), so the matrix goes on to the other levels.
fn run_level(
    program: &Path,
    level: &str,
    args: &[String],
    options: &MatrixOptions,
    out: &Path,
) -> Result<bool, Error> {
    eprintln!("matrix: {level}: {}", args.join(" "));
    let _ = std::fs::remove_file(out);
    let status = crate::measuring_env::apply(&mut Command::new(program))
        .args(args)
        .arg("--seed")
        .arg(options.seed.to_string())
        .arg("--machine")
        .arg(&options.machine)
        .arg("--out")
        .arg(out)
        .status()
        .map_err(|e| Error::usage(format!("matrix: cannot run {}: {e}", program.display())))?;
    if status.success() {
        Ok(false)
    } else if status.code() == Some(1) && out.is_file() {
        Ok(true)
    } else {
        let name = program.file_stem().unwrap_or(program.as_os_str());
        Err(Error::failed(format!(
            "matrix: {level}: `{} {}` failed ({status})",
            name.to_string_lossy(),
            args.join(" ")
        )))
    }
}

/// Appends one level's records, checking the build really was that level.
fn merge(merged: &mut ResultsFile, path: &Path, level: &str) -> Result<(), Error> {
    let file = ResultsFile::read(path)?;
    if file.build.target_cpu != level {
        return Err(Error::failed(format!(
            "matrix: {} was built for target-cpu '{}', expected '{level}'",
            path.display(),
            file.build.target_cpu
        )));
    }
    // No `source` tag: a record's level and metric already say which
    // per-level file it came from, and a tag would read as a second series.
    merged.records.extend(file.records);
    // The merged file's processes saw one CPU only when every run's did
    // (a count's, under valgrind, does not): else the file cannot say.
    if merged.machine.detected_features != file.machine.detected_features {
        merged.machine.detected_features = None;
    }
    // What every level ran with: `RUSTFLAGS` differs by level (the build
    // lists the levels), the backtrace variables do not.
    merged.environment = match (merged.environment.take(), file.environment) {
        (None, level) => level,
        (Some(mut all), Some(level)) => {
            all.retain(|name, value| level.get(name) == Some(value));
            Some(all)
        }
        (Some(all), None) => Some(all),
    };
    Ok(())
}

/// One skipped record per (workload, variant, set) for a level or metric
/// that could not run, so the merged file says why nothing is there.
fn skipped(
    workloads: &[&dyn DynWorkload],
    level: &str,
    metric: Metric,
    quick: bool,
    reason: &str,
) -> Vec<Record> {
    let mut records = Vec::new();
    for w in workloads {
        let first = records.len();
        let unit = metric
            .unit(w.unit_singular())
            .unwrap_or_else(|| w.unit_singular().to_owned());
        for set in w.measured_sets(&[], quick) {
            for v in w.variants() {
                records.push(Record {
                    workload: w.name().to_owned(),
                    variant: v.name.to_owned(),
                    input_set: set.clone(),
                    target_cpu: level.to_owned(),
                    metric,
                    unit: unit.clone(),
                    status: Status::Skipped,
                    reason: Some(reason.to_owned()),
                    ..Record::default()
                });
            }
        }
        w.annotate(&mut records[first..]);
    }
    records
}
