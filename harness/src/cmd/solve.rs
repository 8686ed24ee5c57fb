//! `bitbench solve`: answer inputs given on the command line or in a file.

use crate::engine::solve::SolveRequest;
use crate::entry::Suite;
use crate::error::Error;
use crate::fault::TimeoutArg;
use crate::outln;
use std::sync::mpsc;
use std::time::Duration;

/// When a `solve` without `--timeout` says it is still running.
const STILL_RUNNING: Duration = Duration::from_secs(10);

/// `bitbench solve`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Workload name (see `{program} list`).
    workload: String,
    /// Variant to use; default: the workload's declared default (`{program} list` marks it).
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
    #[command(flatten)]
    timeout: TimeoutArg,
    #[command(flatten)]
    pub(crate) env: crate::measuring_env::KeepEnv,
}

/// Prints one answer a line; the variant runs in a watched child, so a
/// crash, or an input running past `--timeout` when one is given, is an
/// error naming the input. Without one, the variant the user asked for
/// runs as long as it takes: after [`STILL_RUNNING`] one line says so and
/// how to stop it.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let w = suite.find(&args.workload)?;
    let request = SolveRequest {
        variant: &args.variant,
        inputs: &args.inputs,
        input_file: args.input_file.as_deref(),
        format: &args.format,
        force: args.force,
    };
    let timeout = args.timeout.asked();
    let (done, finished) = mpsc::channel::<()>();
    if timeout.is_none() {
        std::thread::spawn(move || {
            if finished.recv_timeout(STILL_RUNNING) == Err(mpsc::RecvTimeoutError::Timeout) {
                eprintln!(
                    "still running after {} s; `--timeout N` stops it",
                    STILL_RUNNING.as_secs()
                );
            }
        });
    }
    let answers = crate::isolated::solve(w, &request, timeout);
    drop(done);
    for line in answers? {
        outln!("{line}");
    }
    Ok(())
}
