//! Paired sampling: single samples of A and B, alternately, A B B A ...
//!
//! Both builds hold the same inputs loaded (serve mode) and each sample is
//! timed inside its child, so the request round trip is not measured. The
//! batch is repeated to make one sample about [`TARGET_SAMPLE`] long:
//! long enough for the clock, short enough that drift within a pair is
//! small. The number of pairs is fixed after calibration, before the first
//! pair is judged (see [`stats::planned_pairs`]).

use super::child::Child;
use super::stats;
use crate::error::Error;
use crate::serve::{Request, Sample};
use std::time::{Duration, Instant};

/// How long one sample should take.
pub const TARGET_SAMPLE: Duration = Duration::from_millis(2);

/// Samples per element of each pair `(a, b)`, in nanoseconds, taking about
/// `budget` in all. Both children must have the record's batch loaded;
/// `elements` is what one run of it processes.
pub fn measure(
    a: &mut Child,
    b: &mut Child,
    elements: u64,
    budget: Duration,
) -> Result<Vec<(f64, f64)>, Error> {
    let start = Instant::now();
    let sample = |c: &mut Child, reps: u64| -> Result<f64, Error> {
        Ok(c.request::<Sample>(&Request::Sample { reps })?.ns as f64)
    };
    // The slower build's best single run sets the repetitions, so neither
    // side's sample falls short of the target.
    let mut one: f64 = 1.0;
    for child in [&mut *a, &mut *b] {
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            best = best.min(sample(child, 1)?);
        }
        one = one.max(best);
    }
    let reps = (TARGET_SAMPLE.as_nanos() as f64 / one).ceil().max(1.0) as u64;
    let warm = Instant::now();
    for _ in 0..2 {
        sample(a, reps)?;
        sample(b, reps)?;
    }
    let pair = warm.elapsed() / 2;
    let n = stats::planned_pairs(budget.saturating_sub(start.elapsed()), pair);
    let per = (reps * elements.max(1)) as f64;
    let mut pairs = Vec::with_capacity(n);
    for i in 0..n {
        // Alternating which goes first cancels any advantage of position.
        let (x, y) = if i % 2 == 0 {
            let x = sample(a, reps)?;
            (x, sample(b, reps)?)
        } else {
            let y = sample(b, reps)?;
            (sample(a, reps)?, y)
        };
        pairs.push((x / per, y / per));
    }
    Ok(pairs)
}
