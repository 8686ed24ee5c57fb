//! The dispatching solver: each input to the variant its table chooses,
//! in as few calls as the batch allows.

use super::Table;
use super::choose::run;
use super::chooser::Chooser;
use super::dispatcher::{Dispatcher, Scratch};
use crate::workload::{Prepared, Solve, Workload};
use std::ops;

impl Table {
    /// Builds the dispatching solver for `workload`: it builds every
    /// variant the ranges of this build and CPU name ([`Table::ranges`]),
    /// once, and hands each input to the one its regime chooses.
    ///
    /// A batch whose sample of inputs (every input of a batch of up to 64,
    /// else 64 evenly spaced and the last) falls in one range is one call
    /// to that range's variant with the whole batch. A mixed batch is
    /// split: runs of one variant are solved in place where they are long,
    /// and where they are short each variant's inputs are gathered (cloned)
    /// into one call, so a SIMD variant still fills its lanes. Computing
    /// the regimes ([`Workload::regime`]) is part of the solver's time, as
    /// it is of any dispatcher's. Without a parameter no regime is
    /// computed: the last range's variant runs every input.
    ///
    /// `None` when the table is another workload's (or chooses by another
    /// parameter), when no tier applies to this CPU, when the table names
    /// itself, or when `workload` cannot build one of its variants.
    pub fn solver<W: Workload + Clone>(
        &'static self,
        workload: &W,
    ) -> Option<Box<dyn Solve<W::Input, W::Output>>> {
        if self.workload != workload.name() || self.parameter != workload.regime_parameter() {
            return None;
        }
        let ranges = run(self.parameter, self.ranges()?);
        if ranges.is_empty() || ranges.iter().any(|r| r.variant == self.name) {
            return None;
        }
        let chooser = Chooser::new(workload.clone(), ranges);
        let solvers = chooser
            .names
            .iter()
            .map(|name| workload.solver(name))
            .collect::<Option<Vec<_>>>()?;
        Some(Box::new(Dispatcher {
            chooser,
            solvers,
            scratch: Scratch::new(),
        }))
    }
}

impl<W: Workload> Solve<W::Input, W::Output> for Dispatcher<W> {
    /// One call to the chosen variant when the batch's sample falls in the
    /// first input's range ([`Chooser::common`]); else the batch split by
    /// variant ([`Dispatcher::split`]).
    fn solve_batch(&mut self, inputs: &[W::Input], out: &mut [W::Output]) {
        if inputs.is_empty() {
            return;
        }
        match self.chooser.common(inputs) {
            Some(slot) => self.solvers[slot].solve_batch(inputs, out),
            None => self.split(inputs, out),
        }
    }

    fn prepare(&self, inputs: &[W::Input]) -> Prepared {
        self.prepare_chosen(inputs)
    }

    fn solve_prepared(
        &mut self,
        inputs: &[W::Input],
        prepared: &Prepared,
        range: ops::Range<usize>,
        out: &mut [W::Output],
    ) {
        self.solve_forms(inputs, prepared, range, out);
    }

    fn chosen(&self, input: &W::Input) -> Option<&'static str> {
        Some(self.chooser.names[self.chooser.slot(input)])
    }
}
