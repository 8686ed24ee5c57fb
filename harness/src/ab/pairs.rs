//! Paired sampling: single samples of A and B, alternately, A B B A ...
//!
//! Both builds hold the same inputs loaded (serve mode) and each sample is
//! timed inside its child, so the request round trip is not measured.
//!
//! On a busy machine three things go wrong, and each is met here:
//! - **A sample loses the core.** Every sample says whether it was
//!   disturbed (see [`crate::disturb`]; for a build too old to say, the
//!   driver reads the child's involuntary context switches from `/proc`).
//!   A pair with a disturbed sample is set aside: the judgement rests on
//!   undisturbed pairs only. Both sides are watched alike, so the pairs
//!   set aside are not biased towards either build.
//! - **Samples outlast a scheduler slice.** A sample is about
//!   [`TARGET_SAMPLE`], however long the batch: where one run of the batch
//!   is longer, a sample times a window of it (builds of protocol 2; the
//!   windows take turns, the same window for both sides of a pair). When
//!   many pairs are set aside, samples are halved ([`crate::shape`]).
//! - **The pairs spread wide** (the host's other tenants, which leave no
//!   trace in the machine). The budget is time, not a count fixed from a
//!   warm-up a preemption can spoil; once it is spent, measuring goes on,
//!   up to the cap, until there are as many undisturbed pairs as the
//!   pairs' spread needs to resolve the threshold ([`stats::pairs_needed`]).
//!
//! Sample length and the number of pairs follow disturbance and spread
//! only, never the ratios, so the sign test's error rate holds.

use super::child::Child;
use super::stats;
use crate::disturb;
use crate::error::Error;
use crate::serve::{Request, Sample, Window};
use crate::shape::{Shape, Sizer};
use std::time::{Duration, Instant};

/// How long one sample should take.
pub const TARGET_SAMPLE: Duration = Duration::from_millis(2);

/// How long to measure one record.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Measured in any case.
    pub base: Duration,
    /// Measured at most, when the pairs are too few for their spread.
    pub cap: Duration,
    /// The threshold the pairs must resolve, in percent.
    pub threshold_pct: f64,
}

/// One build's side of the pairing: its child and whether it can time a
/// window and watch its own samples (protocol 2).
pub struct Side<'a> {
    /// The serve-mode child, batch loaded.
    pub child: &'a mut Child,
    /// Its serve protocol.
    pub protocol: u32,
}

/// What the pairing measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The undisturbed pairs `(a, b)`, nanoseconds per element.
    pub pairs: Vec<(f64, f64)>,
    /// Pairs set aside as disturbed.
    pub set_aside: usize,
    /// How the samples were watched (see `reports::Disturbance::probe`).
    pub probe: &'static str,
    /// How long the pairing took.
    pub elapsed: Duration,
    /// The pairs the spread needed; more than `pairs.len()` when the cap
    /// came first.
    pub needed: usize,
}

impl Measured {
    /// Whether there were as many undisturbed pairs as their spread needs.
    pub fn resolved(&self) -> bool {
        self.pairs.len() >= self.needed
    }
}

/// One sample of one side: nanoseconds per element and whether it was
/// disturbed (`None`: not watched), and the probe that said so.
fn sample(
    side: &mut Side<'_>,
    shape: Shape,
    window: Option<Window>,
    elements: u64,
) -> Result<(f64, Option<bool>, &'static str), Error> {
    let pid = side.child.pid();
    let before = (side.protocol < 2)
        .then(|| disturb::involuntary_switches(pid))
        .flatten();
    let s = side.child.request::<Sample>(&Request::Sample {
        reps: shape.reps,
        window,
    })?;
    let (disturbed, probe) = match s.observed().disturbed() {
        Some(d) => (Some(d), disturb::PROBE),
        None => {
            let after = before.and(disturb::involuntary_switches(pid));
            let seen = before.zip(after).map(|(b, a)| a > b);
            (seen, if seen.is_some() { "proc" } else { "none" })
        }
    };
    // A build of protocol 1 runs the whole batch and does not count it.
    let per = (s.elements.unwrap_or(elements).max(1) * shape.reps) as f64;
    Ok((s.ns as f64 / per, disturbed, probe))
}

/// Of two probes, the one that sees less: `none`, then `proc`, then the
/// sample's own.
fn weaker(a: &'static str, b: &'static str) -> &'static str {
    let rank = |p| match p {
        "none" => 0,
        "proc" => 1,
        _ => 2,
    };
    if rank(b) < rank(a) { b } else { a }
}

/// Pairs of `a` and `b`, both with the record's batch of `inputs` inputs
/// loaded; `elements` is what one run of the whole batch processes.
pub fn measure<'a>(
    mut a: Side<'a>,
    mut b: Side<'a>,
    inputs: usize,
    elements: u64,
    budget: Budget,
) -> Result<Measured, Error> {
    let start = Instant::now();
    let windows = if a.protocol >= 2 && b.protocol >= 2 {
        inputs
    } else {
        0
    };
    // The slower build's best single run of the batch sets the shape, so
    // neither side's sample falls short of the target. A batch longer
    // than the target is run once: its windows are short anyway.
    let mut one = Duration::from_nanos(1);
    for side in [&mut a, &mut b] {
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let s = side.child.request::<Sample>(&Request::Sample {
                reps: 1,
                window: None,
            })?;
            best = best.min(Duration::from_nanos(s.ns));
            if best > TARGET_SAMPLE {
                break;
            }
        }
        one = one.max(best);
    }
    let mut sizer = Sizer::new(TARGET_SAMPLE, one, windows);
    let mut pairs = Vec::new();
    let mut set_aside = 0;
    // The weakest way any sample was watched names them all.
    let mut probe = disturb::PROBE;
    for k in 0.. {
        if pairs.len() >= stats::MAX_PAIRS || start.elapsed() >= budget.cap {
            break;
        }
        if start.elapsed() >= budget.base
            && k % 8 == 0
            && pairs.len() >= stats::pairs_needed(&pairs, budget.threshold_pct)
        {
            break;
        }
        let shape = sizer.shape();
        let window = shape.len.map(|_| {
            let range = shape.window(k, inputs);
            Window {
                start: range.start,
                len: range.len(),
            }
        });
        // Alternating which goes first cancels any advantage of position.
        let (x, y) = if k % 2 == 0 {
            let x = sample(&mut a, shape, window, elements)?;
            (x, sample(&mut b, shape, window, elements)?)
        } else {
            let y = sample(&mut b, shape, window, elements)?;
            (sample(&mut a, shape, window, elements)?, y)
        };
        probe = weaker(weaker(probe, x.2), y.2);
        // Set a pair aside only when both sides were watched: watching
        // one side alone would favour the other.
        let disturbed = x.1.zip(y.1).is_some_and(|(dx, dy)| dx || dy);
        sizer.note(disturbed);
        if disturbed {
            set_aside += 1;
        } else {
            pairs.push((x.0, y.0));
        }
    }
    let needed = stats::pairs_needed(&pairs, budget.threshold_pct);
    Ok(Measured {
        pairs,
        set_aside,
        probe,
        elapsed: start.elapsed(),
        needed,
    })
}
