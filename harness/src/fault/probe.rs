//! Fresh processes for one batch: does it fault, on which input, and what
//! is the smallest input that still does.
//!
//! A probe runs `PROGRAM solve WORKLOAD --variant V --force INPUT...` with
//! isolation off, so the kernel runs in the probe itself, under a
//! deadline: the same command a user pastes to reproduce the finding, and
//! one every bitbench build understands (`ab` probes the other build with
//! it). A batch is halved while one half alone still faults the same way;
//! the single input left is shrunk as `check` shrinks a wrong answer, each
//! candidate in its own process, within a time budget.
//!
//! A candidate that hangs costs its whole deadline, so a hang's candidates
//! do not get the batch's: each input of a candidate may take what the
//! reference took on the whole faulting batch, ten times over, plus
//! [`HANG_GRACE`], counted from when the input starts (not from the
//! process's start). A single input whose reference answer takes
//! microseconds is given a quarter of a second, not `--timeout`. The input
//! found is then run once more under the full deadline, which is what the
//! finding reports; should it finish there, the short deadlines misled
//! the search, and it is done again with the full one.

use super::kind::Fault;
use super::watch::{self, Deadline};
use crate::error::Error;
use crate::shrink::{self, Budget};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// How long shrinking may go on, in deadlines: bounded whether candidates
/// crash at once or each hangs to its end.
const SHRINK_DEADLINES: u32 = 12;

/// At least this long for shrinking, however short the deadline.
const SHRINK_FLOOR: Duration = Duration::from_secs(2);

/// Steps of shrinking before settling for the input reached so far.
const SHRINK_STEPS: usize = 1000;

/// What an input of a hang's candidate may take beyond the reference's
/// allowance: far above what one input of a sound variant takes, far
/// below a deadline.
const HANG_GRACE: Duration = Duration::from_millis(250);

/// One variant of one workload in a given program, probed in fresh
/// processes.
pub(crate) struct Prober<'a> {
    /// The program: this one, or a build `ab` compares.
    pub exe: PathBuf,
    /// Workload name.
    pub workload: &'a str,
    /// Variant name.
    pub variant: &'a str,
    /// How long one probe may run.
    pub deadline: Duration,
    /// What the faulting batch's reference took, ten times over (its
    /// step's allowance), when known: a hang's candidates are held to it.
    pub expected: Option<Duration>,
}

/// What a finished search found.
pub(crate) struct Found {
    /// The smallest batch found to fault: one input unless the fault
    /// needs several together; empty when the batch did not fault again.
    pub inputs: Vec<String>,
    /// The fault the probes saw (the original one when none did).
    pub fault: Fault,
    /// The single input found before shrinking, as the batch held it.
    pub drawn: Option<String>,
    /// Whether shrinking got the input smaller.
    pub shrunk: bool,
    /// Whether shrinking stopped at its budget (of time or steps).
    pub out_of_time: bool,
}

impl Prober<'_> {
    /// This program, probing `workload`'s `variant`.
    pub(crate) fn this<'a>(workload: &'a str, variant: &'a str, deadline: Duration) -> Prober<'a> {
        Prober {
            exe: super::this_program(),
            workload,
            variant,
            deadline,
            expected: None,
        }
    }

    /// Runs `inputs` in a fresh process: its fault, if it has one. A probe
    /// that cannot run at all (the program refuses the inputs) is an error.
    pub(crate) fn probe(&self, inputs: &[String]) -> Result<Option<Fault>, Error> {
        self.probe_within(inputs, None)
    }

    /// [`Self::probe`], each input held to `per_input` when given (the
    /// whole probe always to the deadline).
    fn probe_within(
        &self,
        inputs: &[String],
        per_input: Option<Duration>,
    ) -> Result<Option<Fault>, Error> {
        let mut command = solve_command(&self.exe, self.workload, self.variant, inputs);
        command.stdout(Stdio::null());
        let deadline = Deadline {
            step: per_input,
            whole: Some(self.deadline),
        };
        let ended = watch::run(command, deadline, false)?;
        match (ended.fault, ended.status.code()) {
            (Some(fault), _) => Ok(Some(fault)),
            (None, Some(0 | 1)) => Ok(None),
            (None, code) => Err(Error::usage(format!(
                "probing {} {}: {} exited with {code:?}: {}",
                self.workload,
                self.variant,
                self.exe.display(),
                ended.stderr.lines().last().unwrap_or("no message")
            ))),
        }
    }

    /// Finds the smallest part of `batch` that faults like `fault`, then
    /// shrinks a single input with `shrink` (candidates one step simpler).
    pub(crate) fn search(
        &self,
        batch: Vec<String>,
        fault: &Fault,
        shrink: &dyn Fn(&str) -> Vec<String>,
    ) -> Result<Found, Error> {
        let short = self
            .expected
            .filter(|_| !fault.crashed())
            .map(|expected| expected + HANG_GRACE)
            .filter(|short| *short < self.deadline);
        if let Some(short) = short {
            let found = self.search_within(batch.clone(), fault, shrink, Some(short))?;
            if found.inputs.is_empty() {
                return Ok(found);
            }
            if let Some(confirmed) = self.probe(&found.inputs)?.filter(|f| f.same_kind(fault)) {
                return Ok(Found {
                    fault: confirmed,
                    ..found
                });
            }
            eprintln!(
                "{} {}: the input found at {} per input finishes within {}; \
                 searching again with the full deadline",
                self.workload,
                self.variant,
                super::kind::seconds(short),
                super::kind::seconds(self.deadline)
            );
        }
        self.search_within(batch, fault, shrink, None)
    }

    /// [`Self::search`], each input of a candidate held to `per_input`
    /// when given.
    fn search_within(
        &self,
        batch: Vec<String>,
        fault: &Fault,
        shrink: &dyn Fn(&str) -> Vec<String>,
        per_input: Option<Duration>,
    ) -> Result<Found, Error> {
        let mut found = Found {
            inputs: batch,
            fault: fault.clone(),
            drawn: None,
            shrunk: false,
            out_of_time: false,
        };
        let same = |inputs: &[String]| -> Result<Option<Fault>, Error> {
            Ok(self
                .probe_within(inputs, per_input)?
                .filter(|f| f.same_kind(fault)))
        };
        let mut narrowed = false;
        while found.inputs.len() > 1 {
            let half = found.inputs.len() / 2;
            let (low, high) = found.inputs.split_at(half);
            let next = match same(low)? {
                Some(f) => Some((low.to_vec(), f)),
                None => same(high)?.map(|f| (high.to_vec(), f)),
            };
            let Some((part, f)) = next else { break };
            (found.inputs, found.fault, narrowed) = (part, f, true);
        }
        if !narrowed {
            match same(&found.inputs)? {
                Some(f) => found.fault = f,
                None => {
                    found.inputs.clear();
                    return Ok(found);
                }
            }
        }
        if let [input] = found.inputs.as_slice() {
            found.drawn = Some(input.clone());
            let budget = Budget {
                steps: SHRINK_STEPS,
                time: (self.deadline * SHRINK_DEADLINES).max(SHRINK_FLOOR),
            };
            // The fault of the last candidate that had one: the one kept.
            let mut last = None;
            let small = shrink::minimise(
                input.clone(),
                budget,
                |i| shrink(i),
                |candidate| {
                    let f = same(std::slice::from_ref(candidate))?;
                    let faulted = f.is_some();
                    last = f.or(last.take());
                    Ok::<_, Error>(faulted)
                },
            )?;
            if let Some(f) = last {
                found.fault = f;
            }
            found.shrunk = small.steps > 0;
            found.out_of_time = small.out_of_budget;
            found.inputs = vec![small.value];
        }
        Ok(found)
    }
}

/// `exe solve WORKLOAD --variant V --force -- INPUT...` with isolation off.
pub(crate) fn solve_command(
    exe: &Path,
    workload: &str,
    variant: &str,
    inputs: &[String],
) -> Command {
    let mut command = super::child_command(exe);
    command
        .args(["solve", workload, "--variant", variant, "--force", "--"])
        .args(inputs)
        .env(super::ISOLATE_ENV, "0")
        .env(super::PROBE_ENV, "1")
        .env("CI", "1");
    command
}
