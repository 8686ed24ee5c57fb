//! The child's side: announcing each batch of user code before it runs.
//!
//! A watched child ([`super::watch`]) writes one record to its stderr when
//! a batch begins and one when it ends: an ASCII record separator
//! ([`MARK`]), a JSON [`Event`], a newline. The parent reads its child's
//! stderr anyway (to pass it through and keep its end), so it learns of
//! each step the moment it is written, with no file to poll, and takes
//! the records out of what it passes on. Each record is written in one
//! call while holding the process's stderr lock, so it never interleaves
//! with the program's own `eprint!`s; a pipe keeps what was written
//! whatever then happens to the process. Outside a watched child nothing
//! is written, and the cost is one check of a `OnceLock`.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The environment variable that turns the beacon on, naming where it
/// writes: [`STDERR`].
pub(crate) const ENV: &str = "BITBENCH_BEACON";

/// The value of [`ENV`] asking for records on stderr.
pub(crate) const STDERR: &str = "stderr";

/// The byte that starts a record on stderr (ASCII RS, "record separator").
pub(crate) const MARK: u8 = 0x1e;

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

/// One record: a step begins (`step` given) or ends.
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
        if let Some(id) = self.0 {
            write(&Event { id, step: None });
        }
    }
}

/// Announces the step `step()` builds (built only in a watched child);
/// it ends when the returned value is dropped.
pub(crate) fn begin(step: impl FnOnce() -> Step) -> Running {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    if !active() {
        return Running(None);
    }
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    write(&Event {
        id,
        step: Some(step()),
    });
    Running(Some(id))
}

/// Whether this process is a watched child announcing its steps.
pub(crate) fn active() -> bool {
    static ACTIVE: OnceLock<bool> = OnceLock::new();
    *ACTIVE.get_or_init(|| std::env::var_os(ENV).is_some_and(|v| v == STDERR))
}

fn write(event: &Event) {
    let mut record = vec![MARK];
    serde_json::to_writer(&mut record, event).expect("events serialise");
    record.push(b'\n');
    // A beacon that cannot be written only costs the finding its context.
    let _ = std::io::stderr().lock().write_all(&record);
}

/// Splits a stream of stderr into what the program wrote and the events
/// among it, however the reads cut the records.
#[derive(Default)]
pub(crate) struct Demux {
    /// The record being read, from its mark on; `None` between records.
    record: Option<Vec<u8>>,
}

impl Demux {
    /// Feeds the next bytes read: `text` receives what the program wrote,
    /// `event` each complete record. A record that is not an event (the
    /// program wrote the mark itself) is passed on as text.
    pub(crate) fn feed(
        &mut self,
        mut bytes: &[u8],
        text: &mut dyn FnMut(&[u8]),
        event: &mut dyn FnMut(Event),
    ) {
        while !bytes.is_empty() {
            match &mut self.record {
                None => {
                    let start = bytes.iter().position(|&b| b == MARK).unwrap_or(bytes.len());
                    if start > 0 {
                        text(&bytes[..start]);
                    }
                    if start < bytes.len() {
                        self.record = Some(Vec::new());
                    }
                    bytes = &bytes[(start + 1).min(bytes.len())..];
                }
                Some(record) => {
                    let Some(end) = bytes.iter().position(|&b| b == b'\n') else {
                        record.extend_from_slice(bytes);
                        return;
                    };
                    record.extend_from_slice(&bytes[..end]);
                    match serde_json::from_slice::<Event>(record) {
                        Ok(e) => event(e),
                        Err(_) => {
                            text(&[MARK]);
                            text(record);
                            text(b"\n");
                        }
                    }
                    self.record = None;
                    bytes = &bytes[end + 1..];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(event: &Event) -> Vec<u8> {
        let mut r = vec![MARK];
        r.extend(serde_json::to_vec(event).unwrap());
        r.push(b'\n');
        r
    }

    #[test]
    fn records_come_out_of_text_however_the_reads_cut_them() {
        let step = Step::new(
            "v",
            Batch::Set { set: "s".into() },
            Duration::from_millis(3),
        );
        let mut stream = b"progress ".to_vec();
        stream.extend(record(&Event {
            id: 7,
            step: Some(step.clone()),
        }));
        stream.extend(b"half a line");
        stream.extend(record(&Event { id: 7, step: None }));
        stream.extend(b"\x1enot json\nend\n");
        for cut in 1..stream.len() {
            let (mut text, mut events) = (Vec::new(), Vec::new());
            let mut demux = Demux::default();
            for piece in stream.chunks(cut) {
                demux.feed(piece, &mut |t| text.extend_from_slice(t), &mut |e| {
                    events.push(e)
                });
            }
            assert_eq!(
                String::from_utf8_lossy(&text),
                "progress half a line\x1enot json\nend\n",
                "cut at {cut}"
            );
            assert_eq!(events.len(), 2, "cut at {cut}");
            assert_eq!(events[0].step.as_ref(), Some(&step));
            assert_eq!((events[1].id, events[1].step.is_none()), (7, true));
        }
    }
}
