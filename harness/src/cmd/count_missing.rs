//! `count` in a program built without bitbench's `count` feature.
//!
//! The command stays on the command line, listed in `--help`, so that a
//! user who asks for it learns in one line which feature to add, rather
//! than reading clap's "unrecognized subcommand".

use crate::entry::Suite;
use crate::error::Error;

/// Whatever follows `count`: every argument, flags and `--help` included.
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct Args {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    _rest: Vec<String>,
}

/// Refuses (exit 2), saying how to build the program with `count`.
pub fn run(_suite: &Suite, _args: Args) -> Result<(), Error> {
    Err(Error::usage(
        "count: this program was built without bitbench's `count` feature; add \
         features = [\"count\"] to its bitbench dependency in Cargo.toml (counting also \
         needs valgrind and gungraun-runner)",
    ))
}
