//! How long a sample is, and what it runs: the same for `bench` and `ab`.
//!
//! A sample should be short enough to fit between the scheduler's
//! interruptions and long enough for the clock: about 2 ms on a quiet
//! machine. A batch shorter than that is repeated; a longer one is cut
//! into windows of consecutive inputs, each timed on its own, so a slow
//! batch (a deep search) does not make every sample span several
//! scheduler slices. When more than a quarter of the samples of a block
//! are disturbed, slices are being lost and the samples are halved, down
//! to [`SHORTEST`].

use std::ops::Range;
use std::time::Duration;

/// The shortest a sample is made on a busy machine: well above the
/// clock's and the probe's microsecond.
pub const SHORTEST: Duration = Duration::from_micros(250);

/// Samples per block after which the length is reconsidered.
const BLOCK: usize = 16;

/// The share of a block's samples disturbed that halves the samples.
const HALVE_AT: f64 = 0.25;

/// One sample: `reps` runs of the whole batch, or of a window of `len`
/// inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Runs in one sample.
    pub reps: u64,
    /// Inputs in one window; `None`: the whole batch.
    pub len: Option<usize>,
}

impl Shape {
    /// The shape whose sample lasts about `target` when one run of all
    /// `inputs` takes `one`; `inputs` 0: the batch cannot be cut.
    pub fn fit(target: Duration, one: Duration, inputs: usize) -> Shape {
        let ratio = target.as_secs_f64() / one.as_secs_f64().max(1e-9);
        if ratio >= 1.0 || inputs == 0 {
            Shape {
                reps: ratio.ceil().max(1.0) as u64,
                len: None,
            }
        } else {
            Shape {
                reps: 1,
                len: Some(((inputs as f64 * ratio) as usize).clamp(1, inputs)),
            }
        }
    }

    /// How many windows cover `inputs` (1 for the whole batch).
    pub fn windows(&self, inputs: usize) -> usize {
        self.len.map_or(1, |len| inputs.div_ceil(len).max(1))
    }

    /// The inputs of the `k`th sample, the windows taking turns (the last
    /// of a pass holds what is left).
    pub fn window(&self, k: usize, inputs: usize) -> Range<usize> {
        match self.len {
            None => 0..inputs,
            Some(len) => {
                let start = (k % self.windows(inputs)) * len;
                start..(start + len).min(inputs)
            }
        }
    }
}

/// The shape of the samples as the machine allows: [`Shape::fit`] to a
/// target that halves while samples are being disturbed.
#[derive(Clone, Debug)]
pub struct Sizer {
    target: Duration,
    one: Duration,
    inputs: usize,
    seen: usize,
    disturbed: usize,
    shape: Shape,
}

impl Sizer {
    /// Samples of about `target`, where one run of `inputs` inputs takes
    /// `one` (`inputs` 0: the batch cannot be cut).
    pub fn new(target: Duration, one: Duration, inputs: usize) -> Sizer {
        Sizer {
            target,
            one,
            inputs,
            seen: 0,
            disturbed: 0,
            shape: Shape::fit(target, one, inputs),
        }
    }

    /// The shape of the next sample.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Notes whether a sample was disturbed; at the end of a block where
    /// too many were, halves the samples.
    pub fn note(&mut self, disturbed: bool) {
        self.seen += 1;
        self.disturbed += usize::from(disturbed);
        if self.seen == BLOCK {
            if self.disturbed as f64 > HALVE_AT * BLOCK as f64 && self.target > SHORTEST {
                self.target = (self.target / 2).max(SHORTEST);
                self.shape = Shape::fit(self.target, self.one, self.inputs);
            }
            self.seen = 0;
            self.disturbed = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_sample_keeps_to_its_target_however_long_the_batch() {
        // A 0.5 ms batch: 4 runs of it.
        let short = Shape::fit(2 * MS, MS / 2, 100);
        assert_eq!((short.reps, short.len), (4, None));
        assert_eq!(short.window(3, 100), 0..100);
        // A 10 ms batch of 100 inputs: windows of 20, in turn.
        let long = Shape::fit(2 * MS, 10 * MS, 100);
        assert_eq!((long.reps, long.len), (1, Some(20)));
        let starts: Vec<_> = (0..6).map(|k| long.window(k, 100).start).collect();
        assert_eq!(starts, [0, 20, 40, 60, 80, 0]);
        // The last window holds what is left; never an empty one.
        let ragged = Shape {
            reps: 1,
            len: Some(3),
        };
        assert_eq!(ragged.windows(7), 3);
        assert_eq!(ragged.window(2, 7), 6..7);
        assert_eq!(Shape::fit(2 * MS, 10 * MS, 7).window(0, 7), 0..1);
        // A batch that cannot be cut: the whole batch, once.
        let whole = Shape::fit(2 * MS, 10 * MS, 0);
        assert_eq!((whole.reps, whole.len), (1, None));
    }

    #[test]
    fn samples_halve_while_disturbed_and_stop_at_the_shortest() {
        let mut sizer = Sizer::new(2 * MS, 8 * MS, 1000);
        assert_eq!(sizer.shape().len, Some(250));
        // A quiet block changes nothing; a block a quarter disturbed
        // neither; more than that halves.
        for i in 0..BLOCK {
            sizer.note(i < BLOCK / 4);
        }
        assert_eq!(sizer.shape().len, Some(250));
        for i in 0..BLOCK {
            sizer.note(i <= BLOCK / 4);
        }
        assert_eq!(sizer.shape().len, Some(125));
        for _ in 0..10 * BLOCK {
            sizer.note(true);
        }
        // 250 µs of an 8 ms batch of 1000.
        assert_eq!(sizer.shape().len, Some(31));
    }
}
