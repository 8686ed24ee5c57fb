//! The parent's side: running a child while watching its steps.
//!
//! The child's stderr is passed through as it comes (progress, notes) and
//! its end kept, since that is what tells a stack overflow from another
//! abort, and what a `panic = "abort"` build prints before it dies. The
//! steps it announces ([`super::beacon`]) arrive on the same pipe and are
//! taken out of it; a step still running past its deadline stops the
//! child, which is then reported as hung on that step.
//!
//! Nothing here runs on a timer. A thread reads the pipe and hands each
//! step to the waiting parent as it is written; the pipe closes when the
//! child exits, which is how the parent learns of the exit, at once; and
//! the parent sleeps until that or the next deadline, whichever comes
//! first. A short command costs what starting the child costs.

use super::beacon::{self, Demux, Event, Step};
use super::kind::Fault;
use crate::error::Error;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How much of the child's stderr is kept for the report.
const TAIL: usize = 16 * 1024;

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

/// What the thread reading the child's stderr hears.
enum Heard {
    Event(Event),
    /// The pipe closed: the child exited (or closed its stderr).
    Closed,
}

/// A deadline passed: after how long, and on which step (none: the whole).
type Late = (Duration, Option<Step>);

/// Runs `command` (its stdin closed, its stdout as the caller set it)
/// under `deadline`, passing its stderr through when `echo`.
pub(crate) fn run(mut command: Command, deadline: Deadline, echo: bool) -> Result<Ended, Error> {
    let io = |what: &str, e: std::io::Error| Error::usage(format!("{what}: {e}"));
    let mut child = command
        .env(beacon::ENV, beacon::STDERR)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| io(&format!("cannot run {:?}", command.get_program()), e))?;
    let started = Instant::now();
    let tail = Arc::new(Mutex::new(Vec::new()));
    let (heard, hear) = mpsc::channel();
    let pump = {
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let tail = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut demux = Demux::default();
            let mut text = |bytes: &[u8]| {
                if echo {
                    let mut out = std::io::stderr().lock();
                    let _ = out.write_all(bytes).and_then(|()| out.flush());
                }
                let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
                tail.extend_from_slice(bytes);
                let excess = tail.len().saturating_sub(TAIL);
                tail.drain(..excess);
            };
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                demux.feed(&buf[..n], &mut text, &mut |e| {
                    let _ = heard.send(Heard::Event(e));
                });
            }
            let _ = heard.send(Heard::Closed);
        })
    };

    let mut open: BTreeMap<u64, (Step, Instant)> = BTreeMap::new();
    let mut late = None;
    loop {
        let next = next_deadline(deadline, started, &open);
        let message = match next {
            Some((at, _)) => hear.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => hear.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match message {
            Ok(Heard::Event(event)) => match event.step {
                Some(step) => {
                    open.insert(event.id, (step, Instant::now()));
                }
                None => {
                    open.remove(&event.id);
                }
            },
            Ok(Heard::Closed) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                late = next.map(|(_, l)| l);
                break;
            }
        }
    }
    let status = match late {
        Some(_) => kill(&mut child),
        None => reap(&mut child, next_deadline(deadline, started, &open)).and_then(|r| {
            r.or_else(|l| {
                late = Some(l);
                kill(&mut child)
            })
        }),
    }
    .map_err(|e| io("waiting for a child", e))?;
    let _ = pump.join();
    let stderr =
        String::from_utf8_lossy(&tail.lock().unwrap_or_else(PoisonError::into_inner)).into_owned();
    let (fault, open) = match late {
        Some((after, step)) => (Some(Fault::Hung { after }), step.into_iter().collect()),
        None => (
            signal(&status).map(|_| fault_of(&status, stderr.clone())),
            open.into_values().map(|(step, _)| step).collect(),
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
