//! `history run`: every commit of a range built, measured and filed.
//!
//! Backfilling a store is a long, unattended job, so one commit that does
//! not build or measure must not waste the others: it gets one line and
//! the run goes on (and exits 1 at the end). What can be known before any
//! build (an unknown revision, a commit older than the oldest supported)
//! is refused before building anything; the first-parent line is walked
//! oldest first, so a too-old build of another program shows on the first
//! commit, before anything else is built.

use super::Commit;
use crate::ab::oneshot;
use crate::error::Error;
use crate::revision::Builder;
use reports::ResultsFile;
use reports::history::{Added, Store};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `history run` should do.
#[derive(Clone, Debug)]
pub struct Options {
    /// `A..B`, or a single revision.
    pub range: String,
    /// The store's directory.
    pub store: PathBuf,
    /// Workloads; empty: all.
    pub workloads: Vec<String>,
    /// Input sets; empty: each workload's quick bench sets.
    pub sets: Vec<String>,
    /// Run `bench --quick`.
    pub time: bool,
    /// Run `count` (where valgrind runs).
    pub count: bool,
    /// File runs of dirty trees too.
    pub allow_dirty: bool,
    /// The machine's name every run is filed under (see `measure`).
    pub machine: String,
}

/// What happened to one commit.
#[derive(Clone, Debug)]
pub struct CommitRun {
    /// The commit.
    pub commit: Commit,
    /// Its build's seconds; `None`: a kept build was reused.
    pub build_seconds: Option<f64>,
    /// Seconds of `bench` and `count` together.
    pub measure_seconds: f64,
    /// Results files filed anew.
    pub added: usize,
    /// Results files the store already held.
    pub present: usize,
    /// Why this commit has no (or only part of its) runs: one line.
    pub failed: Option<String>,
}

/// All of `history run`'s outcome.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// One per commit, oldest first.
    pub commits: Vec<CommitRun>,
    /// Why instructions were not counted, when they were not.
    pub uncounted: Option<String>,
}

const COMMAND: &str = "history run";

/// Builds, measures and files every commit of the range.
pub fn run(builder: &Builder<'_>, options: &Options) -> Result<Outcome, Error> {
    let commits = super::commits(builder, COMMAND, &options.range)?;
    for commit in &commits {
        super::refuse_too_old(builder, COMMAND, commit)?;
    }
    let store =
        Store::open(&options.store).map_err(|e| Error::usage(format!("{COMMAND}: store: {e}")))?;
    let uncounted = if options.count {
        crate::ab::count_tools()
    } else {
        None
    };
    if let Some(why) = &uncounted {
        eprintln!("{COMMAND}: instructions not counted: {why}");
    }
    let files = builder.dir().join("files").join("history");
    let total = commits.len();
    let mut done = Vec::new();
    for (i, commit) in commits.into_iter().enumerate() {
        eprintln!(
            "{COMMAND}: [{}/{total}] {} {}",
            i + 1,
            commit.short(),
            commit.subject
        );
        let mut outcome = CommitRun {
            commit,
            build_seconds: None,
            measure_seconds: 0.0,
            added: 0,
            present: 0,
            failed: None,
        };
        let built = match builder.revision(&outcome.commit.sha) {
            Ok(built) => built,
            Err(e) => {
                eprintln!("{e}");
                outcome.failed = Some(e.to_string());
                done.push(outcome);
                continue;
            }
        };
        outcome.build_seconds = built.seconds;
        super::refuse_unrecorded(COMMAND, &outcome.commit, &built)?;
        let started = Instant::now();
        let mut subcommands: Vec<&[&str]> = Vec::new();
        if options.time {
            subcommands.push(&["bench", "--quick"]);
        }
        if options.count && uncounted.is_none() {
            subcommands.push(&["count"]);
        }
        for subcommand in subcommands {
            let out = files.join(format!("{}-{}.json", outcome.commit.sha, subcommand[0]));
            let filed = measure(&built.exe, subcommand, options, &out).and_then(|file| {
                let added = store
                    .add(&file, out.parent(), options.allow_dirty)
                    .map_err(|e| Error::usage(format!("{COMMAND}: store: {e}")))?;
                Ok((added, broken(&file)))
            });
            let mut fail = |why: String| {
                let line = format!(
                    "{COMMAND}: {} {}: {why}",
                    outcome.commit.short(),
                    subcommand[0]
                );
                eprintln!("{line}");
                outcome.failed.get_or_insert(line);
            };
            match filed {
                // Filed with its wrong, crashed or hung records: the
                // commit is broken there, and the run says so.
                Ok((added, broken)) => {
                    if let Some(why) = broken {
                        fail(format!("broken: {why}"));
                    }
                    match added {
                        Added::New(_) => outcome.added += 1,
                        Added::Present(_) => outcome.present += 1,
                    }
                }
                Err(e) => fail(e.to_string()),
            }
        }
        outcome.measure_seconds = started.elapsed().as_secs_f64();
        done.push(outcome);
    }
    Ok(Outcome {
        commits: done,
        uncounted,
    })
}

/// The first record of `file` whose variant answered wrong, crashed or
/// hung, in words: `components/swar/density:0.5: crashed: …`.
fn broken(file: &ResultsFile) -> Option<String> {
    let r = file.records.iter().find(|r| r.status.finding())?;
    Some(format!(
        "{}/{}/{}: {}",
        r.workload,
        r.variant,
        r.input_set,
        r.reason.as_deref().unwrap_or(r.status.as_str())
    ))
}

/// `exe SUBCOMMAND [WORKLOAD...] [--inputs SET...] --out FILE`, its results
/// named for `options.machine`: the builds are not asked (those older than
/// `--machine` name themselves by their CPU model), so one range is one
/// machine's series.
fn measure(
    exe: &Path,
    subcommand: &[&str],
    options: &Options,
    out: &Path,
) -> Result<ResultsFile, Error> {
    let mut args: Vec<&str> = subcommand.to_vec();
    args.extend(options.workloads.iter().map(String::as_str));
    if !options.sets.is_empty() {
        args.push("--inputs");
        args.extend(options.sets.iter().map(String::as_str));
    }
    let mut file = oneshot::results(exe, &args, out)?;
    file.machine.name.clone_from(&options.machine);
    Ok(file)
}
