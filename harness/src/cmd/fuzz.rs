//! `bitbench fuzz`: runs the differential cargo-fuzz targets in `fuzz/` for a
//! bounded time each and reports what they found.
//!
//! The targets live in their own cargo workspace (libFuzzer's build flags must
//! not reach the main one), so this command drives `cargo fuzz` as a child
//! process rather than linking them. A finding is reported with the panic
//! message (variant, input, both answers), the crash artifact and the
//! `bitbench solve` command of its inputs, which the target prints when it
//! replays the artifact with `BITBENCH_FUZZ_PRINT` set (the decoding is the
//! library's, `bitbench::fuzz`); `--decode` does the same for an artifact
//! found earlier. `--init` writes such a crate for an outside crate's own
//! workloads ([`init`]), with the crate's lock file ([`lock`]).

mod init;
mod lock;

pub use init::record_paths;

use crate::entry::Suite;
use crate::error::Error;
use crate::fuzz_replay::{PRINT_ENV, PRINT_PREFIX, PROGRAM_ENV};
use crate::outln;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// `bitbench fuzz`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Fuzz targets to run (one per workload, see `cargo fuzz list` in
    /// fuzz/); default: all.
    targets: Vec<String>,
    /// How long each target runs, in seconds (building is not counted).
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// `address` (nightly and AddressSanitizer), `none` (any toolchain) or
    /// `auto`: address when a nightly toolchain is installed, else none.
    #[arg(long, short = 's', default_value = "auto")]
    sanitizer: String,
    /// Print the `{program} solve` command that reproduces a crash artifact
    /// (fuzz/artifacts/TARGET/crash-…), then rerun the target on it.
    #[arg(long, value_name = "ARTIFACT")]
    decode: Option<PathBuf>,
    /// Write a cargo-fuzz crate (fuzz/, beside this program's Cargo.toml)
    /// with one target per workload and the crate's Cargo.lock, then stop;
    /// the workloads must be given to `bitbench::main!` by their paths in
    /// the crate's library. A target draws a few inputs of the workload's
    /// quick bench sets (`bench_sets(true)`) unless its adapter overrides
    /// `Workload::arbitrary_inputs` to pick other sets or build inputs.
    #[arg(long, conflicts_with_all = ["decode", "targets"])]
    init: bool,
}

/// How the targets are built: toolchain and sanitizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Build {
    /// Nightly with AddressSanitizer.
    Address,
    /// The default toolchain without a sanitizer (works on stable).
    Plain,
}

impl Build {
    fn choose(sanitizer: &str) -> Result<Build, Error> {
        match sanitizer {
            "address" => Ok(Build::Address),
            "none" => Ok(Build::Plain),
            "auto" if nightly_installed() => Ok(Build::Address),
            "auto" => Ok(Build::Plain),
            other => Err(Error::usage(format!(
                "unknown --sanitizer '{other}' (known: auto, address, none)"
            ))),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Build::Address => "nightly, AddressSanitizer",
            Build::Plain => "default toolchain, no sanitizer",
        }
    }
}

/// The fuzz crate, how its targets are built and the program that answers
/// `solve` for them.
struct Targets {
    dir: PathBuf,
    build: Build,
    program: String,
}

impl Targets {
    /// `cargo [+nightly] fuzz SUBCOMMAND -s SANITIZER` in the fuzz folder,
    /// the targets told which program their reproducing lines name.
    fn cargo_fuzz(&self, subcommand: &str) -> Command {
        let mut cmd = Command::new("cargo");
        if self.build == Build::Address {
            cmd.arg("+nightly");
        }
        let sanitizer = match self.build {
            Build::Address => "address",
            Build::Plain => "none",
        };
        // Comparison tracing helps libFuzzer guess magic constants, which
        // the decoders (every byte string is a valid input) do not have; it
        // costs 2-5x in runs per second on these compute-bound kernels.
        cmd.args(["fuzz", subcommand, "-s", sanitizer, "--no-trace-compares"])
            .current_dir(&self.dir)
            .env(PROGRAM_ENV, &self.program);
        cmd
    }
}

fn nightly_installed() -> bool {
    Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The `fuzz/` folder of the program's crate: beside its manifest or
/// beside its workspace's. Never one found from the current directory, nor
/// one above the workspace, whose targets would be another program's.
fn fuzz_dir(suite: &Suite, program: &str) -> Result<PathBuf, Error> {
    let manifest = |dir: &Path| std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    let manifest_dir = Path::new(suite.origin().manifest_dir);
    for dir in manifest_dir.ancestors() {
        let fuzz = dir.join("fuzz");
        if manifest(&fuzz).contains("cargo-fuzz = true") {
            return Ok(fuzz);
        }
        if manifest(dir).lines().any(|l| l.trim() == "[workspace]") {
            break;
        }
    }
    Err(Error::usage(format!(
        "no cargo-fuzz crate in {} or beside the workspace: `{program} fuzz --init` writes one",
        manifest_dir.join("fuzz").display()
    )))
}

/// Runs a command to completion, returning its status and its stdout and
/// stderr together (libFuzzer reports on stderr).
fn output(cmd: &mut Command, what: &str) -> Result<(bool, String), Error> {
    let out = cmd
        .output()
        .map_err(|e| Error::usage(format!("cannot run {what}: {e}")))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok((out.status.success(), text))
}

/// The targets `cargo fuzz list` reports; fails with the fix when cargo-fuzz
/// is missing.
fn list_targets(dir: &Path) -> Result<Vec<String>, Error> {
    let (ok, text) = output(
        Command::new("cargo")
            .args(["fuzz", "list"])
            .current_dir(dir),
        "cargo fuzz",
    )?;
    if !ok {
        return Err(Error::usage(format!(
            "cargo fuzz list failed; is cargo-fuzz installed? (bash .ci/install-fuzz): {}",
            text.lines().next().unwrap_or("")
        )));
    }
    Ok(text.split_whitespace().map(str::to_owned).collect())
}

/// `--init`: writes the fuzz crate, unless there is one, and says what it
/// wrote.
fn initialise(suite: &Suite, program: &str) -> Result<(), Error> {
    if let Ok(dir) = fuzz_dir(suite, program) {
        return Err(Error::usage(format!(
            "fuzz --init: {} is a cargo-fuzz crate already; `{program} fuzz` runs it",
            dir.display()
        )));
    }
    let written = init::write(suite, program)?;
    let versions = match &written.lock {
        Some(lock) => format!("; dependency versions from {}", lock.display()),
        None => {
            eprintln!(
                "fuzz --init: the crate has no Cargo.lock; the fuzz crate's \
                 dependencies resolve afresh"
            );
            String::new()
        }
    };
    outln!(
        "wrote {} (targets: {}{versions}); run them with `{program} fuzz`",
        written.dir.display(),
        written.targets.join(", ")
    );
    Ok(())
}

/// Runs `bitbench fuzz`.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let program = crate::repro::program(suite.origin().binary);
    if args.init {
        return initialise(suite, &program);
    }
    let dir = fuzz_dir(suite, &program)?;
    let known = list_targets(&dir)?;
    let fuzz = Targets {
        dir,
        build: Build::choose(&args.sanitizer)?,
        program,
    };
    if let Some(artifact) = &args.decode {
        return decode(suite, &fuzz, &known, &args.targets, artifact);
    }
    let targets = if args.targets.is_empty() {
        known.clone()
    } else {
        args.targets.clone()
    };
    if let Some(bad) = targets.iter().find(|t| !known.contains(t)) {
        return Err(Error::usage(format!(
            "unknown fuzz target '{bad}' (known: {})",
            known.join(", ")
        )));
    }
    if args.seconds == 0 {
        return Err(Error::usage("--seconds must be at least 1"));
    }
    // One build of every target: they share all their dependencies.
    eprintln!("fuzz: building the targets ({})", fuzz.build.describe());
    let status = fuzz
        .cargo_fuzz("build")
        .stdout(Stdio::null())
        .status()
        .map_err(|e| Error::usage(format!("cannot run cargo fuzz build: {e}")))?;
    if !status.success() {
        return Err(Error::failed(
            "cargo fuzz build failed (its output is above)",
        ));
    }
    let mut findings = Vec::new();
    outln!(
        "{:<16} {:>8} {:>12} {:>10}  result",
        "target",
        "seconds",
        "runs",
        "runs/s"
    );
    for target in &targets {
        let run = run_target(suite, &fuzz, target, args.seconds)?;
        let result = if run.finding.is_some() {
            "FINDING"
        } else {
            "no finding"
        };
        outln!(
            "{target:<16} {:>8.1} {:>12} {:>10.0}  {result}",
            run.seconds,
            run.runs,
            run.per_second
        );
        if let Some(report) = run.finding {
            findings.push((target.clone(), report));
        }
    }
    if findings.is_empty() {
        return Ok(());
    }
    for (target, report) in &findings {
        outln!("\n== {target} ==\n{report}");
    }
    let names: Vec<_> = findings.iter().map(|(t, _)| t.as_str()).collect();
    Err(Error::failed(format!(
        "fuzz: {} target(s) found a problem: {}",
        findings.len(),
        names.join(", ")
    )))
}

/// One target's run: how many inputs it tried and what it found.
struct TargetRun {
    seconds: f64,
    runs: u64,
    per_second: f64,
    finding: Option<String>,
}

fn run_target(
    suite: &Suite,
    fuzz: &Targets,
    target: &str,
    seconds: u64,
) -> Result<TargetRun, Error> {
    let start = Instant::now();
    let (ok, log) = output(
        fuzz.cargo_fuzz("run").args([
            target,
            "--",
            &format!("-max_total_time={seconds}"),
            // A single input takes milliseconds; a minute means a hang.
            "-timeout=60",
            "-print_final_stats=1",
        ]),
        "cargo fuzz run",
    )?;
    let elapsed = start.elapsed().as_secs_f64();
    let runs = stat(&log, "stat::number_of_executed_units:").unwrap_or(0);
    // libFuzzer's own clock excludes building and start-up; fall back to ours.
    let seconds = done_seconds(&log).map_or(elapsed, |s| s as f64);
    let per_second = stat(&log, "stat::average_exec_per_sec:")
        .map_or(runs as f64 / seconds.max(1.0), |r| r as f64);
    let finding = if ok {
        None
    } else {
        let mut report = finding_report(&log);
        let lines: Vec<&str> = log.lines().collect();
        if let Some(artifact) = artifact_path(&lines) {
            for line in replay(fuzz, target, Path::new(&artifact))?.inputs {
                report.push_str(&format!("\nreproduce: {line}"));
                for named in faulting_variants(suite, &line) {
                    report.push_str(&format!("\n{named}"));
                }
            }
        }
        Some(report)
    };
    Ok(TargetRun {
        seconds,
        runs,
        per_second,
        finding,
    })
}

/// The number after `key` on libFuzzer's final-stats line.
fn stat(log: &str, key: &str) -> Option<u64> {
    log.lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .and_then(|v| v.trim().parse().ok())
}

/// The seconds of libFuzzer's `Done N runs in S second(s)` line.
fn done_seconds(log: &str) -> Option<u64> {
    let line = log.lines().find(|l| l.starts_with("Done "))?;
    line.split_whitespace().nth(4)?.parse().ok()
}

/// The useful part of a failed run's log: the panic message (which names the
/// variant, input and answers) and the artifact.
fn finding_report(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let mut report = Vec::new();
    if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
        let end = lines[i..]
            .iter()
            .position(|l| l.starts_with("stack backtrace") || l.starts_with("note: run with"))
            .map_or(lines.len(), |n| i + n);
        report.extend(lines[i..end].iter().map(|l| l.to_string()));
        // A panic inside std (an overflow check, say) names std's file:
        // point at the first frame in the project's own crates instead.
        if let Some(at) = lines[end..]
            .iter()
            .map(|l| l.trim())
            .take_while(|l| !l.starts_with("==") && !l.is_empty())
            .filter_map(|l| l.strip_prefix("at "))
            .find(|at| at.contains("/impls/"))
        {
            report.push(format!("in: {at}"));
        }
    } else if let Some(l) = lines
        .iter()
        .find(|l| l.contains("==ERROR:") || l.contains("ERROR: libFuzzer"))
    {
        report.push(l.to_string());
    }
    if let Some(path) = artifact_path(&lines) {
        report.push(format!("artifact: {path}"));
    }
    if report.is_empty() {
        // Unrecognised failure (the build, say): show the end of the log.
        let tail = lines.len().saturating_sub(20);
        report.extend(lines[tail..].iter().map(|l| l.to_string()));
    }
    report.join("\n")
}

/// The first non-empty line after the line holding `marker`, trimmed.
fn after<'a>(lines: &[&'a str], marker: &str) -> Option<&'a str> {
    let i = lines.iter().position(|l| l.contains(marker))?;
    lines[i + 1..]
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
}

/// Where libFuzzer wrote the crashing input.
fn artifact_path(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .find_map(|l| l.split_once("Test unit written to "))
        .map(|(_, p)| p.trim().to_owned())
        .or_else(|| after(lines, "Failing input:").map(str::to_owned))
}

/// `--decode`: the target comes from the artifact's folder
/// (`artifacts/TARGET/...`) unless named on the command line.
fn decode(
    suite: &Suite,
    fuzz: &Targets,
    known: &[String],
    named: &[String],
    artifact: &Path,
) -> Result<(), Error> {
    let artifact = std::fs::canonicalize(artifact).map_err(|e| {
        Error::usage(format!(
            "{}: cannot read the artifact: {e}",
            artifact.display()
        ))
    })?;
    let target = match named {
        [one] => one.clone(),
        [] => artifact
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| known.contains(n))
            .ok_or_else(|| {
                Error::usage(format!(
                    "{}: name the target (known: {}); it is not in an artifacts/TARGET folder",
                    artifact.display(),
                    known.join(", ")
                ))
            })?,
        _ => return Err(Error::usage("--decode takes one target")),
    };
    if !known.contains(&target) {
        return Err(Error::usage(format!(
            "unknown fuzz target '{target}' (known: {})",
            known.join(", ")
        )));
    }
    let run = replay(fuzz, &target, &artifact)?;
    if run.inputs.is_empty() {
        outln!("{}", finding_report(&run.log));
        return Err(Error::failed(format!(
            "{target} printed no input for {} (does it call bitbench::fuzz::check?)",
            artifact.display()
        )));
    }
    for line in &run.inputs {
        outln!("reproduce: {line}");
    }
    if !run.passed {
        for line in &run.inputs {
            for named in faulting_variants(suite, line) {
                outln!("{named}");
            }
        }
    }
    if run.passed {
        outln!("the target passes on this input now");
        return Ok(());
    }
    outln!("{}", finding_report(&run.log));
    Err(Error::failed(format!(
        "{target} still fails on {}",
        artifact.display()
    )))
}

/// The variants that crash or hang on the inputs of `line` (a target's
/// `PROGRAM solve WORKLOAD 'INPUT'...`), each replayed in a fresh process,
/// as lines to print: the line with `--variant` and what happened. A
/// crash kills the target before it can say which variant it was running
/// (a disagreement it names itself), and `solve` without a variant runs
/// the default, which may be sound.
fn faulting_variants(suite: &Suite, line: &str) -> Vec<String> {
    let words = crate::repro::shell_words(line);
    let (Some(workload), Some(inputs)) = (words.get(2), words.get(3..)) else {
        return Vec::new();
    };
    let Ok(w) = suite.find(workload) else {
        return Vec::new();
    };
    let program = words[0].as_str();
    w.variants()
        .iter()
        .filter(|v| v.unavailable.is_none())
        .filter_map(|v| {
            let prober =
                crate::fault::probe::Prober::this(workload, v.name, crate::fault::DEFAULT_TIMEOUT);
            let fault = prober.probe(inputs).ok().flatten()?;
            let repro =
                crate::repro::solve_line(program, workload, Some(v.name), inputs, fault.deadline());
            Some(format!("{} {}: {repro}", v.name, fault.describe()))
        })
        .collect()
}

/// A target run on one artifact, its decoded inputs printed.
struct Replay {
    /// The `bitbench solve` line of each `check` call's inputs.
    inputs: Vec<String>,
    passed: bool,
    log: String,
}

/// Runs `target` on `artifact` with [`PRINT_ENV`] set: the target decodes
/// the bytes with its own decoder and prints what it checks.
fn replay(fuzz: &Targets, target: &str, artifact: &Path) -> Result<Replay, Error> {
    let (passed, log) = output(
        fuzz.cargo_fuzz("run")
            .arg(target)
            .arg(artifact)
            .env(PRINT_ENV, "1"),
        "cargo fuzz run",
    )?;
    Ok(Replay {
        inputs: printed_inputs(&log),
        passed,
        log,
    })
}

/// The lines a target printed under [`PRINT_ENV`], without the prefix,
/// each once: libFuzzer runs an input a second time when it suspects a
/// leak (the first run builds the variants, which stay for the process).
fn printed_inputs(log: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for line in log.lines().filter_map(|l| l.strip_prefix(PRINT_PREFIX)) {
        if !lines.iter().any(|l| l == line) {
            lines.push(line.to_owned());
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRASH_LOG: &str = "\
#2928\tREDUCE cov: 443 ft: 1711 corp: 248/13792b
thread '<unnamed>' (1) panicked at src/meteor.rs:80:9:
meteor: variant `symmetric` disagrees with the oracle `naive`
  input:    1 000...
reproduce:
  bitbench solve meteor --variant naive '1 000...'
stack backtrace:
   0: junk
             at /rustc/abc/library/core/src/panicking.rs:80:14
   1: play_in<u128>
             at /work/main/impls/connectx/src/position.rs:148:27
==1== ERROR: libFuzzer: deadly signal
artifact_prefix='artifacts/meteor/'; Test unit written to artifacts/meteor/crash-abc
Failing input:

\tartifacts/meteor/crash-abc

Output of `std::fmt::Debug`:

\t[1, 2, 3]

Reproduce with:
";

    #[test]
    fn a_crash_log_gives_message_artifact_and_repro() {
        let report = finding_report(CRASH_LOG);
        assert!(
            report.starts_with("thread '<unnamed>' (1) panicked"),
            "{report}"
        );
        assert!(report.contains("variant `symmetric` disagrees"), "{report}");
        assert!(!report.contains("junk"), "{report}");
        assert!(
            report.contains("in: /work/main/impls/connectx/src/position.rs:148:27"),
            "{report}"
        );
        assert!(
            report.contains("artifact: artifacts/meteor/crash-abc"),
            "{report}"
        );
        assert!(!report.contains("[1, 2, 3]"), "{report}");
    }

    #[test]
    fn printed_inputs_are_read() {
        let log = "INFO: Running with entropic power schedule\n\
                   fuzz input: bitbench solve components '0 0'\n\
                   fuzz input: bitbench solve components-groups4 '0 0'\n\
                   fuzz input: bitbench solve components '0 0'\n\
                   Executed artifacts/components/crash-1 in 0 ms\n";
        assert_eq!(
            printed_inputs(log),
            [
                "bitbench solve components '0 0'",
                "bitbench solve components-groups4 '0 0'"
            ]
        );
    }

    #[test]
    fn final_stats_are_read() {
        let log = "Done 4360 runs in 21 second(s)\nstat::number_of_executed_units: 4360\n\
                   stat::average_exec_per_sec:     207\n";
        assert_eq!(stat(log, "stat::number_of_executed_units:"), Some(4360));
        assert_eq!(stat(log, "stat::average_exec_per_sec:"), Some(207));
        assert_eq!(done_seconds(log), Some(21));
        assert_eq!(stat("", "stat::average_exec_per_sec:"), None);
    }

    #[test]
    fn unknown_sanitizer_is_a_usage_error() {
        assert_eq!(Build::choose("none"), Ok(Build::Plain));
        assert_eq!(Build::choose("address"), Ok(Build::Address));
        assert!(matches!(Build::choose("thread"), Err(Error::Usage(_))));
    }
}
