//! `bitbench inputs`: print the inputs of a set in the text format `solve`
//! reads, so an implementation outside this project (the seed write-ups'
//! C++, a third-party library) can be fed, checked and timed on exactly the
//! inputs `bench` measures.

use crate::entry::Suite;
use crate::error::Error;
use crate::outln;

/// `bitbench inputs`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Workload name (see `{program} list`).
    workload: String,
    /// Input set, e.g. {sets} (see `{program} list`).
    set: String,
    /// Inputs to print for an open-ended set; default: as many as one
    /// `bench` sample holds{sample}.
    #[arg(long)]
    count: Option<usize>,
    /// Seed of the generated inputs (`bench`'s default is 1).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Prints the inputs of the set, one a line.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let w = suite.find(&args.workload)?;
    for line in w.input_lines(&args.set, args.seed, args.count)? {
        outln!("{line}");
    }
    Ok(())
}
