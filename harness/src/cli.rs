//! The command line every bitbench program gets: clap definitions and the
//! dispatch to one module per subcommand (`src/cmd/`).
//!
//! This is the only place that turns errors into exit codes: 0 ok, 1 a
//! check or gate failed, 2 bad usage or input.

use crate::bench::BenchOptions;
use crate::check::CheckOptions;
use crate::cmd;
use crate::entry::{Origin, Suite};
use crate::erased::DynWorkload;
use crate::error::Error;
use crate::machine::MachineArg;
use crate::out::StdoutClosed;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::ExitCode;

/// Differential testing and benchmarking of bitboard kernels.
///
/// With no subcommand, runs the main job: check every workload, run the
/// quick benchmark and write a results file.
///
/// Exit codes: 0 ok, 1 a check or gate failed, 2 bad usage or input.
#[derive(Parser)]
#[command(name = "bitbench", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Seed of the main job's generated inputs.
    #[arg(long, default_value_t = 1, global = true, hide = true)]
    seed: u64,
}

#[derive(Subcommand)]
enum Command {
    /// List every workload, its variants and input sets.
    List {
        /// Print a JSON array of {workload, variant, description, default, available, reason}.
        #[arg(long)]
        json: bool,
    },
    /// Solve inputs given in the workload's text format.
    ///
    /// Example: bitbench solve components '#...../#...../##..#./....../....../....../....../....../....../....../....../......'
    Solve {
        /// Workload name (see `bitbench list`).
        workload: String,
        /// Variant to use; default: the workload's declared default (`bitbench list` marks it).
        #[arg(long, default_value = "")]
        variant: String,
        /// Output format: `text` or a workload-specific one.
        #[arg(long, default_value = "text")]
        format: String,
        /// Read inputs from a file (the workload's file format).
        #[arg(long, value_name = "FILE")]
        input_file: Option<String>,
        /// Inputs in the workload's text format.
        inputs: Vec<String>,
        /// Run the variant even where the cost model estimates it would
        /// practically never finish (it prints the estimate otherwise).
        #[arg(long)]
        force: bool,
        /// Seconds an input may run before the variant counts as hung and
        /// is stopped; default: none, the variant runs as long as it takes
        /// (after 10 s a note says how to stop it).
        #[arg(long, value_name = "SECONDS", value_parser = crate::fault::parse_timeout)]
        timeout: Option<std::time::Duration>,
    },
    /// Print the inputs of one input set, one a line, in the format `solve` reads.
    ///
    /// The same seed and count give exactly the inputs `bench` measures, so
    /// an outside implementation can be checked and timed on them:
    /// bitbench inputs components density:0.125 > boards.txt
    Inputs {
        /// Workload name (see `bitbench list`).
        workload: String,
        /// Input set, e.g. `density:0.125` or `official` (see `bitbench list`).
        set: String,
        /// Inputs to print for an open-ended set; default: as many as one
        /// `bench` sample holds (4096 boards for components).
        #[arg(long)]
        count: Option<usize>,
        /// Seed of the generated inputs (`bench`'s default is 1).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Run every variant against the oracle on generated inputs and edge cases.
    ///
    /// On a disagreement, prints the smallest failing input found, both
    /// answers and the `bitbench solve` commands that reproduce it; exits 1.
    /// A variant that crashes or hangs is reported the same way, with what
    /// happened, and the others are still checked.
    Check {
        /// Workloads to check; default: all.
        workloads: Vec<String>,
        /// Generated inputs per input set.
        #[arg(long, default_value_t = 10_000)]
        cases: usize,
        /// Seed of the generated inputs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds a batch of a kernel may run beyond what it is expected to
        /// take (ten times the oracle's time on it, or a measuring round's
        /// plan) before it counts as hung and is stopped.
        #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::fault::parse_timeout)]
        timeout: std::time::Duration,
    },
    /// Verify each variant, then measure throughput and write a results file.
    Bench {
        /// Workloads to measure; default: all.
        workloads: Vec<String>,
        /// Variants to measure; default: all.
        #[arg(long, num_args = 1..)]
        variant: Vec<String>,
        /// Input sets to measure (see `bitbench list`); default: the workload's.
        #[arg(long, num_args = 1..)]
        inputs: Vec<String>,
        /// Fewer and shorter samples, smaller input sets.
        #[arg(long)]
        quick: bool,
        /// Seed of the generated inputs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Results file; default: results/bench-TIMESTAMP.json.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Measuring rounds: every (variant, set) is measured once per
        /// round, rounds apart in time, so intervals include the noise
        /// between runs; default: 2 with --quick, else 3.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
        rounds: Option<u32>,
        /// Variant the printed speedups are over (measured too, needs one
        /// workload); default: the oracle.
        #[arg(long, value_name = "VARIANT")]
        baseline: Option<String>,
        /// Seconds a batch of a kernel may run beyond what it is expected to
        /// take (ten times the oracle's time on it, or a measuring round's
        /// plan) before it counts as hung and is stopped.
        #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::fault::parse_timeout)]
        timeout: std::time::Duration,
        /// The core to measure on; default: the one least busy when each
        /// workload starts. Either way a sample whose thread lost CPU time
        /// to something else is taken again (see docs/busy-machines.md).
        #[arg(long, value_name = "N")]
        core: Option<usize>,
        #[command(flatten)]
        machine: MachineArg,
    },
    /// Draw results files as SVG/PNG charts with index.html and report.md.
    ///
    /// Several files combine in one report; each series is labelled with
    /// its file's name. Files from several machines are drawn apart, a
    /// chart per machine, with each workload's fastest variant per machine.
    Report {
        /// Results files written by `bench`, `count` or `matrix`.
        #[arg(required = true, value_name = "RESULTS")]
        results: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, value_name = "DIR", default_value = cmd::report::DEFAULT_DIR)]
        out: PathBuf,
        /// Also draw a flame graph (SVG, in flamegraphs/) of every counted
        /// instruction record that kept its callgrind profile, linked from
        /// the pages.
        #[arg(long)]
        flamegraphs: bool,
    },
    /// Count instructions per element under valgrind (gungraun), verified first.
    ///
    /// Variants valgrind cannot run (AVX-512) are recorded as not countable.
    #[cfg(feature = "count")]
    Count(cmd::count::Args),
    /// Build and measure at several target-cpu levels; merge into one file.
    Matrix(cmd::matrix::Args),
    /// Compare two results files; exit 1 when a record regressed.
    ///
    /// Instructions regress beyond the threshold; wall time only when the
    /// change is also outside both runs' median ± MAD.
    Compare(cmd::compare::Args),
    /// Export a results file as CSV, Bencher Metric Format or github-action-benchmark JSON.
    Export(cmd::export::Args),
    /// Paired A/B of two builds (git revisions or binaries): answers, time, instructions.
    ///
    /// Example: bitbench ab main (main against the working tree); exit 1
    /// when a record regressed or an answer changed.
    Ab(cmd::ab::Args),
    /// Keep runs in a store and follow them over commits: add, report, check,
    /// compare; run measures a range of commits, bisect finds where a record moved.
    ///
    /// Example: bitbench history add results/*.json --store history; then
    /// bitbench history report --store history --out history-report.
    #[command(subcommand)]
    History(cmd::history::Command),
    /// Internal: answer `ab`'s requests on stdin (line-delimited JSON).
    #[command(hide = true)]
    Serve,
    /// Run the cargo-fuzz differential targets (fuzz/) for a bounded time each.
    ///
    /// Exits 1 on a finding, printed with the `bitbench solve` command that
    /// reproduces it; `--decode ARTIFACT` does that for a saved crash.
    /// `--init` writes a fuzz crate for a program's own workloads.
    Fuzz(cmd::fuzz::Args),
}

/// Runs the command line over `workloads`, built as `origin` says; what
/// [`main!`](crate::main!) expands to. Call it yourself to build the
/// workloads at run time (they are only borrowed for the call):
///
/// ```no_run
/// # struct Mine { words: usize }
/// # impl bitbench::Workload for Mine {
/// #     type Input = u8; type Output = u8;
/// #     fn name(&self) -> &'static str { "mine" }
/// #     fn description(&self) -> &'static str { "" }
/// #     fn unit(&self) -> &'static str { "bytes" }
/// #     fn variants(&self) -> Vec<bitbench::VariantInfo> { vec![] }
/// #     fn solver(&self, _: &str) -> Option<Box<dyn bitbench::Solve<u8, u8>>> { None }
/// #     fn input_sets(&self) -> Vec<bitbench::InputSet> { vec![] }
/// #     fn bench_sets(&self, _: bool) -> Vec<String> { vec![] }
/// #     fn generate(&self, _: &bitbench::Member, _: u64, _: usize) -> Result<Vec<u8>, String> { Ok(vec![]) }
/// #     fn parse_input(&self, _: &str) -> Result<u8, String> { Ok(0) }
/// #     fn format_input(&self, _: &u8) -> String { String::new() }
/// #     fn format_output(&self, _: &u8) -> String { String::new() }
/// # }
/// fn main() -> std::process::ExitCode {
///     let words = std::env::var("WORDS").map_or(Ok(64), |w| w.parse()).unwrap_or(64);
///     let mine = Mine { words };
///     bitbench::cli::main(&[&mine], bitbench::origin!())
/// }
/// ```
pub fn main(workloads: &[&dyn DynWorkload], origin: Origin) -> ExitCode {
    crate::machine::set_build(origin.commit, origin.dirty);
    // A counted child (`count --run-case`, under valgrind) and a setup
    // child run the binary their parent already checked; building every
    // variant again would also warm the very start a setup child times.
    let child = std::env::args().any(|a| a == "--run-case")
        || std::env::var_os(crate::setup::CASE_ENV).is_some()
        || crate::fault::job::is_child();
    let suite = match Suite::checked(workloads, origin, !child) {
        Ok(suite) => suite,
        Err(e) => {
            eprintln!("{}: {e}", origin.binary);
            return ExitCode::from(2);
        }
    };
    if let Some(code) = crate::setup::child_entry(&suite) {
        return code;
    }
    if let Some(code) = crate::fault::job::child_entry(&suite) {
        return code;
    }
    #[cfg(feature = "count")]
    if let Some(code) = crate::counting::gungraun_entry() {
        return code;
    }
    let matches = Cli::command()
        .name(origin.binary)
        .bin_name(origin.binary)
        .try_get_matches();
    let cli = match matches.and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| run(cli, &suite)));
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("{}: {e}", origin.binary);
            ExitCode::from(exit_code(&e))
        }
        Err(payload) => match payload.downcast::<StdoutClosed>() {
            Ok(closed) if closed.0.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Ok(closed) => {
                eprintln!("{}: writing to stdout: {}", origin.binary, closed.0);
                ExitCode::FAILURE
            }
            Err(payload) => std::panic::resume_unwind(payload),
        },
    }
}

/// Parses `args` (without the program's name) as bitbench's command line
/// and runs nothing: `Err` is clap's message. The guide's test checks with
/// it the commands it shows but cannot run (they build revisions or need
/// valgrind).
#[doc(hidden)]
pub fn parse(args: &[String]) -> Result<(), String> {
    Cli::try_parse_from(std::iter::once("bitbench").chain(args.iter().map(String::as_str)))
        .map(drop)
        .map_err(|e| e.to_string())
}

/// The documented exit code of an error: 1 a check or gate failed, 2 bad
/// usage or input.
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::Failed(_) => 1,
        Error::Usage(_) => 2,
    }
}

fn run(cli: Cli, suite: &Suite) -> Result<(), Error> {
    let Some(command) = cli.command else {
        return cmd::main_job::run(suite, cli.seed, None);
    };
    match command {
        Command::List { json } => cmd::list::run(suite, json),
        Command::Solve {
            workload,
            variant,
            format,
            input_file,
            inputs,
            force,
            timeout,
        } => {
            let request = crate::solve::SolveRequest {
                variant: &variant,
                inputs: &inputs,
                input_file: input_file.as_deref(),
                format: &format,
                force,
            };
            cmd::solve::run(suite.find(&workload)?, &request, timeout)?;
        }
        Command::Inputs {
            workload,
            set,
            count,
            seed,
        } => {
            cmd::inputs::run(suite.find(&workload)?, &set, seed, count)?;
        }
        Command::Check {
            workloads,
            cases,
            seed,
            timeout,
        } => cmd::check::run(
            &suite.select(&workloads)?,
            &CheckOptions {
                timeout,
                ..CheckOptions::new(cases, seed)
            },
            &crate::repro::program(suite.origin().binary),
        )?,
        Command::Bench {
            workloads,
            variant,
            inputs,
            quick,
            seed,
            out,
            rounds,
            baseline,
            timeout,
            core,
            machine,
        } => {
            let machine = machine.resolve()?;
            if let Some(core) = core {
                crate::cores::check(core).map_err(Error::usage)?;
            }
            let selected = suite.select(&workloads)?;
            for (flag, used) in [
                ("--variant", !variant.is_empty()),
                ("--baseline", baseline.is_some()),
            ] {
                if used && selected.len() > 1 {
                    return Err(Error::usage(format!(
                        "{flag} needs exactly one workload (variant names differ between workloads)"
                    )));
                }
            }
            let mut variants = variant;
            if let Some(base) = &baseline {
                cmd::bench::check_baseline(selected[0], base)?;
                if !variants.is_empty() && !variants.contains(base) {
                    variants.push(base.clone());
                }
            }
            let options = BenchOptions {
                variants,
                sets: inputs,
                quick,
                seed,
                rounds,
                timeout,
                exclude: Vec::new(),
                core,
            };
            let program = crate::repro::program(suite.origin().binary);
            cmd::bench::run(
                &selected,
                &options,
                out.as_deref(),
                baseline.as_deref(),
                &machine,
                &program,
            )?;
        }
        Command::Report {
            results,
            out,
            flamegraphs,
        } => {
            cmd::report::run(suite, &results, &out, flamegraphs)?;
        }
        #[cfg(feature = "count")]
        Command::Count(args) => cmd::count::main(suite, args)?,
        Command::Matrix(args) => cmd::matrix::main(suite, args)?,
        Command::Compare(args) => cmd::compare::main(args)?,
        Command::Export(args) => cmd::export::main(args)?,
        Command::Ab(args) => cmd::ab::main(suite, args)?,
        Command::History(command) => cmd::history::main(suite, command)?,
        Command::Serve => cmd::serve::main(suite)?,
        Command::Fuzz(args) => cmd::fuzz::main(suite, args)?,
    }
    Ok(())
}
