//! Measuring commits one by one: `history run` files a run of every commit
//! of a range in a store, `history bisect` finds the first commit where one
//! record moved.
//!
//! Both build revisions as `ab` does ([`Builder`]: exported, built once in
//! `<target>/bitbench-ab/build`, never the program's own target directory,
//! kept and reused). A results file names its
//! commit only because the build passes it in (`BITBENCH_BUILD_COMMIT`), so
//! revisions built before that are refused, each with one line.

pub mod bisect;
pub mod run;

use crate::error::Error;
use crate::revision::{Builder, Built};

/// The oldest revision of bitbench supported: the first whose builds
/// record the commit they were built from (`ab`'s build-time commit); its
/// `bench` and `count` already write results files (`--out`).
pub const OLDEST_SUPPORTED: &str = "0ab3709fe90e5e445b901818f61e3970ddfa3695";

/// One commit of a first-parent line.
#[derive(Clone, Debug)]
pub struct Commit {
    /// The full commit.
    pub sha: String,
    /// Its subject line.
    pub subject: String,
}

impl Commit {
    /// The first ten digits, as printed.
    pub fn short(&self) -> &str {
        &self.sha[..self.sha.len().min(10)]
    }
}

/// The commits of `range` in first-parent order, oldest first: `A..B` (and
/// every range git takes) as `git rev-list --first-parent --reverse` lists
/// it; a single revision is itself. `Err` (usage) naming `range` when git
/// knows none of it, or it holds no commit.
pub fn commits(builder: &Builder<'_>, command: &str, range: &str) -> Result<Vec<Commit>, Error> {
    let shas = if range.contains("..") {
        builder
            .git(&["rev-list", "--first-parent", "--reverse", range, "--"])
            .map_err(|why| {
                let why = why.lines().next().unwrap_or("unknown to git").to_owned();
                Error::usage(format!(
                    "{command}: '{range}' is not a range of commits: {why}"
                ))
            })?
            .lines()
            .map(str::to_owned)
            .collect()
    } else {
        vec![builder.sha(range)?]
    };
    if shas.is_empty() {
        return Err(Error::usage(format!(
            "{command}: '{range}' holds no commit"
        )));
    }
    shas.into_iter()
        .map(|sha| {
            let subject = builder
                .git(&["log", "-1", "--format=%s", &sha])
                .unwrap_or_default();
            Ok(Commit { sha, subject })
        })
        .collect()
}

/// Refuses, before building it, a commit of bitbench's own repository older
/// than [`OLDEST_SUPPORTED`]. Other programs' repositories do not hold that
/// commit; their builds are probed by [`refuse_unrecorded`] instead.
pub fn refuse_too_old(builder: &Builder<'_>, command: &str, commit: &Commit) -> Result<(), Error> {
    let holds_oldest = builder
        .git(&["cat-file", "-e", &format!("{OLDEST_SUPPORTED}^{{commit}}")])
        .is_ok();
    let descends = builder
        .git(&["merge-base", "--is-ancestor", OLDEST_SUPPORTED, &commit.sha])
        .is_ok();
    if holds_oldest && !descends {
        return Err(Error::usage(format!(
            "{command}: revision {} is older than {}, the oldest supported revision \
             (the first whose builds record their commit)",
            commit.short(),
            &OLDEST_SUPPORTED[..10]
        )));
    }
    Ok(())
}

/// Refuses a build that does not say which commit it was built from: a
/// program built with a bitbench older than [`OLDEST_SUPPORTED`] (which
/// brought serve mode and the build-time commit together), or none, whose
/// results files would not name their commit.
pub fn refuse_unrecorded(command: &str, commit: &Commit, built: &Built) -> Result<(), Error> {
    if crate::ab::build_commit(&built.exe).as_deref() == Some(commit.sha.as_str()) {
        return Ok(());
    }
    Err(Error::usage(format!(
        "{command}: revision {} is not supported: its build does not record its commit \
         (no bitbench program, or one built with bitbench older than {}, the oldest supported)",
        commit.short(),
        &OLDEST_SUPPORTED[..10]
    )))
}
