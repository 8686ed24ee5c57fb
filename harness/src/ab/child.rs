//! One build running in serve mode as a child of the driver.
//!
//! The driver talks to it one request at a time and waits for the answer,
//! so the two children never run at once. Both are pinned to one core,
//! the same for both builds (see [`crate::cores`]), so neither gains from
//! the other's caches or a faster core.
//!
//! A build may crash or hang on a batch (the worst regression a change can
//! bring): every answer is awaited under a deadline, and a child that dies
//! or misses it leaves its [`Fault`] (the signal and the end of its
//! stderr, or the hang) for `ab` to investigate.

use crate::engine::serve::{Failure, Request};
use crate::error::Error;
use crate::fault::Fault;
use serde::de::DeserializeOwned;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// A running `serve` child.
pub struct Child {
    name: String,
    process: std::process::Child,
    stdin: Option<ChildStdin>,
    /// Its stdout, a line at a time, read by a thread of its own so that
    /// an answer can be awaited under a deadline.
    lines: Receiver<String>,
    /// The end of its stderr.
    stderr: Arc<Mutex<Vec<u8>>>,
    /// How long an answer may take (`--timeout`).
    deadline: Duration,
    /// Why it stopped answering, once it has.
    fault: Option<Fault>,
}

impl Child {
    /// Starts `exe serve`; `name` labels its errors (`A (abc1234)`); an
    /// answer taking longer than `deadline` stops it as hung.
    pub fn spawn(exe: &Path, name: &str, deadline: Duration) -> Result<Child, Error> {
        // Through the runner, if any, as the kernels' children of this
        // program run (see `crate::fault::child_command`).
        let mut command = crate::fault::child_command(exe);
        let mut process = command
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::usage(format!("ab: cannot run {}: {e}", exe.display())))?;
        let stdin = process.stdin.take();
        let stdout = BufReader::new(process.stdout.take().expect("stdout is piped"));
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = process.stderr.take().expect("stderr is piped");
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = pipe.read(&mut buf) {
                let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
                tail.extend_from_slice(&buf[..n]);
                let excess = tail.len().saturating_sub(16 * 1024);
                tail.drain(..excess);
            }
        });
        Ok(Child {
            name: name.to_owned(),
            process,
            stdin,
            lines,
            stderr,
            deadline,
            fault: None,
        })
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Pins its serving thread to `core`; false where that cannot be done.
    pub fn pin(&self, core: usize) -> bool {
        crate::cores::pin(self.pid(), &[core])
    }

    /// Why the child stopped answering: a signal, a hang, an exit.
    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_ref()
    }

    /// Waits for the child to end (it has closed its stdout or is killed)
    /// and keeps why, with the end of its stderr.
    fn ended(&mut self, hung: Option<Duration>) {
        if hung.is_some() {
            let _ = self.process.kill();
        }
        let status = self.process.wait().ok();
        // The stderr thread finishes once the pipe closes with the process.
        std::thread::sleep(Duration::from_millis(20));
        let stderr =
            String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(PoisonError::into_inner))
                .into_owned();
        self.fault = Some(match (hung, status) {
            (Some(after), _) => Fault::Hung { after },
            (None, Some(status)) => crate::fault::watch::fault_of(&status, stderr),
            (None, None) => Fault::Exited { code: -1, stderr },
        });
    }

    /// Sends `request` and reads the answer. A failed request is
    /// `Err(Error::Failed)` with the child's message; a child that is gone
    /// or speaks no protocol is `Err(Error::Usage)`.
    pub fn request<T: DeserializeOwned>(&mut self, request: &Request) -> Result<T, Error> {
        let gone = |why: String| Error::usage(format!("ab: {}: {why}", self.name));
        let mut text = serde_json::to_string(request).expect("requests serialise");
        text.push('\n');
        if let Some(fault) = &self.fault {
            return Err(gone(format!("serve mode stopped: {}", fault.describe())));
        }
        let stdin = self.stdin.as_mut().expect("stdin is open until drop");
        let sent = stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush());
        let answer = match sent {
            Ok(()) => self.lines.recv_timeout(self.deadline),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        };
        let line = match answer {
            Ok(line) => line,
            Err(e) => {
                let hung = (e == RecvTimeoutError::Timeout).then_some(self.deadline);
                self.ended(hung);
                let fault = self.fault.as_ref().expect("just set");
                return Err(Error::failed(format!(
                    "{}: {}",
                    self.name,
                    fault.describe()
                )));
            }
        };
        if let Ok(failure) = serde_json::from_str::<Failure>(&line) {
            return Err(Error::failed(failure.error));
        }
        serde_json::from_str(&line).map_err(|e| gone(format!("unexpected answer ({e})")))
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // Closing stdin ends the serve loop; waiting reaps the process.
        drop(self.stdin.take());
        if !matches!(self.process.try_wait(), Ok(Some(_))) {
            let _ = self.process.kill();
        }
        let _ = self.process.wait();
    }
}
