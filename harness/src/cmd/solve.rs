//! `bitbench solve`: answer inputs given on the command line or in a file.

use crate::erased::DynWorkload;
use crate::error::Error;
use crate::outln;
use crate::solve::SolveRequest;

/// Prints one answer a line.
pub fn run(w: &dyn DynWorkload, request: &SolveRequest<'_>) -> Result<(), Error> {
    for line in w.solve_text(request)? {
        outln!("{line}");
    }
    Ok(())
}
