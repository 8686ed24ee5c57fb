//! A batch whose inputs fall in different ranges: solved run by run where
//! runs are long, or gathered by variant where they are short, so a SIMD
//! variant still gets its inputs together.

use super::dispatcher::{Dispatcher, Scratch};
use crate::workload::Workload;
use std::ops;

/// The mean length of the runs of one variant from which a batch is
/// solved run by run, in place, rather than gathered.
const LONG_RUN: usize = 16;

/// How many inputs are gathered at a time: the gathered copies and the
/// answers waiting to be put back stay in the core's caches (a components
/// answer is 600 bytes; 4096 of them, 2.4 MB, did not, and copying them
/// through memory cost more than choosing saved).
const WINDOW: usize = 256;

/// The runs of equal slots in `slots`, each slot with its indices.
pub(super) fn runs(slots: &[usize]) -> impl Iterator<Item = (usize, ops::Range<usize>)> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        let &slot = slots.get(start)?;
        let len = slots[start..].iter().take_while(|&&s| s == slot).count();
        let run = start..start + len;
        start = run.end;
        Some((slot, run))
    })
}

/// The items of `items` whose slot in `slots` is `slot`.
fn picked<'a, T: 'a>(
    slots: &'a [usize],
    items: impl IntoIterator<Item = T> + 'a,
    slot: usize,
) -> impl Iterator<Item = T> + 'a {
    slots
        .iter()
        .zip(items)
        .filter(move |(s, _)| **s == slot)
        .map(|(_, item)| item)
}

/// Clones `inputs` into the first places of `group` and returns how many
/// there are. A place already there is cloned into (`clone_from`), so an
/// input owning a buffer reuses the one it had there, and the places
/// beyond are kept for the next batch.
fn gathered<'a, I: Clone + 'a>(group: &mut Vec<I>, inputs: impl Iterator<Item = &'a I>) -> usize {
    let mut len = 0;
    for input in inputs {
        match group.get_mut(len) {
            Some(kept) => kept.clone_from(input),
            None => group.push(input.clone()),
        }
        len += 1;
    }
    len
}

impl<W: Workload> Dispatcher<W> {
    /// Solves `inputs`, not all in one range: each run of one variant as a
    /// slice of the batch when the runs are long, else each variant's
    /// inputs gathered into one call a window of [`WINDOW`] inputs.
    pub(super) fn split(&mut self, inputs: &[W::Input], out: &mut [W::Output]) {
        let mut slots = std::mem::take(&mut self.scratch.slots);
        let count = self.chooser.slots(inputs, &mut slots);
        if inputs.len() >= LONG_RUN * count {
            for (slot, run) in runs(&slots) {
                self.solvers[slot].solve_batch(&inputs[run.clone()], &mut out[run]);
            }
        } else {
            let windows = inputs.chunks(WINDOW).zip(slots.chunks(WINDOW));
            for ((inputs, slots), out) in windows.zip(out.chunks_mut(WINDOW)) {
                self.gather(inputs, slots, out);
            }
        }
        self.scratch.slots = slots;
    }

    /// Solves each variant's inputs (by `slots`) in one call, on clones
    /// gathered in the scratch buffers, and puts the answers back in order.
    fn gather(&mut self, inputs: &[W::Input], slots: &[usize], out: &mut [W::Output]) {
        let Scratch {
            inputs: group,
            answers,
            ..
        } = &mut self.scratch;
        for (slot, solver) in self.solvers.iter_mut().enumerate() {
            let len = gathered(group, picked(slots, inputs, slot));
            if len == 0 {
                continue;
            }
            // Grown only, never cleared: the solver overwrites what it
            // answers, and an answer is copied out once (an answer may be
            // large: a components list is 600 bytes).
            if answers.len() < len {
                answers.resize_with(len, W::Output::default);
            }
            solver.solve_batch(&group[..len], &mut answers[..len]);
            for (o, answer) in picked(slots, out.iter_mut(), slot).zip(&answers[..len]) {
                o.clone_from(answer);
            }
        }
    }
}
