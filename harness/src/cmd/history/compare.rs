//! `bitbench history compare`: two revisions' stored runs through
//! `compare` (same verdicts, tables and exit codes), one machine at a time.

use super::{resolve, runs};
use crate::cmd::compare::{Options, run};
use crate::error::Error;
use reports::Metric;
use reports::compare::Format;
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
    /// The machine (as the store names it) when the runs come from several.
    #[arg(long, value_name = "ID")]
    machine: Option<String>,
    /// Percent change that counts; default: 1 for instructions, 5 for time.
    #[arg(long, value_name = "PCT")]
    threshold: Option<f64>,
    /// Metrics to compare; default: time and instructions.
    #[arg(long, num_args = 1.., value_parser = Metric::ALL.map(Metric::as_str))]
    metric: Vec<String>,
    /// Output: an aligned table, Markdown or JSON.
    #[arg(long, default_value = "text", value_parser = ["text", "markdown", "json"])]
    format: String,
}

/// Runs `bitbench history compare`: where a commit has several runs on
/// the machine, the newest is compared.
pub fn main(args: Args) -> Result<(), Error> {
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
            "{}: the runs come from several machines ({}); pick one with --machine ID",
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
    let options = Options {
        metrics: args
            .metric
            .iter()
            .filter_map(|m| Metric::parse(m))
            .collect(),
        threshold_pct: args.threshold,
        format: match args.format.as_str() {
            "markdown" => Format::Markdown,
            "json" => Format::Json,
            _ => Format::Text,
        },
        allow_mismatch: false,
    };
    run(&newest(&base_runs), &newest(&new_runs), &options)
}
