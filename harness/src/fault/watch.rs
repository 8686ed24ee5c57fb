//! The parent's side: running a child while watching its steps.
//!
//! The child's stderr is passed through as it comes (progress, notes) and
//! its end kept, since that is what tells a stack overflow from another
//! abort, and what a `panic = "abort"` build prints before it dies. The
//! step file ([`super::beacon`]) is read as it grows; a step still running
//! past its deadline stops the child, which is then reported as hung on
//! that step.

use super::beacon::{self, Event, Step};
use super::kind::Fault;
use crate::error::Error;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How much of the child's stderr is kept for the report.
const TAIL: usize = 16 * 1024;

/// When a child counts as hung.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Deadline {
    /// A step running longer than this plus its allowance.
    Steps(Duration),
    /// The whole process running longer than this.
    Whole(Duration),
}

/// How a watched child ended.
#[derive(Debug)]
pub(crate) struct Ended {
    /// Its exit status (after a hang: killed).
    pub status: ExitStatus,
    /// Why it did not finish: a signal or a hang. `None` when it exited by
    /// itself, whatever the code.
    pub fault: Option<Fault>,
    /// The steps it was running when it died; for a hang, the late one.
    pub open: Vec<Step>,
    /// The end of what it wrote to stderr.
    pub stderr: String,
}

/// Runs `command` (its stdin closed, its stdout as the caller set it)
/// under `deadline`, passing its stderr through when `echo`.
pub(crate) fn run(mut command: Command, deadline: Deadline, echo: bool) -> Result<Ended, Error> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let steps_path = std::env::temp_dir().join(format!(
        "bitbench-steps-{}-{}.jsonl",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let io = |what: &str, e: std::io::Error| Error::usage(format!("{what}: {e}"));
    let mut steps = std::fs::File::create(&steps_path)
        .and_then(|_| std::fs::File::open(&steps_path))
        .map_err(|e| io(&steps_path.display().to_string(), e))?;
    let mut child = command
        .env(beacon::ENV, &steps_path)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| io(&format!("cannot run {:?}", command.get_program()), e))?;
    let tail = Arc::new(Mutex::new(Vec::new()));
    let pump = {
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let tail = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                if echo {
                    let mut out = std::io::stderr().lock();
                    let _ = out.write_all(&buf[..n]).and_then(|()| out.flush());
                }
                let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
                tail.extend_from_slice(&buf[..n]);
                let excess = tail.len().saturating_sub(TAIL);
                tail.drain(..excess);
            }
        })
    };

    let started = Instant::now();
    let mut reader = Steps::default();
    let mut nap = Duration::from_millis(1);
    let (status, hung) = loop {
        reader.read(&mut steps);
        if let Some(status) = child.try_wait().map_err(|e| io("waiting for a child", e))? {
            reader.read(&mut steps);
            break (status, None);
        }
        let late = match deadline {
            Deadline::Whole(d) => (started.elapsed() > d).then_some((d, None)),
            Deadline::Steps(timeout) => reader.open.values().find_map(|(step, seen)| {
                let limit = timeout + Duration::from_millis(step.allowance_ms);
                (seen.elapsed() > limit).then(|| (limit, Some(step.clone())))
            }),
        };
        if let Some((after, step)) = late {
            let _ = child.kill();
            let status = child.wait().map_err(|e| io("waiting for a child", e))?;
            break (status, Some((after, step)));
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    };
    let _ = pump.join();
    let _ = std::fs::remove_file(&steps_path);
    let stderr =
        String::from_utf8_lossy(&tail.lock().unwrap_or_else(PoisonError::into_inner)).into_owned();
    let (fault, open) = match hung {
        Some((after, step)) => (Some(Fault::Hung { after }), step.into_iter().collect()),
        None => (
            signal(&status).map(|_| fault_of(&status, stderr.clone())),
            reader.open.into_values().map(|(step, _)| step).collect(),
        ),
    };
    Ok(Ended {
        status,
        fault,
        open,
        stderr,
    })
}

/// How a process that ended without finishing its work ended: by a
/// signal, or by exiting, with the end of its stderr.
pub(crate) fn fault_of(status: &ExitStatus, stderr: String) -> Fault {
    match signal(status) {
        Some(signal) => Fault::Signal { signal, stderr },
        None => Fault::Exited {
            code: status.code().unwrap_or(-1),
            stderr,
        },
    }
}

/// The signal that ended a process, if one did.
#[cfg(unix)]
fn signal(status: &ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(status)
}

#[cfg(not(unix))]
fn signal(_status: &ExitStatus) -> Option<i32> {
    None
}

/// The steps begun and not ended, as read so far, with when the parent
/// first saw each (its deadline counts from then).
#[derive(Default)]
struct Steps {
    open: BTreeMap<u64, (Step, Instant)>,
    partial: Vec<u8>,
}

impl Steps {
    fn read(&mut self, file: &mut std::fs::File) {
        let _ = file.read_to_end(&mut self.partial);
        let Some(end) = self.partial.iter().rposition(|&b| b == b'\n') else {
            return;
        };
        let complete: Vec<u8> = self.partial.drain(..=end).collect();
        for line in complete.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let Ok(event) = serde_json::from_slice::<Event>(line) else {
                continue;
            };
            match event.step {
                Some(step) => {
                    self.open.insert(event.id, (step, Instant::now()));
                }
                None => {
                    self.open.remove(&event.id);
                }
            }
        }
    }
}
