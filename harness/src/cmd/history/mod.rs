//! `bitbench history`: keep runs in a store, draw them over commits, find
//! the steps, gate the newest commit, compare two stored commits; measure
//! a range of commits into a store, bisect to the commit where a record
//! moved (builds as `ab` makes them, see [`crate::history`]).
//!
//! The store, series, steps and pages live in [`reports::history`]; this
//! module reads git (the branch's first-parent order, revisions) and turns
//! the library's errors into exit codes: 2 for a bad store, repository or
//! revision, 1 when `check` or `compare` finds a regression.

mod add;
mod bisect;
mod check;
mod compare;
mod report;
mod run;

use crate::entry::Suite;
use crate::error::Error;
use crate::revision::git;
use reports::Metric;
use reports::history::{By, Commit, Selection, Store, StoredRun};
use std::fmt::Display;
use std::path::{Path, PathBuf};

/// `bitbench history`'s subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// File results files in a store (a plain directory), one file per run
    /// keyed by commit, machine and time.
    ///
    /// Every file is checked before any is filed: a corrupt or foreign
    /// file, or a run of an unknown or dirty commit (unless
    /// --allow-dirty), leaves the store as it was. A run already filed is
    /// skipped.
    Add(add::Args),
    /// Draw the store's runs over a branch's commits: trend charts (SVG,
    /// PNG), index.html, report.md and steps.json.
    Report(report::Args),
    /// Exit 1 when the branch's newest commit starts a step (a regression)
    /// in a record; 2 when it has no run in the store.
    Check(check::Args),
    /// Compare the stored runs of two revisions as `compare` does; exit 1
    /// on a regression.
    Compare(compare::Args),
    /// Build and measure every commit of a range (its first-parent line)
    /// and file the runs in a store.
    Run(run::Args),
    /// Find the first commit on GOOD..BAD where one record moved beyond a
    /// threshold, in about log2(n) builds.
    Bisect(bisect::Args),
}

/// Runs `bitbench history`.
pub fn run(suite: &Suite, command: Command) -> Result<(), Error> {
    match command {
        Command::Run(args) => run::run(suite, args),
        Command::Bisect(args) => bisect::run(suite, args),
        Command::Add(args) => add::run(args),
        Command::Report(args) => report::run(args),
        Command::Check(args) => check::run(args),
        Command::Compare(args) => compare::run(args),
    }
}

/// The store, the repository and the records a series command reads.
#[derive(clap::Args, Debug)]
struct SeriesArgs {
    /// The store directory (see `history add`).
    #[arg(long, value_name = "DIR")]
    store: PathBuf,
    /// The git repository whose commits order the runs.
    #[arg(long, value_name = "PATH", default_value = ".")]
    repo: PathBuf,
    /// The branch (or any revision) whose first-parent line is drawn; runs
    /// of other commits are left out and counted.
    #[arg(long, value_name = "REF", default_value = "HEAD")]
    branch: String,
    /// Workloads to include; default: all.
    #[arg(long, num_args = 1..)]
    workload: Vec<String>,
    /// Metrics to include; default: every metric for `report`, time and
    /// instructions for `check`.
    #[arg(long, num_args = 1.., value_parser = Metric::ALL.map(Metric::as_str))]
    metric: Vec<String>,
    /// Percent change a step must exceed; default: 1 for time and setup,
    /// 0.1 for exact counts (instructions, cache figures).
    #[arg(long, value_name = "PCT")]
    threshold: Option<f64>,
}

impl SeriesArgs {
    /// The selection: with no metric named, every metric for a report,
    /// time and instructions for a gate (as `compare` judges).
    fn selection(&self, by: By, gate: bool) -> Result<Selection, Error> {
        let named: Vec<Metric> = self
            .metric
            .iter()
            .filter_map(|m| Metric::parse(m))
            .collect();
        let checked = reports::compare::gate(self.threshold, &named).map_err(Error::usage)?;
        Ok(Selection {
            by,
            workloads: self.workload.clone(),
            // A report draws every metric; a gate judges what `compare` does.
            metrics: if gate { checked } else { named },
            threshold_pct: self.threshold,
        })
    }

    /// The branch's commits and the store's runs.
    fn load(&self) -> Result<(Vec<Commit>, Vec<StoredRun>), Error> {
        let commits = commits(&self.repo, &self.branch)?;
        Ok((commits, runs(&self.store)?))
    }
}

/// One line naming what failed.
fn usage(e: impl Display) -> Error {
    Error::usage(e.to_string())
}

/// Every run of the store at `dir`, which must exist.
fn runs(dir: &Path) -> Result<Vec<StoredRun>, Error> {
    if !dir.is_dir() {
        return Err(Error::usage(format!(
            "--store {}: no such directory (file runs with `history add`)",
            dir.display()
        )));
    }
    Store::open(dir).and_then(|s| s.runs()).map_err(usage)
}

/// The top directory of the git repository at `repo`.
fn toplevel(repo: &Path) -> Result<PathBuf, Error> {
    if !repo.is_dir() {
        return Err(Error::usage(format!(
            "--repo {}: no such directory",
            repo.display()
        )));
    }
    git(repo, &["rev-parse", "--show-toplevel"])
        .map(PathBuf::from)
        .map_err(|_| {
            Error::usage(format!(
                "--repo {}: not a git repository (history orders runs by its commits)",
                repo.display()
            ))
        })
}

/// The full hash of revision `rev` in `repo`.
fn resolve(repo: &Path, rev: &str) -> Result<String, Error> {
    let top = toplevel(repo)?;
    git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .ok()
    .filter(|sha| !sha.is_empty())
    .ok_or_else(|| Error::usage(format!("'{rev}' is not a commit of {}", top.display())))
}

/// The first-parent line of `branch` in `repo`, oldest first.
fn commits(repo: &Path, branch: &str) -> Result<Vec<Commit>, Error> {
    let sha = resolve(repo, branch)?;
    let log = git(
        repo,
        &[
            "log",
            "--first-parent",
            "--reverse",
            "--format=%H%x1f%h%x1f%cI%x1f%s",
            &sha,
        ],
    )
    .map_err(|e| Error::usage(format!("{}: git log {branch}: {e}", repo.display())))?;
    Ok(log
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(4, '\x1f');
            Some(Commit {
                sha: parts.next()?.to_owned(),
                short: parts.next()?.to_owned(),
                date: parts.next()?.to_owned(),
                subject: parts.next().unwrap_or("").to_owned(),
            })
        })
        .collect())
}
