//! Serve mode: a build kept warm as a child of `ab`, answering requests.
//!
//! Paired A/B timing needs two builds alive side by side, each taking one
//! sample when asked, so that the host's drift hits both alike. Every
//! bitbench program therefore has a hidden `serve` subcommand: one JSON
//! request a line on stdin, one JSON response a line on stdout. Requests
//! carry input text, never typed values, so two revisions whose types
//! differ still speak the same protocol. This module holds the protocol
//! and the loaded batch; the loop answering stdin is `cmd::serve`.

use crate::disturb::{Observed, Watch};
use crate::engine::verify::{self, build_solver};
use crate::error::Error;
use crate::workload::Workload;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::ops::Range;
use std::time::Duration;

/// Bumped when a request or response changes meaning:
/// 1. the first;
/// 2. a sample may time a window of the batch, and reports the measuring
///    thread's CPU time and context switches, involuntary and voluntary
///    (see `crate::disturb`).
///    Both are optional fields, so either side still pairs with a build
///    of protocol 1, which times the whole batch and reports neither;
/// 3. a load says what one untimed pass over the batch allocated, where
///    the program's allocator counts, and the core's clock calibrated
///    after it (`Answers::allocations` and `Answers::ghz`, optional).
pub const PROTOCOL: u32 = 3;

/// One request line.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum Request {
    /// Who are you: [`Hello`].
    Hello,
    /// The inputs of a set as text lines: [`Lines`].
    Inputs {
        /// Workload name.
        workload: String,
        /// Input set.
        set: String,
        /// Generator seed.
        seed: u64,
    },
    /// Parse `inputs`, build `variant`, solve once: [`Loaded`]. The batch
    /// stays loaded for the samples that follow.
    Load {
        /// Workload name.
        workload: String,
        /// Variant name.
        variant: String,
        /// Inputs in the workload's text format.
        inputs: Vec<String>,
        /// Also count what one untimed pass allocates and calibrate the
        /// clock (protocol 3): asked when the answers are compared, not
        /// when a process is started again to load the same batch.
        #[serde(default)]
        measure: bool,
    },
    /// Run the loaded batch (or a window of it) `reps` times: [`Sample`].
    Sample {
        /// Repetitions in this one sample.
        reps: u64,
        /// Only these inputs of the batch (protocol 2); `None`: all.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<Window>,
    },
}

/// Consecutive inputs of a loaded batch: a sample shorter than the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// The first input's index.
    pub start: usize,
    /// How many inputs.
    pub len: usize,
}

/// The answer to [`Request::Hello`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Hello {
    /// [`PROTOCOL`] of the build.
    pub protocol: u32,
    /// The commit the build was made from, `unknown` when not told.
    pub commit: String,
    /// Whether the tree it was built from had uncommitted changes.
    pub dirty: Option<bool>,
    /// The build's workloads.
    pub workloads: Vec<HelloWorkload>,
    /// The environment its kernels run with (see
    /// [`crate::measuring_env`]); `None` from builds before it was sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<std::collections::BTreeMap<String, String>>,
}

/// One workload as [`Hello`] lists it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HelloWorkload {
    /// Registry name.
    pub name: String,
    /// Throughput unit, singular, as in `ns/board`.
    pub unit: String,
    /// Its plural, `boards` (protocol 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plural: Option<String>,
    /// The declared default variant.
    pub default_variant: String,
    /// Variants that run on this machine.
    pub variants: Vec<String>,
    /// The sets `bench --quick` measures, sweeps expanded.
    pub sets: Vec<String>,
}

impl HelloWorkload {
    /// How this build lists `w`, whose quick sets are `sets`.
    pub fn of<W: Workload + ?Sized>(w: &W, sets: Vec<String>) -> HelloWorkload {
        HelloWorkload {
            name: w.name().to_owned(),
            unit: w.unit_singular().to_owned(),
            plural: Some(w.unit().to_owned()),
            default_variant: w.default_variant().to_owned(),
            variants: w
                .variants()
                .into_iter()
                .filter(|v| v.unavailable.is_none())
                .map(|v| v.name.to_owned())
                .collect(),
            sets,
        }
    }
}

/// The answer to [`Request::Inputs`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Lines {
    /// One input a line, in the format `solve` reads.
    pub lines: Vec<String>,
}

/// The answer to [`Request::Load`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Answers {
    /// The canonical `format_output` text of each answer, in input order.
    pub outputs: Vec<String>,
    /// Throughput elements one run of the batch processes.
    pub elements: u64,
    /// What one untimed pass over the batch allocated, after the first
    /// (protocol 3); `None` where the allocator does not count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocations: Option<crate::allocations::Counted>,
    /// The core's clock in GHz, calibrated right after that pass
    /// ([`crate::cycles::calibrate`], protocol 3): what `ab` reads a time
    /// in cycles by. `None` where it was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ghz: Option<f64>,
}

/// The answer to [`Request::Sample`]. The optional fields come from
/// protocol 2; a build of protocol 1 sends `ns` alone.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Sample {
    /// Nanoseconds the `reps` runs took together.
    pub ns: u64,
    /// The measuring thread's CPU time over them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ns: Option<u64>,
    /// Its involuntary context switches over them (preemptions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preempted: Option<u64>,
    /// Its voluntary ones (waits of its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited: Option<u64>,
    /// Throughput elements one run of the window processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<u64>,
}

impl Sample {
    /// What the sample saw, for [`crate::disturb::Observed::disturbed`].
    pub fn observed(&self) -> Observed {
        Observed {
            wall: Duration::from_nanos(self.ns),
            cpu: self.cpu_ns.map(Duration::from_nanos),
            preempted: self.preempted,
            waited: self.waited,
        }
    }
}

/// A failed request: one line saying why.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Failure {
    /// The message.
    pub error: String,
}

/// A batch loaded for sampling, with its answers.
pub struct Loaded {
    /// See [`Answers`].
    pub answers: Answers,
    /// Each input's throughput elements, for a window's.
    elements: Vec<u64>,
    /// Runs the inputs in a range of the batch.
    run: Box<dyn FnMut(Range<usize>) + Send>,
}

/// Parses `lines`, builds `variant` (empty: the default), solves once and
/// keeps inputs, solver and outputs for [`Request::Sample`]; where
/// `measure`, also counts a pass's allocations and calibrates the clock.
/// A panic in the solver is a failed request, naming the workload and
/// variant.
pub fn load<W: Workload + ?Sized>(
    w: &W,
    variant: &str,
    lines: &[String],
    measure: bool,
) -> Result<Loaded, Error> {
    let variant = if variant.is_empty() {
        w.default_variant()
    } else {
        variant
    };
    let mut solver = build_solver(w, variant)?;
    let inputs = lines
        .iter()
        .map(|t| {
            w.parse_input(t)
                .map_err(|e| Error::usage(format!("input '{t}': {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let failed = |panic| Error::failed(format!("{}: {variant} {panic}", w.name()));
    let prepared = verify::prepare(&*solver, &inputs).map_err(failed)?;
    let mut out = verify::solve_prepared(&mut *solver, &inputs, &prepared).map_err(failed)?;
    let elements: Vec<u64> = inputs
        .iter()
        .zip(&out)
        .map(|(i, o)| w.elements(i, o))
        .collect();
    let outputs = out.iter().map(|o| w.format_output(o)).collect();
    // As `bench` counts it: the pass after the first, so what a variant
    // builds on first use does not count.
    let (allocations, ghz) = if measure {
        let counted =
            crate::engine::bench::allocated::counted(&mut *solver, (&inputs, &prepared), &mut out);
        (counted, crate::cycles::calibrate().ok())
    } else {
        (None, None)
    };
    let answers = Answers {
        outputs,
        elements: elements.iter().sum::<u64>().max(1),
        allocations,
        ghz,
    };
    // A variant without a form of its own runs exactly its plain batch:
    // preparation adds nothing to what `ab` times.
    let run: Box<dyn FnMut(Range<usize>) + Send> = if prepared.is_own() {
        Box::new(move |range| {
            let out = &mut out[range.clone()];
            solver.solve_prepared(black_box(&inputs), &prepared, range, black_box(&mut *out));
            black_box(out);
        })
    } else {
        Box::new(move |range| {
            let out = &mut out[range.clone()];
            solver.solve_batch(black_box(&inputs[range]), black_box(&mut *out));
            black_box(out);
        })
    };
    Ok(Loaded {
        answers,
        elements,
        run,
    })
}

impl Loaded {
    /// Runs the loaded batch, or `window` of it, `reps` times (at least
    /// once), timed and watched together.
    pub fn sample(&mut self, reps: u64, window: Option<Window>) -> Result<Sample, Error> {
        let n = self.elements.len();
        let range = match window {
            None => 0..n,
            Some(Window { start, len })
                if len > 0 && start.checked_add(len).is_some_and(|end| end <= n) =>
            {
                start..start + len
            }
            Some(w) => {
                return Err(Error::usage(format!(
                    "serve: window {}..{} is not within the {n} inputs loaded",
                    w.start,
                    w.start.saturating_add(w.len)
                )));
            }
        };
        let elements = self.elements[range.clone()].iter().sum::<u64>().max(1);
        let watch = Watch::start();
        for _ in 0..reps.max(1) {
            (self.run)(range.clone());
        }
        let seen = watch.stop();
        Ok(Sample {
            ns: seen.wall.as_nanos() as u64,
            cpu_ns: seen.cpu.map(|c| c.as_nanos() as u64),
            preempted: seen.preempted,
            waited: seen.waited,
            elements: Some(elements),
        })
    }
}
