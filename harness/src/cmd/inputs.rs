//! `bitbench inputs`: print the inputs of a set in the text format `solve`
//! reads, so an implementation outside this project (the seed write-ups'
//! C++, a third-party library) can be fed, checked and timed on exactly the
//! inputs `bench` measures.

use crate::error::Error;
use crate::workload::Workload;

/// The inputs of `set` as text lines: `n` for an open-ended set, every
/// input of a fixed one. A name that stands for several sets (`official`,
/// a sweep) gives the inputs of each member in turn.
pub fn lines<W: Workload + ?Sized>(
    w: &W,
    set: &str,
    seed: u64,
    n: usize,
) -> Result<Vec<String>, Error> {
    let mut lines = Vec::new();
    for member in w.expand_set(set, false) {
        let inputs = w
            .generate(&member, seed, n)
            .map_err(|e| Error::usage(format!("input set '{member}': {e}")))?;
        lines.extend(inputs.iter().map(|i| w.format_input(i)));
    }
    Ok(lines)
}
