//! One build running in serve mode as a child of the driver.
//!
//! The driver talks to it one request at a time and waits for the answer,
//! so the two children never run at once. Where `taskset` can, the child
//! is pinned to one core, the same for both builds, so neither gains from
//! the other's caches or a faster core.

use crate::error::Error;
use crate::serve::{Failure, Request};
use serde::de::DeserializeOwned;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

/// A running `serve` child.
pub struct Child {
    name: String,
    process: std::process::Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

/// The core both children run on: the last one this process may use, when
/// `taskset` is there to pin them (checked once by pinning `true`).
pub fn core() -> Option<usize> {
    let last = std::thread::available_parallelism().ok()?.get() - 1;
    let ok = Command::new("taskset")
        .args(["-c", &last.to_string(), "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(last)
}

impl Child {
    /// Starts `exe serve`, pinned to `core` when given; `name` labels its
    /// errors (`A (abc1234)`).
    pub fn spawn(exe: &Path, name: &str, core: Option<usize>) -> Result<Child, Error> {
        let mut command = match core {
            Some(core) => {
                let mut c = Command::new("taskset");
                c.args(["-c", &core.to_string()]).arg(exe);
                c
            }
            None => Command::new(exe),
        };
        let mut process = command
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Error::usage(format!("ab: cannot run {}: {e}", exe.display())))?;
        let stdin = process.stdin.take();
        let stdout = BufReader::new(process.stdout.take().expect("stdout is piped"));
        Ok(Child {
            name: name.to_owned(),
            process,
            stdin,
            stdout,
        })
    }

    /// Sends `request` and reads the answer. A failed request is
    /// `Err(Error::Failed)` with the child's message; a child that is gone
    /// or speaks no protocol is `Err(Error::Usage)`.
    pub fn request<T: DeserializeOwned>(&mut self, request: &Request) -> Result<T, Error> {
        let gone = |why: String| Error::usage(format!("ab: {}: {why}", self.name));
        let mut text = serde_json::to_string(request).expect("requests serialise");
        text.push('\n');
        let stdin = self.stdin.as_mut().expect("stdin is open until drop");
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| gone(format!("serve mode stopped ({e})")))?;
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => return Err(gone("serve mode stopped without an answer".to_owned())),
            Err(e) => return Err(gone(format!("reading its answer: {e}"))),
            Ok(_) => {}
        }
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
