//! How cost grows with a size: each one-parameter sweep over a size-like
//! parameter (bytes, a count, a depth: what [`Meaning`] says; a fraction
//! is not a size) fitted to a law `t = a + b·g(n)`, with its intercept, for
//! g in 1, log n, √n, n, n log n, n², n³, and `cⁿ` for depths.
//!
//! What is fitted is the time per *input*, the median per element times
//! the elements an input holds (popcount's unit is a byte, and a per-byte
//! median would read a linear kernel as constant). Fits are computed from
//! recorded medians, so they are deterministic and tested on planted laws.
//!
//! - `class.rs`: the classes and their shapes;
//! - `fit.rs`: weighted least squares, the exponent's profile;
//! - `law.rs`: the choice among classes and how far to trust it.

mod class;
mod fit;
mod law;

pub use class::Class;
pub use fit::{Fitted, Point};
pub use law::{CLEAR, Law, MIN_POINTS, law};

use crate::interval::{median_replicates, seed_of};
use crate::meaning::Meaning;
use crate::numbers::is_bytes;
use crate::results::{Metric, Record, Status};

/// The smallest relative standard error a point is given, so that a point
/// measured to a thousandth does not pin the fit against every other.
const MIN_RELATIVE_ERROR: f64 = 0.005;

/// Whether a parameter of this meaning is a size a law is fitted over.
pub fn is_size(meaning: Option<Meaning>) -> bool {
    matches!(
        meaning,
        Some(Meaning::Bytes | Meaning::Count | Meaning::Depth)
    )
}

/// A sweep's law and how its time per input reads per element.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepLaw {
    /// The law of the time per input, in nanoseconds.
    pub law: Law,
    /// Whether an element is a byte of the swept size (the time per
    /// element is the time per input over `n`).
    per_byte: bool,
}

impl SweepLaw {
    /// The law's time per element at `n`, in nanoseconds.
    pub fn per_element_ns(&self, n: f64) -> f64 {
        let t = self.law.fit.at(n);
        if self.per_byte { t / n } else { t }
    }
}

/// The law of one variant's time records over the sweep of `param`:
/// `None` unless the parameter is a size and at least [`MIN_POINTS`]
/// sizes were measured.
pub fn of_records(records: &[&Record], param: &str) -> Option<SweepLaw> {
    let mut meaning = None;
    let mut measured: Vec<(f64, &Record)> = Vec::new();
    for r in records {
        let [p] = r.parameters.as_slice() else {
            continue;
        };
        if p.name != param || r.metric != Metric::Time || r.status != Status::Ok || r.median <= 0.0
        {
            continue;
        }
        meaning = meaning.or(p.meaning());
        measured.push((p.value, r));
    }
    if !is_size(meaning) {
        return None;
    }
    let (factor, _) = crate::scale::parse_time_unit(&measured.first()?.1.unit)?;
    let element = measured[0]
        .1
        .unit
        .split_once('/')
        .map_or("", |u| u.1.trim());
    // A per-byte time over a byte sweep is a time per input times n.
    let per_byte = meaning == Some(Meaning::Bytes) && is_bytes(element);
    let per_input = |n: f64| factor * if per_byte { n } else { 1.0 };
    let points: Vec<Point> = measured
        .iter()
        .map(|&(n, r)| Point {
            n,
            t: r.median * per_input(n),
            sigma: sigma(r) * per_input(n),
        })
        .collect();
    let replicates: Option<Vec<Vec<f64>>> = measured
        .iter()
        .map(|&(n, r)| {
            let seed = seed_of(&[&r.variant, &r.input_set, "growth"]);
            let reps = median_replicates(&r.rounds, seed)?;
            Some(reps.into_iter().map(|t| t * per_input(n)).collect())
        })
        .collect();
    // Replicate k of every point, as one resample of the sweep.
    let resamples: Option<Vec<Vec<f64>>> = replicates.map(|reps| {
        let k = reps.iter().map(Vec::len).min().unwrap_or(0);
        (0..k)
            .map(|i| reps.iter().map(|r| r[i]).collect())
            .collect()
    });
    let law = law(
        &points,
        resamples.as_deref(),
        meaning == Some(Meaning::Depth),
    )?;
    Some(SweepLaw { law, per_byte })
}

/// A record's standard error per element: from its 95 % interval, else
/// its spread, never below [`MIN_RELATIVE_ERROR`] of its median.
fn sigma(r: &Record) -> f64 {
    let spread = match r.interval {
        Some(i) => (i.high - i.low) / (2.0 * 1.96),
        None => 1.4826 * r.mad / f64::from(r.samples.max(1)).sqrt(),
    };
    spread.max(MIN_RELATIVE_ERROR * r.median)
}

#[cfg(test)]
mod tests;
