//! `bitbench history compare`: two revisions' stored runs through
//! `compare` (same verdicts, tables and exit codes), one machine at a time.

use super::{resolve, runs};
use crate::cmd::compare::{VerdictArgs, files};
use crate::error::Error;
use reports::history::StoredRun;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// `bitbench history compare`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The baseline revision.
    base: String,
    /// The revision to judge.
    new: String,
    /// The store directory.
    #[arg(long, value_name = "DIR")]
    store: PathBuf,
    /// The git repository the revisions are resolved in.
    #[arg(long, value_name = "PATH", default_value = ".")]
    repo: PathBuf,
    /// The machine's name when the runs come from several.
    #[arg(long, value_name = "NAME")]
    machine: Option<String>,
    #[command(flatten)]
    verdicts: VerdictArgs,
}

/// Runs `bitbench history compare`: where a commit has several runs on
/// the machine, the newest is compared.
pub fn run(args: Args) -> Result<(), Error> {
    let base = resolve(&args.repo, &args.base)?;
    let new = resolve(&args.repo, &args.new)?;
    let stored = runs(&args.store)?;
    let of = |sha: &str| -> Vec<&StoredRun> {
        stored
            .iter()
            .filter(|r| !r.dirty && sha.starts_with(&r.commit))
            .filter(|r| args.machine.as_ref().is_none_or(|m| *m == r.machine))
            .collect()
    };
    let (base_runs, new_runs) = (of(&base), of(&new));
    for (rev, found) in [(&args.base, &base_runs), (&args.new, &new_runs)] {
        if found.is_empty() {
            return Err(Error::usage(format!(
                "{}: no run of {rev} ({}){}",
                args.store.display(),
                if *rev == args.base { &base } else { &new },
                args.machine
                    .as_ref()
                    .map_or(String::new(), |m| format!(" on machine {m}"))
            )));
        }
    }
    let machines: BTreeSet<&str> = base_runs
        .iter()
        .chain(&new_runs)
        .map(|r| r.machine.as_str())
        .collect();
    if machines.len() > 1 {
        return Err(Error::usage(format!(
            "{}: the runs come from several machines ({}); pick one with --machine NAME",
            args.store.display(),
            machines.into_iter().collect::<Vec<_>>().join(", ")
        )));
    }
    let newest = |runs: &[&StoredRun]| {
        runs.iter()
            .max_by(|a, b| (&a.file.date, &a.path).cmp(&(&b.file.date, &b.path)))
            .map(|r| r.path.clone())
            .expect("checked above: at least one run")
    };
    let options = args.verdicts.options(false);
    files(&newest(&base_runs), &newest(&new_runs), &options)
}
