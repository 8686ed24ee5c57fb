//! A variant's preparation: its own form of a set's inputs
//! ([`crate::prepared`]), made before verification and timing, and timed
//! on its own.
//!
//! The timed loop then reads the forms made here, so preparation is never
//! inside a sample; and its cost is a record of its own (metric
//! `prepare`, in the same unit as time), so a variant that moves its work
//! into preparation hides nothing. Variants without a form of their own
//! get no record.

use crate::engine::verify;
use crate::workload::{Prepared, Solve};
use std::time::{Duration, Instant};

/// Preparations timed at least, each one a sample.
const MIN_SAMPLES: usize = 3;
/// Preparations timed at most.
const MAX_SAMPLES: usize = 11;
/// More preparations are timed while all of them took less than this.
const BUDGET: Duration = Duration::from_millis(50);

/// A batch's forms, and how long making them took.
pub struct Preparation {
    /// The forms the verification and the timed runs read.
    pub prepared: Prepared,
    /// Each timed preparation of the whole batch, when the variant made a
    /// form of its own; empty when it did not.
    pub took: Vec<Duration>,
}

/// Prepares `inputs` for `solver`, timing it a few times over when it
/// makes a form of its own (the first, cold, counts among them); a panic
/// becomes its message.
pub fn prepare<I, O>(solver: &dyn Solve<I, O>, inputs: &[I]) -> Result<Preparation, String> {
    let started = Instant::now();
    let prepared = verify::prepare(solver, inputs)?;
    let mut took = vec![started.elapsed()];
    if !prepared.is_own() {
        return Ok(Preparation {
            prepared,
            took: Vec::new(),
        });
    }
    while took.len() < MIN_SAMPLES
        || (took.len() < MAX_SAMPLES && took.iter().sum::<Duration>() < BUDGET)
    {
        let started = Instant::now();
        let again = std::hint::black_box(verify::prepare(solver, inputs)?);
        took.push(started.elapsed());
        drop(again);
    }
    Ok(Preparation { prepared, took })
}
