//! The parent's side: running a child while watching its steps.
//!
//! The child's stderr is passed through as it comes (progress, notes) and
//! its end kept, since that is what tells a stack overflow from another
//! abort, and what a `panic = "abort"` build prints before it dies. The
//! step file ([`super::beacon`]) is read as the parent waits; a step
//! still running past its deadline stops the child, which is then
//! reported as hung on that step.
//!
//! The exit is not waited for on a timer. A thread reads the stderr pipe,
//! which closes when the child exits: that is how the parent learns of
//! the exit, at once, and a short command costs what starting the child
//! costs. Between, the parent wakes only to read the steps against their
//! deadlines, every [`STEP_READS`] while a deadline is set, not at all
//! when none is (`solve` without `--timeout`).

use super::beacon::{self, Event, Step};
use super::kind::Fault;
use crate::error::Error;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How much of the child's stderr is kept for the report.
const TAIL: usize = 16 * 1024;

/// How often the step file is read while a deadline is set: far below
/// any deadline (a hang's candidate gets a quarter of a second).
const STEP_READS: Duration = Duration::from_millis(10);

/// When a child counts as hung; both unset, it runs as long as it takes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Deadline {
    /// A step running longer than this plus its allowance.
    pub step: Option<Duration>,
    /// The whole process running longer than this.
    pub whole: Option<Duration>,
}

impl Deadline {
    /// Each step may take `timeout` beyond its allowance.
    pub(crate) fn steps(timeout: Duration) -> Deadline {
        Deadline {
            step: Some(timeout),
            whole: None,
        }
    }
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

/// A deadline passed: after how long, and on which step (none: the whole).
type Late = (Duration, Option<Step>);

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
    let started = Instant::now();
    let tail = Arc::new(Mutex::new(Vec::new()));
    let (closed, hear_closed) = mpsc::channel::<()>();
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
            drop(closed);
        })
    };

    let mut reader = Steps::default();
    let mut late = None;
    let timed = deadline.step.is_some() || deadline.whole.is_some();
    loop {
        let heard = if timed {
            hear_closed.recv_timeout(STEP_READS)
        } else {
            hear_closed
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected)
        };
        reader.read(&mut steps);
        if heard != Err(RecvTimeoutError::Timeout) {
            break;
        }
        if let Some((at, l)) = next_deadline(deadline, started, &reader.open)
            && at <= Instant::now()
        {
            late = Some(l);
            break;
        }
    }
    let status = match late {
        Some(_) => kill(&mut child),
        None => reap(&mut child, next_deadline(deadline, started, &reader.open)).and_then(|r| {
            r.or_else(|l| {
                late = Some(l);
                kill(&mut child)
            })
        }),
    }
    .map_err(|e| io("waiting for a child", e))?;
    let _ = pump.join();
    reader.read(&mut steps);
    let _ = std::fs::remove_file(&steps_path);
    let stderr =
        String::from_utf8_lossy(&tail.lock().unwrap_or_else(PoisonError::into_inner)).into_owned();
    let (fault, open) = match late {
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

/// The first deadline still to come: when, and what passing it means.
fn next_deadline(
    deadline: Deadline,
    started: Instant,
    open: &BTreeMap<u64, (Step, Instant)>,
) -> Option<(Instant, Late)> {
    let whole = deadline.whole.map(|d| (started + d, (d, None)));
    let steps = deadline.step.into_iter().flat_map(|timeout| {
        open.values().map(move |(step, seen)| {
            let limit = timeout + step.allowance();
            (*seen + limit, (limit, Some(step.clone())))
        })
    });
    whole.into_iter().chain(steps).min_by_key(|(at, _)| *at)
}

/// Waits for a child whose stderr has closed. It is exiting, so this
/// returns at once, unless it closed its stderr and goes on: then it is
/// asked after now and then, up to the next deadline (`Err` when that
/// passes first).
fn reap(
    child: &mut Child,
    next: Option<(Instant, Late)>,
) -> std::io::Result<Result<ExitStatus, Late>> {
    let Some((at, late)) = next else {
        return child.wait().map(Ok);
    };
    let mut nap = Duration::from_micros(50);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Ok(status));
        }
        if Instant::now() >= at {
            return Ok(Err(late));
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    }
}

/// Stops a late child and waits for it.
fn kill(child: &mut Child) -> std::io::Result<ExitStatus> {
    let _ = child.kill();
    child.wait()
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
