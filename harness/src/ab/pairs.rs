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
//!   many pairs are set aside, samples are halved ([`crate::sampling`]).
//! - **The pairs spread wide** (the host's other tenants, which leave no
//!   trace in the machine). The budget is time, not a count fixed from a
//!   warm-up a preemption can spoil; once it is spent, measuring goes on,
//!   up to the cap, in more pairs of processes, until they are as many as
//!   their spread needs to resolve the threshold (`instances.rs`,
//!   [`stats::processes_needed`]).
//!
//! Sample length and the number of pairs follow disturbance and spread
//! only, never the ratios, so the test's error rate holds.

use super::child::Child;
use super::stats;
use super::taken::Taken;
use crate::disturb;
use crate::engine::serve::{Request, Sample, Window};
use crate::error::Error;
use crate::sampling::{Shape, Sizer};
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
    /// The records timed in the run: the family whose false-alarm rate
    /// the level of every interval holds ([`stats::level`]).
    pub records: usize,
}

impl Budget {
    /// The two-sided level of the run's intervals.
    pub fn level(&self) -> f64 {
        stats::level(self.records)
    }
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
    /// Where each pair was taken.
    pub taken: Vec<Taken>,
    /// Pairs set aside as disturbed.
    pub set_aside: usize,
    /// How the samples were watched (see `reports::Disturbance::probe`).
    pub probe: &'static str,
    /// How long the pairing took.
    pub elapsed: Duration,
}

impl Measured {
    /// Each pair of processes' change, over every undisturbed pair.
    pub fn changes(&self) -> Vec<f64> {
        let all: Vec<usize> = (0..self.pairs.len()).collect();
        stats::process_changes(&self.pairs, &self.taken, &all)
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

/// The window of the `k`th sample of `shape`, `None` for the whole batch.
fn window(shape: Shape, k: usize, inputs: usize) -> Option<Window> {
    shape.len.map(|_| {
        let range = shape.window(k, inputs);
        Window {
            start: range.start,
            len: range.len(),
        }
    })
}

/// Why [`Pairing::take`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The cap is reached, in time or in pairs.
    Done,
    /// The slice of time it was given is over; more pairs are wanted.
    Slice,
}

/// Pairs of two builds being taken, possibly from several pairs of
/// processes in turn (`instances.rs`).
pub struct Pairing {
    start: Instant,
    budget: Budget,
    inputs: usize,
    elements: u64,
    sizer: Sizer,
    /// Samples asked for so far: the windows take turns by it.
    k: usize,
    measured: Measured,
}

impl Pairing {
    /// Starts pairing `a` and `b`, both with the record's batch of
    /// `inputs` inputs loaded; `elements` is what one run of the whole
    /// batch processes. The sample's shape is set here, once.
    pub fn new<'c>(
        a: &mut Side<'c>,
        b: &mut Side<'c>,
        inputs: usize,
        elements: u64,
        budget: Budget,
    ) -> Result<Pairing, Error> {
        let start = Instant::now();
        let windows = if a.protocol >= 2 && b.protocol >= 2 {
            inputs
        } else {
            0
        };
        // The slower build's best single run of the batch sets the shape,
        // so neither side's sample falls short of the target. A batch
        // longer than the target is run once: its windows are short anyway.
        let mut one = Duration::from_nanos(1);
        for side in [a, b] {
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
        Ok(Pairing {
            start,
            budget,
            inputs,
            elements,
            sizer: Sizer::new(TARGET_SAMPLE, one, windows),
            k: 0,
            measured: Measured {
                pairs: Vec::new(),
                taken: Vec::new(),
                set_aside: 0,
                // The weakest way any sample was watched names them all.
                probe: disturb::PROBE,
                elapsed: Duration::ZERO,
            },
        })
    }

    /// One pair of samples of the current shape, not kept: a fresh pair
    /// of processes runs its first samples cold.
    pub fn warm<'c>(&mut self, a: &mut Side<'c>, b: &mut Side<'c>) -> Result<(), Error> {
        let shape = self.sizer.shape();
        let window = window(shape, self.k, self.inputs);
        for side in [a, b] {
            sample(side, shape, window, self.elements)?;
        }
        Ok(())
    }

    /// Takes pairs from `a` and `b` (the processes of `instance`) until
    /// `until` since the start, or until the cap.
    pub fn take(
        &mut self,
        a: &mut Side<'_>,
        b: &mut Side<'_>,
        until: Duration,
        instance: usize,
    ) -> Result<Stop, Error> {
        let m = &mut self.measured;
        loop {
            let elapsed = self.start.elapsed();
            if m.pairs.len() >= stats::MAX_PAIRS || elapsed >= self.budget.cap {
                return Ok(Stop::Done);
            }
            if elapsed >= until {
                return Ok(Stop::Slice);
            }
            let shape = self.sizer.shape();
            let window = window(shape, self.k, self.inputs);
            // Alternating which goes first cancels any advantage of
            // position, and of following oneself ([`Taken::b_first`]).
            let b_first = !self.k.is_multiple_of(2);
            let (x, y) = if !b_first {
                let x = sample(a, shape, window, self.elements)?;
                (x, sample(b, shape, window, self.elements)?)
            } else {
                let y = sample(b, shape, window, self.elements)?;
                (sample(a, shape, window, self.elements)?, y)
            };
            self.k += 1;
            m.probe = weaker(weaker(m.probe, x.2), y.2);
            // Set a pair aside only when both sides were watched: watching
            // one side alone would favour the other.
            let disturbed = x.1.zip(y.1).is_some_and(|(dx, dy)| dx || dy);
            self.sizer.note(disturbed);
            if disturbed {
                m.set_aside += 1;
            } else {
                m.pairs.push((x.0, y.0));
                m.taken.push(Taken {
                    instance,
                    window: window.map_or(0, |w| w.start * (self.inputs + 1) + w.len),
                    b_first,
                });
            }
        }
    }

    /// How long since the pairing started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// What has been measured so far.
    pub fn measured(&self) -> &Measured {
        &self.measured
    }

    /// What was measured.
    pub fn finish(mut self) -> Measured {
        self.measured.elapsed = self.start.elapsed();
        self.measured
    }
}
