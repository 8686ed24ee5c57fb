//! One build as the driver holds it: its side and, when it has serve mode,
//! the running child that answers and times for it, started again after a
//! crash or a hang.

use super::child::Child;
use crate::engine::serve::{Hello, Request};
use crate::revision::Side;
use std::path::Path;
use std::time::Duration;

/// One build: its side and, when it has serve mode, the running child.
pub struct Build {
    /// Which build, and its executable.
    pub side: Side,
    /// Its serve-mode child and the child's hello, if it serves.
    pub child: Option<(Child, Hello)>,
    /// How long it may take to answer one request.
    pub timeout: Duration,
}

impl Build {
    /// Starts `side`'s serve-mode child, answering within `timeout`;
    /// without one (a build from before serve mode) the build still runs
    /// its subcommands.
    pub fn start(side: Side, timeout: Duration) -> Build {
        let mut build = Build {
            side,
            child: None,
            timeout,
        };
        build.child = build.spawn();
        build
    }

    /// A new serve-mode child of its side and the child's hello; `None`
    /// when it does not start or does not serve.
    pub fn spawn(&self) -> Option<(Child, Hello)> {
        let name = format!("{} ({})", self.side.label, self.side.name);
        // Starting builds every variant: that may take longer than one batch.
        let mut child = Child::spawn(&self.side.exe, &name, self.timeout).ok()?;
        let hello = child.request::<Hello>(&Request::Hello).ok()?;
        Some((child, hello))
    }

    /// Why its child stopped answering, if it did.
    pub fn fault(&self) -> Option<crate::fault::Fault> {
        self.child.as_ref().and_then(|(c, _)| c.fault().cloned())
    }

    /// A fresh child in place of one that crashed or hung, for the records
    /// that follow.
    pub fn revive(&mut self) {
        if self.fault().is_some() {
            self.child = self.spawn();
        }
    }

    /// Ends the child, if any (before counting: valgrind needs the core
    /// more than an idle child).
    pub fn stop(self) -> Side {
        self.side
    }
}

/// The commit `exe` says it was built from (its serve mode's hello);
/// `None` for a build without serve mode or not told its commit.
pub fn build_commit(exe: &Path) -> Option<String> {
    let timeout = crate::fault::DEFAULT_TIMEOUT;
    let mut child = Child::spawn(exe, &exe.display().to_string(), timeout).ok()?;
    let hello = child.request::<Hello>(&Request::Hello).ok()?;
    (hello.commit != "unknown").then_some(hello.commit)
}
