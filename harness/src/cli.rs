//! The command line every bitbench program gets: clap definitions and the
//! dispatch to one module per subcommand (`src/cmd/`).
//!
//! This is the only place that turns errors into exit codes: 0 ok, 1 a
//! check or gate failed, 2 bad usage or input.
//!
//! The help texts are templates in the program's own words: `{program}`
//! for its name, `{workload}` for the workload the examples run and the
//! rest of the placeholders `words` fills in when help is shown.

use crate::cmd;
use crate::dyn_workload::DynWorkload;
use crate::entry::{Origin, Suite};
use crate::error::Error;
use crate::measuring_env::KeepEnv;
use crate::out::StdoutClosed;
use crate::words::Words;
use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

/// {about}.
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
    #[command(flatten)]
    env: KeepEnv,
}

#[derive(Subcommand)]
enum Command {
    /// List every workload, its variants and input sets.
    List(cmd::list::Args),
    /// Solve inputs given in the workload's text format.
    ///
    /// Example: {program} solve {workload} {input}
    Solve(cmd::solve::Args),
    /// Print the inputs of one input set, one a line, in the format `solve` reads.
    ///
    /// The same seed and count give exactly the inputs `bench` measures, so
    /// an outside implementation can be checked and timed on them:
    /// {program} inputs {workload} {set} > {file}
    Inputs(cmd::inputs::Args),
    /// Run every variant against the oracle on generated inputs and edge cases.
    ///
    /// On a disagreement, prints the smallest failing input found, both
    /// answers and the `{program} solve` commands that reproduce it; exits 1.
    /// A variant that crashes or hangs is reported the same way, with what
    /// happened, and the others are still checked.
    Check(cmd::check::Args),
    /// Verify each variant, then measure throughput and write a results file.
    Bench(cmd::bench::Args),
    /// Draw results files as SVG/PNG charts with index.html and report.md.
    ///
    /// Several files combine in one report; each series is labelled with
    /// its file's name. Files from several machines are drawn apart, a
    /// chart per machine, with each workload's fastest variant per machine.
    Report(cmd::report::Args),
    /// Count instructions per element under valgrind (gungraun), verified first.
    ///
    /// Variants valgrind cannot run (AVX-512) are recorded as not countable.
    /// Needs bitbench's `count` feature.
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
    /// Example: {program} ab main (main against the working tree); exit 1
    /// when a record regressed or an answer changed.
    Ab(cmd::ab::Args),
    /// Decide from results files which variant to run where (by CPU features
    /// and the input's regime) and write it as a dispatching variant.
    ///
    /// Prints the decision table; --out writes it as a Rust module (a const
    /// TABLE and choose) the adapter registers as one more variant, which
    /// check verifies and bench measures like any other. --check FILE.rs
    /// exits 1 where newer results would choose otherwise, beyond the
    /// intervals. Example: {program} dispatch results.json --out src/dispatch.rs
    Dispatch(cmd::dispatch::Args),
    /// Keep runs in a store and follow them over commits: add, report, check,
    /// compare; run measures a range of commits, bisect finds where a record moved.
    ///
    /// Example: {program} history add results/*.json --store history; then
    /// {program} history report --store history --out history-report.
    #[command(subcommand)]
    History(cmd::history::Command),
    /// Internal: answer `ab`'s requests on stdin (line-delimited JSON).
    #[command(hide = true)]
    Serve,
    /// Write this program's pull-request gate into its repository, check it,
    /// or install the tools it counts with.
    ///
    /// `{program} ci --init` writes .github/workflows/bench-gate.yml (an
    /// `ab` of each pull request's base and head) and bench-comment.yml
    /// (its report as one comment), for this program's package, binary,
    /// toolchain and features; the gate's steps run `{program} ci
    /// --install-tools` and `{program} ab`, no file of bitbench's.
    Ci(cmd::ci::Args),
    /// Run the cargo-fuzz differential targets (fuzz/) for a bounded time each.
    ///
    /// Exits 1 on a finding, printed with the `{program} solve` command that
    /// reproduces it; `--decode ARTIFACT` does that for a saved crash.
    /// `--init` writes a fuzz crate for a program's own workloads.
    Fuzz(cmd::fuzz::Args),
}

impl Command {
    /// The `--keep-env` that holds for this command: its own, or one given
    /// before it; a usage error for a command whose children run no kernel.
    fn env(&self, before: KeepEnv) -> Result<KeepEnv, Error> {
        let own = match self {
            Command::Solve(a) => a.env,
            Command::Check(a) => a.env,
            Command::Bench(a) => a.env,
            #[cfg(feature = "count")]
            Command::Count(a) => a.env,
            // Without the feature, `count` says which one to add, whatever follows it.
            #[cfg(not(feature = "count"))]
            Command::Count(_) => KeepEnv::default(),
            Command::Matrix(a) => a.env,
            Command::Ab(a) => a.env,
            _ if before.given() => {
                return Err(Error::usage(
                    "--keep-env: this command runs no kernel; it applies to the main job, solve, check, bench, count, matrix and ab",
                ));
            }
            _ => KeepEnv::default(),
        };
        Ok(own.or(before))
    }
}

/// Runs the command line over `workloads`, built as `origin` says; what
/// [`main!`](crate::main!) runs. Call it yourself to build the workloads
/// at run time (they are only borrowed for the call):
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
    main_with_package(workloads, origin, None, "")
}

/// [`main`] knowing what the program's own package says: its `version`,
/// which `--version` prints before bitbench's, and `about` (empty: nothing
/// said), the line its `--help` opens with. Not API: what
/// [`main!`](crate::main!) expands to, with `CARGO_PKG_VERSION` and
/// `CARGO_PKG_DESCRIPTION` (or the `about` it was given) read in the
/// program's crate (a field of [`Origin`] would break the struct literals
/// users may write).
#[doc(hidden)]
pub fn main_with_package(
    workloads: &[&dyn DynWorkload],
    origin: Origin,
    version: Option<&'static str>,
    about: &'static str,
) -> ExitCode {
    crate::machine::set_build(origin.commit, origin.dirty);
    // A counted child (`count --run-case`, under valgrind) and a setup
    // child run the binary their parent already checked; building every
    // variant again would also warm the very start a setup child times.
    let child = std::env::args().any(|a| a == "--run-case")
        || std::env::var_os(crate::setup::CASE_ENV).is_some()
        || crate::isolated::is_child();
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
    if let Some(code) = crate::isolated::child_entry(&suite) {
        return code;
    }
    #[cfg(feature = "count")]
    if let Some(code) = crate::counting::gungraun_entry() {
        return code;
    }
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match read(&suite, version, about, &args) {
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

/// Reads `args` (the program's name first) as `suite`'s program: under
/// its binary's name, with its `version` beside bitbench's and, when what
/// clap shows is help, with that help in the program's own words
/// ([`Words`], worked out only then), `about` (empty: none given) its
/// about line.
fn read(
    suite: &Suite,
    version: Option<&'static str>,
    about: &str,
    args: &[OsString],
) -> Result<Cli, clap::Error> {
    let origin = suite.origin();
    // Built again for help rather than cloned: a clone of the whole tree
    // would cost every run, and help is the rare case.
    let command = || {
        let command = Cli::command().name(origin.binary).bin_name(origin.binary);
        // clap prints the name, then this; the `bitbench` binary keeps the
        // derived version, bitbench's own.
        if origin.package == env!("CARGO_PKG_NAME") {
            return command;
        }
        const BITBENCH: &str = concat!("(bitbench ", env!("CARGO_PKG_VERSION"), ")");
        command.version(match version {
            Some(version) => format!("{version} {BITBENCH}").leak(),
            None => BITBENCH,
        })
    };
    let matches = command()
        .try_get_matches_from(args)
        .or_else(|e| match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                Words::of(suite, about)
                    .fill(command())
                    .try_get_matches_from(args)
            }
            _ => Err(e),
        })?;
    Cli::from_arg_matches(&matches)
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

/// Runs the command: each is `cmd::NAME::run`, which owns its arguments
/// and their checks.
fn run(cli: Cli, suite: &Suite) -> Result<(), Error> {
    let Some(command) = cli.command else {
        cli.env.apply();
        return cmd::main_job::run(suite, cli.seed, None);
    };
    command.env(cli.env)?.apply();
    match command {
        Command::List(args) => cmd::list::run(suite, args),
        Command::Solve(args) => cmd::solve::run(suite, args),
        Command::Inputs(args) => cmd::inputs::run(suite, args),
        Command::Check(args) => cmd::check::run(suite, args),
        Command::Bench(args) => cmd::bench::run(suite, args),
        Command::Report(args) => cmd::report::run(args),
        Command::Count(args) => cmd::count::run(suite, args),
        Command::Matrix(args) => cmd::matrix::run(suite, args),
        Command::Compare(args) => cmd::compare::run(args),
        Command::Export(args) => cmd::export::run(args),
        Command::Ab(args) => cmd::ab::run(suite, args),
        Command::Dispatch(args) => cmd::dispatch::run(suite, args),
        Command::History(command) => cmd::history::run(suite, command),
        Command::Serve => cmd::serve::run(suite),
        Command::Ci(args) => cmd::ci::run(suite, args),
        Command::Fuzz(args) => cmd::fuzz::run(suite, args),
    }
}

#[cfg(all(test, feature = "suite"))]
mod tests {
    use super::*;
    use crate::builtin;

    /// The help `args` ask for, as `suite`'s program told `about` shows
    /// it, its lines joined (clap wraps them at its width).
    fn help(suite: &Suite, about: &str, args: &[&str]) -> String {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let Err(shown) = read(suite, None, about, &args) else {
            panic!("{args:?} shows no help");
        };
        assert!(!shown.use_stderr(), "{args:?}: {shown}");
        let text = shown.to_string();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Every help page of `program`: the short and long top-level ones and
    /// each subcommand's, nested ones included.
    fn pages(program: &str) -> Vec<Vec<String>> {
        let mut pages = vec![vec![program.to_owned(), "-h".to_owned()]];
        let mut stack = vec![(vec![program.to_owned()], Cli::command())];
        while let Some((path, command)) = stack.pop() {
            pages.push([&path[..], &["--help".to_owned()]].concat());
            for sub in command.get_subcommands() {
                let path = [&path[..], &[sub.get_name().to_owned()]].concat();
                stack.push((path, sub.clone()));
            }
        }
        pages
    }

    #[test]
    fn an_outside_programs_help_names_it_and_its_own_workload() {
        let origin = Origin {
            package: "toy",
            binary: "toy",
            manifest_dir: "/toy",
            commit: None,
            dirty: None,
            source: None,
        };
        let suite = Suite::new(&[&builtin::meteor::METEOR], origin).unwrap();
        let commands: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_owned())
            .collect();
        for page in pages("toy") {
            let page: Vec<&str> = page.iter().map(String::as_str).collect();
            let text = help(&suite, "Finds the pieces.", &page);
            for command in &commands {
                assert!(
                    !text.contains(&format!("bitbench {command}")),
                    "{page:?}: {text}"
                );
            }
            for built_in in ["components", "boards", "density:0.125", "bitboard kernels"] {
                assert!(!text.contains(built_in), "{page:?}: {text}");
            }
            let placeholders = [
                "{about}",
                "{program}",
                "{workload}",
                "{input}",
                "{set",
                "{file}",
                "{sample}",
            ];
            for placeholder in placeholders {
                assert!(!text.contains(placeholder), "{page:?}: {text}");
            }
        }
        assert!(
            help(&suite, "Finds the pieces.", &["toy", "--help"]).starts_with("Finds the pieces. ")
        );
        assert!(
            help(&suite, "", &["toy", "-h"])
                .starts_with("Differential testing and benchmarking of meteor Usage: toy")
        );
        let solve = help(&suite, "", &["toy", "solve", "--help"]);
        assert!(solve.contains("Example: toy solve meteor '"), "{solve}");
        assert!(solve.contains("(see `toy list`)"), "{solve}");
        let inputs = help(&suite, "", &["toy", "inputs", "--help"]);
        assert!(inputs.contains(": toy inputs meteor "), "{inputs}");
        assert!(inputs.contains("> inputs.txt"), "{inputs}");
    }

    #[test]
    fn the_bitbench_binarys_help_keeps_its_own_examples() {
        let suite = Suite::new(builtin::WORKLOADS, crate::origin!()).unwrap();
        let help = |args: &[&str]| help(&suite, "", args);
        assert!(help(&["bitbench", "-h"]).starts_with(
            "Differential testing and benchmarking of bitboard kernels Usage: bitbench"
        ));
        let board =
            "#...../#...../##..#./....../....../....../....../....../....../....../....../......";
        let solve = help(&["bitbench", "solve", "--help"]);
        assert!(
            solve.contains(&format!("Example: bitbench solve components '{board}'")),
            "{solve}"
        );
        let inputs = help(&["bitbench", "inputs", "--help"]);
        for shown in [
            "on them: bitbench inputs components density:0.125 > boards.txt",
            "e.g. `density:0.125` or `official` (see `bitbench list`)",
            "sample holds (4096 boards for components)",
        ] {
            assert!(inputs.contains(shown), "{inputs}");
        }
    }

    #[test]
    fn keep_env_is_offered_only_where_children_run_kernels() {
        let suite = Suite::new(builtin::WORKLOADS, crate::origin!()).unwrap();
        let offers = |command: &str| {
            help(&suite, "", &["bitbench", command, "--help"]).contains("--keep-env")
        };
        let counts = cfg!(feature = "count").then_some("count");
        for command in ["solve", "check", "bench", "matrix", "ab"]
            .into_iter()
            .chain(counts)
        {
            assert!(offers(command), "{command}");
        }
        for command in ["list", "inputs", "report", "compare", "export", "dispatch"] {
            assert!(!offers(command), "{command}");
            assert!(parse(&[command.into(), "--keep-env".into()]).is_err());
        }
        let parsed = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
            Cli::try_parse_from(std::iter::once("bitbench").chain(args.iter().map(String::as_str)))
                .unwrap()
        };
        let before_report = parsed(&["--keep-env", "report", "x.json"]);
        let command = before_report.command.unwrap();
        let err = command.env(before_report.env).unwrap_err();
        assert_eq!(exit_code(&err), 2);
        let before_bench = parsed(&["--keep-env", "bench"]);
        let command = before_bench.command.unwrap();
        assert!(command.env(before_bench.env).unwrap().given());
        let bench = parsed(&["bench", "--keep-env"]);
        assert!(
            bench
                .command
                .unwrap()
                .env(KeepEnv::default())
                .unwrap()
                .given()
        );
    }
}
