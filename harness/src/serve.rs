//! Serve mode: a build kept warm as a child of `ab`, answering requests.
//!
//! Paired A/B timing needs two builds alive side by side, each taking one
//! sample when asked, so that the host's drift hits both alike. Every
//! bitbench program therefore has a hidden `serve` subcommand: one JSON
//! request a line on stdin, one JSON response a line on stdout. Requests
//! carry input text, never typed values, so two revisions whose types
//! differ still speak the same protocol. This module holds the protocol
//! and the loaded batch; the loop answering stdin is `cmd::serve`.

use crate::error::Error;
use crate::verify::{self, build_solver};
use crate::workload::Workload;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::time::Instant;

/// Bumped when a request or response changes meaning.
pub const PROTOCOL: u32 = 1;

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
    },
    /// Run the loaded batch `reps` times: [`Sample`].
    Sample {
        /// Repetitions in this one sample.
        reps: u64,
    },
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
}

/// One workload as [`Hello`] lists it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HelloWorkload {
    /// Registry name.
    pub name: String,
    /// Throughput unit, singular, as in `ns/board`.
    pub unit: String,
    /// The declared default variant.
    pub default_variant: String,
    /// Variants that run on this machine.
    pub variants: Vec<String>,
    /// The sets `bench --quick` measures, sweeps expanded.
    pub sets: Vec<String>,
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
}

/// The answer to [`Request::Sample`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sample {
    /// Nanoseconds the `reps` runs took together.
    pub ns: u64,
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
    run: Box<dyn FnMut() + Send>,
}

/// Parses `lines`, builds `variant` (empty: the default), solves once and
/// keeps inputs, solver and outputs for [`Request::Sample`]. A panic in
/// the solver is a failed request, naming the workload and variant.
pub fn load<W: Workload + ?Sized>(w: &W, variant: &str, lines: &[String]) -> Result<Loaded, Error> {
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
    let mut out = verify::solve(&mut *solver, &inputs)
        .map_err(|panic| Error::failed(format!("{}: {variant} {panic}", w.name())))?;
    let answers = Answers {
        outputs: out.iter().map(|o| w.format_output(o)).collect(),
        elements: inputs
            .iter()
            .zip(&out)
            .map(|(i, o)| w.elements(i, o))
            .sum::<u64>()
            .max(1),
    };
    Ok(Loaded {
        answers,
        run: Box::new(move || {
            solver.solve_batch(black_box(&inputs), black_box(&mut out));
            black_box(&out);
        }),
    })
}

impl Loaded {
    /// Runs the loaded batch `reps` times (at least once), timed together.
    pub fn sample(&mut self, reps: u64) -> Sample {
        let start = Instant::now();
        for _ in 0..reps.max(1) {
            (self.run)();
        }
        Sample {
            ns: start.elapsed().as_nanos() as u64,
        }
    }
}
