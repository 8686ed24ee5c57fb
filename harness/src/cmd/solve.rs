//! `bitbench solve`: answer inputs given on the command line or in a file.

use crate::erased::DynWorkload;
use crate::error::Error;
use crate::outln;
use crate::solve::SolveRequest;

/// Prints one answer a line; the variant runs in a watched child, so a
/// crash or an input running past `timeout` is an error naming the input.
pub fn run(
    w: &dyn DynWorkload,
    request: &SolveRequest<'_>,
    timeout: std::time::Duration,
) -> Result<(), Error> {
    for line in crate::fault::job::solve(w, request, timeout)? {
        outln!("{line}");
    }
    Ok(())
}
