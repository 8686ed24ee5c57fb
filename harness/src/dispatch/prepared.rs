//! A dispatcher's preparation: each chosen variant's own form of the
//! batch, made outside the timed runs, and the runs read from them.

use super::dispatcher::Dispatcher;
use super::split::runs;
use crate::workload::{Prepared, Solve, Workload};
use std::ops;

/// Each slot's form of the whole batch (none for a slot no input chose),
/// so that indices into the batch index every form.
struct Forms(Vec<Prepared>);

impl<W: Workload> Dispatcher<W> {
    /// The forms of `inputs` of each variant at least one of them chose;
    /// none at all when no such variant makes a form of its own, so the
    /// batch runs the plain way.
    pub(super) fn prepare_chosen(&self, inputs: &[W::Input]) -> Prepared {
        let mut chosen = vec![false; self.solvers.len()];
        for input in inputs {
            chosen[self.chooser.slot(input)] = true;
        }
        let forms: Vec<Prepared> = self
            .solvers
            .iter()
            .zip(chosen)
            .map(|(solver, chosen)| {
                if chosen {
                    solver.prepare(inputs)
                } else {
                    Prepared::none()
                }
            })
            .collect();
        if forms.iter().any(Prepared::is_own) {
            Prepared::new(Forms(forms))
        } else {
            Prepared::none()
        }
    }

    /// Solves `inputs[range]` from the forms [`Dispatcher::prepare_chosen`]
    /// made: each run of one variant (the whole range when it is one run)
    /// from that variant's form. Without them, as a plain batch.
    pub(super) fn solve_forms(
        &mut self,
        inputs: &[W::Input],
        prepared: &Prepared,
        range: ops::Range<usize>,
        out: &mut [W::Output],
    ) {
        let Some(Forms(forms)) = prepared.form::<Forms>() else {
            return self.solve_batch(&inputs[range], out);
        };
        let batch = &inputs[range.clone()];
        if batch.is_empty() {
            return;
        }
        if let Some(slot) = self.chooser.common(batch) {
            return forms[slot].run(&mut *self.solvers[slot], inputs, range, out);
        }
        let mut slots = std::mem::take(&mut self.scratch.slots);
        self.chooser.slots(batch, &mut slots);
        for (slot, run) in runs(&slots) {
            let whole = range.start + run.start..range.start + run.end;
            forms[slot].run(&mut *self.solvers[slot], inputs, whole, &mut out[run]);
        }
        self.scratch.slots = slots;
    }
}
