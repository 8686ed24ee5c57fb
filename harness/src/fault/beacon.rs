//! The child's side: announcing each batch of user code before it runs.
//!
//! A watched child ([`super::watch`]) appends one JSON line to the file
//! named by [`ENV`] when a batch begins and one when it ends. When the
//! child dies, the batches begun and not ended are the ones that were
//! running; when one runs past its deadline, the parent stops the child.
//! One `write` per line on a file opened for appending, so lines from
//! several threads never interleave, and the kernel keeps what was written
//! whatever happens to the process. Outside a watched child nothing is
//! written, and the cost is one check of a `OnceLock`.
//!
//! A file, not a pipe: `check` announces tens of thousands of batches a
//! run, and a pipe would wake the parent for each (`check components
//! --cases 100000` took 1.10× its in-process time so, against 1.02× with
//! the file). The parent needs a step only against its deadline, seconds
//! away, so reading the file as it waits costs nothing it needs.

use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The environment variable naming the file to append steps to.
pub(crate) const ENV: &str = "BITBENCH_BEACON";

/// How many times its expected time a step may take before its deadline
/// counts (on top of `--timeout`): a variant ten times slower than the
/// oracle on a batch is slow, not hung.
pub(crate) const ALLOWANCE_FACTOR: u32 = 10;

/// One batch of user code about to run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Step {
    /// The variant running it.
    pub variant: String,
    /// Which inputs, as the job that runs them can rebuild them.
    pub batch: Batch,
    /// Milliseconds the step may take beyond `--timeout`: ten times what
    /// the reference took on the same batch, or what a measuring round is
    /// planned to take, or (a step of the reference's own batch) its
    /// length at the time per input seen so far; 0 for `solve`.
    pub allowance_ms: u64,
}

impl Step {
    /// A step of `variant` on `batch`, expected to take `expected`.
    pub(crate) fn new(variant: &str, batch: Batch, expected: Duration) -> Step {
        Step {
            variant: variant.to_owned(),
            batch,
            allowance_ms: (expected * ALLOWANCE_FACTOR).as_millis() as u64,
        }
    }

    /// What the step may take beyond a deadline.
    pub(crate) fn allowance(&self) -> Duration {
        Duration::from_millis(self.allowance_ms)
    }
}

/// Where a step's inputs come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Batch {
    /// `check`'s work unit `chunk` of pass `pass` (1: against the oracle,
    /// 2: against the stand-in), the inputs of it the variant runs.
    Chunk { pass: u8, chunk: usize },
    /// A whole input set as `bench` generates it.
    Set { set: String },
    /// Inputs given as text (`solve`).
    Lines { lines: Vec<String> },
}

/// One line of the file: a step begins (`step` given) or ends.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Event {
    pub id: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Step>,
}

/// A step in progress: announces its end when dropped.
#[must_use = "the step ends when this is dropped"]
pub(crate) struct Running(Option<u64>);

impl Drop for Running {
    fn drop(&mut self) {
        if let (Some(id), Some(file)) = (self.0, file()) {
            write(file, &Event { id, step: None });
        }
    }
}

/// Announces the step `step()` builds (built only in a watched child);
/// it ends when the returned value is dropped.
pub(crate) fn begin(step: impl FnOnce() -> Step) -> Running {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let Some(file) = file() else {
        return Running(None);
    };
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    write(
        file,
        &Event {
            id,
            step: Some(step()),
        },
    );
    Running(Some(id))
}

/// Whether this process is a watched child announcing its steps.
pub(crate) fn active() -> bool {
    file().is_some()
}

fn file() -> Option<&'static File> {
    static FILE: OnceLock<Option<File>> = OnceLock::new();
    FILE.get_or_init(|| {
        let path = std::env::var_os(ENV)?;
        File::options().append(true).open(path).ok()
    })
    .as_ref()
}

fn write(mut file: &File, event: &Event) {
    let mut line = serde_json::to_vec(event).expect("events serialise");
    line.push(b'\n');
    // A beacon that cannot be written only costs the finding its context.
    let _ = file.write_all(&line);
}
