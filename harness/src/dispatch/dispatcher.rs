//! What a dispatching solver holds: how it chooses, the variants it runs
//! and the buffers it keeps between batches.

use super::chooser::Chooser;
use crate::workload::{Solve, Workload};

/// What [`Table::solver`](super::Table::solver) builds.
pub(super) struct Dispatcher<W: Workload> {
    /// Which slot runs an input.
    pub(super) chooser: Chooser<W>,
    /// Each slot's variant, built.
    pub(super) solvers: Vec<Box<dyn Solve<W::Input, W::Output>>>,
    /// Buffers kept between batches.
    pub(super) scratch: Scratch<W::Input, W::Output>,
}

/// A dispatcher's buffers, kept between batches so that splitting one
/// allocates nothing once they have grown (the gathered inputs are kept
/// too, for their own buffers to be reused).
pub(super) struct Scratch<I, O> {
    /// Each input's slot.
    pub(super) slots: Vec<usize>,
    /// One variant's inputs, gathered.
    pub(super) inputs: Vec<I>,
    /// Its answers, to scatter back.
    pub(super) answers: Vec<O>,
}

impl<I, O> Scratch<I, O> {
    /// Empty buffers.
    pub(super) fn new() -> Self {
        Scratch {
            slots: Vec::new(),
            inputs: Vec::new(),
            answers: Vec::new(),
        }
    }
}
