//! `bitbench inputs`: print the inputs of a set in the text format `solve`
//! reads, so an implementation outside this project (the seed write-ups'
//! C++, a third-party library) can be fed, checked and timed on exactly the
//! inputs `bench` measures.

use crate::erased::DynWorkload;
use crate::error::Error;
use crate::outln;

/// Prints the inputs of `set`, one a line (`count` of an open-ended set;
/// default: one `bench` sample).
pub fn run(w: &dyn DynWorkload, set: &str, seed: u64, count: Option<usize>) -> Result<(), Error> {
    for line in w.input_lines(set, seed, count)? {
        outln!("{line}");
    }
    Ok(())
}
