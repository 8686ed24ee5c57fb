//! `bitbench solve`: answer inputs given on the command line or in a file.

use crate::erased::DynWorkload;
use crate::error::Error;
use crate::outln;
use crate::solve::SolveRequest;
use std::sync::mpsc;
use std::time::Duration;

/// When a `solve` without `--timeout` says it is still running.
const STILL_RUNNING: Duration = Duration::from_secs(10);

/// Prints one answer a line; the variant runs in a watched child, so a
/// crash, or an input running past `timeout` when one is given, is an
/// error naming the input. Without one, the variant the user asked for
/// runs as long as it takes: after [`STILL_RUNNING`] one line says so and
/// how to stop it.
pub fn run(
    w: &dyn DynWorkload,
    request: &SolveRequest<'_>,
    timeout: Option<Duration>,
) -> Result<(), Error> {
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
    let answers = crate::fault::job::solve(w, request, timeout);
    drop(done);
    for line in answers? {
        outln!("{line}");
    }
    Ok(())
}
