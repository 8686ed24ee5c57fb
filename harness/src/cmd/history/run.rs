//! `bitbench history run`: the command line and the closing table; the
//! work is in [`crate::history::run`].

use crate::entry::Suite;
use crate::error::Error;
use crate::history::run::{self, Options};
use crate::machine::MachineArg;
use crate::revision::{Builder, FeaturesArg};
use std::path::PathBuf;

/// `bitbench history run`'s command line.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct Args {
    /// `A..B` (the first-parent line after A up to B), any range git
    /// takes, or one revision.
    #[arg(value_name = "REV_RANGE")]
    range: String,
    /// The store's directory (created if absent).
    #[arg(long, value_name = "DIR")]
    store: PathBuf,
    /// Workloads to measure; default: all.
    #[arg(long = "workload", num_args = 1.., value_name = "WORKLOAD")]
    workloads: Vec<String>,
    /// Input sets; default: each workload's quick bench sets.
    #[arg(long, num_args = 1.., value_name = "SET")]
    inputs: Vec<String>,
    /// Do not count instructions.
    #[arg(long, conflicts_with = "no_time")]
    no_count: bool,
    /// Do not measure time.
    #[arg(long)]
    no_time: bool,
    /// File runs of trees with uncommitted changes too.
    #[arg(long)]
    allow_dirty: bool,
    #[command(flatten)]
    machine: MachineArg,
    #[command(flatten)]
    features: FeaturesArg,
}

const AFTER_HELP: &str = "\
Each commit is built as `ab` builds a revision (kept at \
<target>/bitbench-ab/<sha>/ and reused), with its commit recorded in the \
build; then `bench --quick --out` and, where valgrind runs, `count --out` \
measure it, and both results files are filed in the store (a run already \
filed is left alone) under one machine name, `--machine` or the default, \
whatever each build would call it (builds older than the name call it by \
the CPU model, and a series must not change machine mid-range).

Refused before anything is built (one line, exit 2): an unknown revision, \
a range with no commit, and commits of bitbench older than the oldest \
supported revision, 0ab3709fe9 (the first whose builds record their \
commit). A program whose build does not record its commit (built with an \
older bitbench) is refused at its first build, the oldest commit.

A commit that does not build or measure, or whose runs hold a wrong \
answer, a crash or a hang (filed all the same), gets one line and the \
others go on; the run then exits 1.";

/// Runs `bitbench history run`.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let builder = Builder::open(suite.origin(), "history run")?.with_features(args.features.list);
    let options = Options {
        range: args.range,
        store: args.store,
        workloads: args.workloads,
        sets: args.inputs,
        time: !args.no_time,
        count: !args.no_count,
        allow_dirty: args.allow_dirty,
        machine: args.machine.resolve()?,
    };
    let outcome = run::run(&builder, &options)?;
    crate::outln!(
        "{:<10}  {:>7}  {:>7}  {:<22}  subject",
        "commit",
        "build",
        "measure",
        "runs filed"
    );
    let mut failed = Vec::new();
    for c in &outcome.commits {
        let build = c
            .build_seconds
            .map_or("kept".to_owned(), |s| format!("{s:.0} s"));
        let filed = format!("{} added, {} present", c.added, c.present);
        crate::outln!(
            "{:<10}  {build:>7}  {:>5.0} s  {filed:<22}  {}",
            c.commit.short(),
            c.measure_seconds,
            c.commit.subject
        );
        if let Some(why) = &c.failed {
            crate::outln!("{:<10}  {why}", "");
            failed.push(c.commit.short().to_owned());
        }
    }
    if let Some(why) = &outcome.uncounted {
        crate::outln!("instructions not counted: {why}");
    }
    crate::outln!("store: {}", options.store.display());
    if failed.is_empty() {
        return Ok(());
    }
    Err(Error::failed(format!(
        "history run: {} of {} commit(s) broken or not fully measured: {}",
        failed.len(),
        outcome.commits.len(),
        failed.join(", ")
    )))
}
