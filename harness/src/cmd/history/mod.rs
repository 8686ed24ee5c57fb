//! `bitbench history`: runs kept across commits, one module per
//! subcommand.

pub mod bisect;
pub mod run;

use crate::entry::Suite;
use crate::error::Error;

/// `bitbench history`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Subcommand,
}

#[derive(clap::Subcommand, Debug)]
enum Subcommand {
    /// Build and measure every commit of a range (first-parent line) and file the runs.
    Run(run::Args),
    /// Find the first commit where one record moved beyond a threshold (≈ log2(n) builds).
    Bisect(bisect::Args),
}

/// Runs `bitbench history`.
pub fn main(suite: &Suite, args: Args) -> Result<(), Error> {
    match args.command {
        Subcommand::Run(args) => run::main(suite, args),
        Subcommand::Bisect(args) => bisect::main(suite, args),
    }
}
