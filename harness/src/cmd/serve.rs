//! `bitbench serve`, hidden: the loop a build kept warm by `ab` runs,
//! one JSON request a line on stdin, one JSON response a line on stdout.
//! The protocol and the loaded batch are in `crate::engine::serve`; this is the
//! command-level part that looks workloads up in the suite.

use crate::engine::serve::{Failure, Hello, Lines, Loaded, PROTOCOL, Request};
use crate::entry::Suite;
use crate::error::Error;
use serde::Serialize;
use std::io::{BufRead, Write};

/// What this build is: its protocol, the commit it was built from and its
/// workloads.
fn hello(suite: &Suite) -> Hello {
    let (commit, dirty) = crate::machine::build_commit();
    Hello {
        protocol: PROTOCOL,
        commit,
        dirty,
        workloads: suite.workloads().iter().map(|w| w.hello()).collect(),
        environment: Some(crate::measuring_env::own()),
    }
}

/// Answers requests from stdin until it closes.
pub fn run(suite: &Suite) -> Result<(), Error> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut loaded: Option<Loaded> = None;
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| Error::usage(format!("serve: reading stdin: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Request>(&line) {
            Err(e) => Err(Error::usage(format!("serve: bad request '{line}': {e}"))),
            Ok(request) => answer(suite, request, &mut loaded),
        };
        let text = match reply {
            Ok(text) => text,
            Err(e) => json(&Failure {
                error: e.to_string(),
            }),
        };
        writeln!(stdout, "{text}")
            .and_then(|()| stdout.flush())
            .map_err(|e| Error::usage(format!("serve: writing stdout: {e}")))?;
    }
    Ok(())
}

fn answer(suite: &Suite, request: Request, loaded: &mut Option<Loaded>) -> Result<String, Error> {
    Ok(match request {
        Request::Hello => json(&hello(suite)),
        Request::Inputs {
            workload,
            set,
            seed,
        } => json(&Lines {
            lines: suite.find(&workload)?.input_lines(&set, seed, None)?,
        }),
        Request::Load {
            workload,
            variant,
            inputs,
            measure,
        } => {
            *loaded = None;
            let batch = suite
                .find(&workload)?
                .load_text(&variant, &inputs, measure)?;
            let text = json(&batch.answers);
            *loaded = Some(batch);
            text
        }
        Request::Sample { reps, window } => {
            let batch = loaded
                .as_mut()
                .ok_or_else(|| Error::usage("serve: sample before load"))?;
            json(&batch.sample(reps, window)?)
        }
    })
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("protocol messages serialise")
}
