//! The choice a dispatching solver makes for each input: the range its
//! regime falls in, and that range's variant.

use super::Range;
use super::choose::index;
use crate::workload::Workload;

/// How many of a batch's inputs [`Chooser::common`] looks at, at most.
///
/// Looking at every input costs what reading every input's regime costs:
/// about 0.4 ns an input for popcount's buffers (their lengths, 24 bytes
/// apart), which is a quarter of the whole time of an 8-byte buffer. A
/// fixed sample costs the same for any batch: under 0.01 ns an input in a
/// batch of 4096.
pub(super) const SAMPLE: usize = 64;

/// The ranges a dispatcher runs and the variant of each, as indices
/// ("slots") into its variants.
pub(super) struct Chooser<W> {
    /// Computes each input's regime.
    workload: W,
    /// The ranges of this build and CPU's tier, not empty.
    ranges: &'static [Range],
    /// For each range, the slot of its variant.
    slots: Vec<usize>,
    /// Each slot's variant, each once, in the order the ranges name them.
    pub(super) names: Vec<&'static str>,
}

impl<W: Workload> Chooser<W> {
    /// The chooser of `ranges` (not empty), reading regimes with `workload`.
    pub(super) fn new(workload: W, ranges: &'static [Range]) -> Self {
        let mut names: Vec<&'static str> = Vec::new();
        let slots = ranges
            .iter()
            .map(|r| {
                names
                    .iter()
                    .position(|n| *n == r.variant)
                    .unwrap_or_else(|| {
                        names.push(r.variant);
                        names.len() - 1
                    })
            })
            .collect();
        Chooser {
            workload,
            ranges,
            slots,
            names,
        }
    }

    /// The slot that runs `input`. With one variant, no regime is computed.
    #[inline(always)]
    pub(super) fn slot(&self, input: &W::Input) -> usize {
        match self.names.len() {
            1 => 0,
            _ => self.slots[index(self.ranges, self.workload.regime(input))],
        }
    }

    /// The slot that runs every one of `inputs` (not empty), when its
    /// sample of them falls in the range of the first: every input of a
    /// batch of up to [`SAMPLE`], else [`SAMPLE`] of them evenly spaced
    /// and the last. Inputs between the sampled ones of a large batch are
    /// not looked at: where they lie in another range they run on the
    /// batch's variant, with the same answers (every variant is checked
    /// against the oracle) at that variant's speed.
    #[inline(always)]
    pub(super) fn common(&self, inputs: &[W::Input]) -> Option<usize> {
        if self.names.len() == 1 {
            return Some(0);
        }
        let first = index(self.ranges, self.workload.regime(&inputs[0]));
        let step = inputs.len().div_ceil(SAMPLE);
        let mut sample = inputs.iter().step_by(step).chain(inputs.last());
        sample
            .all(|input| index(self.ranges, self.workload.regime(input)) == first)
            .then(|| self.slots[first])
    }

    /// Fills `into` with the slot of each of `inputs`; returns how many
    /// runs of equal slots there are.
    pub(super) fn slots(&self, inputs: &[W::Input], into: &mut Vec<usize>) -> usize {
        into.clear();
        let (mut runs, mut last) = (0, usize::MAX);
        for input in inputs {
            let slot = self.slot(input);
            runs += usize::from(slot != last);
            last = slot;
            into.push(slot);
        }
        runs
    }
}
