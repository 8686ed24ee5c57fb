//! The timing loop: a batch warmed up, its samples sized to outlast the
//! clock's resolution and cut into windows where one run is longer than
//! a sample, each disturbed piece taken again. Nothing but the solver
//! runs between a piece's start and stop; between samples the core's
//! clock is calibrated ([`crate::cycles`]), so each sample also reads in
//! cycles.

use crate::cycles::{self, Calibrations};
use crate::disturb::Watch;
use crate::sampling::Sizer;
use crate::workload::{Prepared, Solve};
use reports::Disturbance;
use std::hint::black_box;
use std::ops::Range;
use std::time::{Duration, Instant};

/// Times a disturbed piece of a sample is taken, at most, before it is
/// kept as it is.
pub const RETRIES: u32 = 3;

/// Samples between two calibrations of the clock: a calibration takes
/// about a tenth of a millisecond, a sample 2 or 10.
const CALIBRATE_EVERY: usize = 4;

/// One round's samples, nanoseconds per element, and the clock's
/// calibrations between them (or why it was not calibrated).
pub struct Round {
    pub ns: Vec<f64>,
    pub clock: Result<Calibrations, String>,
}

/// How long to sample, by mode.
pub struct Budget {
    warm_up: Duration,
    sample: Duration,
    total: Duration,
    min_samples: u32,
    max_samples: u32,
}

impl Budget {
    /// The share of one of `rounds` rounds: the same time in all, split.
    pub fn per_round(self, rounds: u32) -> Self {
        Budget {
            warm_up: self.warm_up / rounds,
            total: self.total / rounds,
            min_samples: self.min_samples.div_ceil(rounds).max(2),
            max_samples: self.max_samples.div_ceil(rounds),
            ..self
        }
    }

    /// How long one measuring round of a batch taking `batch` should last
    /// at most: the warm-up, the sampling budget, and the minimum samples
    /// where a batch outlasts the budget.
    pub fn expected(&self, batch: Duration) -> Duration {
        self.warm_up + batch + self.total + self.sample.max(batch) * self.min_samples
    }

    pub fn new(quick: bool) -> Self {
        if quick {
            Budget {
                warm_up: Duration::from_millis(20),
                sample: Duration::from_millis(2),
                total: Duration::from_millis(150),
                // A batch slower than `total` (a deep search) gets two
                // samples, so a quick sweep stays quick.
                min_samples: 2,
                max_samples: 15,
            }
        } else {
            Budget {
                warm_up: Duration::from_millis(200),
                sample: Duration::from_millis(10),
                total: Duration::from_secs(2),
                min_samples: 5,
                max_samples: 51,
            }
        }
    }
}

/// A batch to time: its inputs and each one's throughput elements.
#[derive(Clone, Copy)]
pub struct Timed<'a, I> {
    /// The inputs.
    pub inputs: &'a [I],
    /// The inputs in the solver's own form.
    pub prepared: &'a Prepared,
    /// Each one's throughput elements.
    pub each: &'a [u64],
}

/// Times `solver` on `batch`: returns nanoseconds per element, one per
/// sample, and the clock calibrated before the first sample, after every
/// [`CALIBRATE_EVERY`]th and after the last. A sample is `reps` runs of the whole batch, or one pass over
/// it in windows, each window timed on its own (see [`crate::sampling`]);
/// a disturbed piece is taken again, up to [`RETRIES`] times, and
/// counted in `disturbance`.
///
/// `verified` is how long the verification run of the same batch took just
/// before: that run warmed the caches too, so it counts towards the
/// warm-up, and a batch slower than the whole warm-up budget (a deep
/// cephalopod search) is not run again only to warm up. The first round
/// sets `sizer` from the fastest run; later rounds go on with it.
pub fn measure<I, O>(
    solver: &mut dyn Solve<I, O>,
    batch: Timed<'_, I>,
    out: &mut [O],
    budget: &Budget,
    verified: Duration,
    sizer: &mut Option<Sizer>,
    disturbance: &mut Disturbance,
) -> Round {
    let n = batch.inputs.len();
    let mut run = |range: Range<usize>, reps: u64| {
        let watch = Watch::start();
        for _ in 0..reps {
            let out = &mut out[range.clone()];
            let inputs = black_box(batch.inputs);
            batch
                .prepared
                .run(solver, inputs, range.clone(), black_box(&mut *out));
            black_box(out);
        }
        watch.stop()
    };
    let warm_start = Instant::now();
    let mut one = if verified.is_zero() {
        run(0..n, 1).wall
    } else {
        verified
    };
    while verified + warm_start.elapsed() < budget.warm_up {
        one = one.min(run(0..n, 1).wall);
    }
    let sizer = sizer.get_or_insert_with(|| Sizer::new(budget.sample, one, n));
    let mut samples = Vec::new();
    // A calibration refused leaves its samples to the ones beside it;
    // the round is not calibrated only when every one was refused.
    let (mut clock, mut refused) = (Calibrations::default(), None);
    let mut calibrate = |before: usize| match cycles::calibrate() {
        Ok(ghz) => clock.taken.push((before, ghz)),
        Err(why) => refused = Some(why),
    };
    let start = Instant::now();
    while samples.len() < budget.min_samples as usize
        || (samples.len() < budget.max_samples as usize && start.elapsed() < budget.total)
    {
        if samples.len() % CALIBRATE_EVERY == 0 {
            calibrate(samples.len());
        }
        let shape = sizer.shape();
        let (mut ns, mut elements) = (0u128, 0u64);
        for k in 0..shape.windows(n) {
            let range = shape.window(k, n);
            let mut seen = run(range.clone(), shape.reps);
            for _ in 1..RETRIES {
                // A piece that cannot be cut to the sample's length (one
                // long input) is kept as it is: taking it again would cost
                // more than its disturbance.
                if seen.disturbed() != Some(true) || seen.wall > budget.sample * 4 {
                    break;
                }
                disturbance.taken += 1;
                disturbance.set_aside += 1;
                sizer.note(true);
                seen = run(range.clone(), shape.reps);
            }
            let disturbed = seen.disturbed() == Some(true);
            disturbance.taken += 1;
            disturbance.set_aside += u32::from(disturbed);
            sizer.note(disturbed);
            ns += seen.wall.as_nanos();
            elements += batch.each[range].iter().sum::<u64>() * shape.reps;
        }
        samples.push(ns as f64 / elements.max(1) as f64);
    }
    calibrate(samples.len());
    let clock = match refused {
        Some(why) if clock.taken.is_empty() => Err(why),
        _ => Ok(clock),
    };
    Round { ns: samples, clock }
}
