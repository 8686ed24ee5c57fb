//! One prepared (variant, input set) batch, for measuring tools other than
//! `bench`'s own loop.
//!
//! criterion (wall clock) and gungraun (instruction counts) each want a
//! closure that runs one batch and nothing else: inputs generated, solver
//! built, inputs prepared in the variant's own form and outputs allocated
//! beforehand, so set-up is never measured.
//! [`prepare`] builds that closure for any [`Workload`], verifying the
//! variant against the reference first when asked, as `bench` does
//! (one implementation of verification serves both).

use crate::engine::checked::checked;
use crate::engine::verify::{self, build_solver};
use crate::error::Error;
use crate::fault::beacon::Batch;
use crate::repro::Generated;
use crate::sets;
use crate::workload::Workload;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Which batch to prepare.
#[derive(Clone, Debug)]
pub struct BatchRequest<'a> {
    /// Variant name.
    pub variant: &'a str,
    /// One input set (already expanded, e.g. `density:0.5`).
    pub set: &'a str,
    /// Generator seed.
    pub seed: u64,
    /// Use the quick batch size.
    pub quick: bool,
    /// Solve once and compare with the reference before handing the batch
    /// out; also counts the batch's throughput elements.
    pub verify: bool,
}

/// Why a batch was not prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// Not run for the stated reason (unavailable here, cost model).
    Skipped(String),
    /// The variant disagreed with the reference; never measured.
    Wrong(String),
    /// Unknown variant or input set.
    Invalid(Error),
}

/// A batch ready to run: [`PreparedBatch::run`] solves every input once.
pub struct PreparedBatch {
    run: Box<dyn FnMut() + Send>,
    /// Throughput elements one run processes (known when verified).
    pub elements: Option<u64>,
    /// Inputs in the batch.
    pub inputs: usize,
    /// How long building the solver took (its part of a cold start).
    pub solver_built: Duration,
}

impl PreparedBatch {
    /// Solves the whole batch once; inputs and outputs pass through
    /// `black_box` so the work cannot be optimised away.
    pub fn run(&mut self) {
        (self.run)();
    }
}

/// Generates the inputs, builds the solver and allocates the outputs for
/// one (variant, set) of `w`.
pub fn prepare<W: Workload + ?Sized>(
    w: &W,
    request: &BatchRequest<'_>,
) -> Result<PreparedBatch, BatchError> {
    let variants = w.variants();
    let Some(info) = variants.iter().find(|v| v.name == request.variant) else {
        return Err(BatchError::Invalid(
            build_solver(w, request.variant)
                .err()
                .unwrap_or_else(|| Error::usage(format!("unknown variant '{}'", request.variant))),
        ));
    };
    if let Some(reason) = &info.unavailable {
        return Err(BatchError::Skipped(reason.clone()));
    }
    let set = request.set;
    let member = sets::parse(&w.input_sets(), set)
        .map_err(|e| BatchError::Invalid(Error::usage(format!("{}: {e}", w.name()))))?;
    let inputs = w
        .generate(&member, request.seed, w.bench_batch(request.quick))
        .map_err(|e| {
            BatchError::Invalid(Error::usage(format!(
                "{}: input set '{set}': {e}",
                w.name()
            )))
        })?;
    if inputs.is_empty() {
        return Err(BatchError::Invalid(Error::usage(format!(
            "{}: input set '{set}' is empty",
            w.name()
        ))));
    }
    if let Some(reason) = inputs.iter().find_map(|i| w.skip(request.variant, i)) {
        return Err(BatchError::Skipped(reason));
    }
    let started = Instant::now();
    let mut solver = build_solver(w, request.variant).map_err(BatchError::Invalid)?;
    let solver_built = started.elapsed();
    let prepared = verify::prepare(&*solver, &inputs)
        .map_err(|panic| BatchError::Wrong(format!("{} {panic}", request.variant)))?;
    let mut elements = None;
    let mut out = if request.verify {
        // Announced steps, for a watched child (see `crate::fault`).
        let batch = || Batch::Set {
            set: set.to_owned(),
        };
        let expected = verify::expected(w, &inputs, &batch).map_err(BatchError::Invalid)?;
        let source = Generated {
            set,
            seed: request.seed,
            count: w.bench_batch(request.quick),
        };
        let out = checked(
            w,
            request.variant,
            &mut *solver,
            &inputs,
            &source,
            &prepared,
            expected.as_ref(),
        )
        .map_err(BatchError::Wrong)?;
        elements = Some(
            inputs
                .iter()
                .zip(&out)
                .map(|(i, o)| w.elements(i, o))
                .sum::<u64>()
                .max(1),
        );
        out
    } else {
        vec![W::Output::default(); inputs.len()]
    };
    let count = inputs.len();
    // A variant without a form of its own runs exactly its plain batch:
    // preparation adds nothing to what is timed or counted.
    let run: Box<dyn FnMut() + Send> = if prepared.is_own() {
        Box::new(move || {
            let all = 0..inputs.len();
            solver.solve_prepared(black_box(&inputs), &prepared, all, black_box(&mut out));
            black_box(&out);
        })
    } else {
        Box::new(move || {
            solver.solve_batch(black_box(&inputs), black_box(&mut out));
            black_box(&out);
        })
    };
    Ok(PreparedBatch {
        run,
        elements,
        inputs: count,
        solver_built,
    })
}
