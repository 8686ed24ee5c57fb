//! Tables kept between solves on one thread, so a solve reuses the memory
//! of the last one instead of faulting in fresh pages as its tables grow
//! (official test 11 took 1,800 page faults a solve, 15% of its time in the
//! kernel). Only memory is kept: every table is cleared before it is used.

use super::merge::Lane;
use super::table::Table;
use std::any::Any;
use std::cell::RefCell;

thread_local! {
    /// One `Vec<Table<L>>` per lane type `L` in use.
    static POOLS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// The tables of lane type `L` left by earlier solves.
pub(super) fn take<L: Lane>() -> Vec<Table<L>> {
    POOLS.with_borrow_mut(|pools| {
        let at = pools.iter().position(|p| p.is::<Vec<Table<L>>>());
        at.and_then(|at| pools.swap_remove(at).downcast().ok())
            .map_or_else(Vec::new, |pool| *pool)
    })
}

/// Keeps `pool` for the next solve on this thread.
pub(super) fn give_back<L: Lane>(pool: Vec<Table<L>>) {
    POOLS.with_borrow_mut(|pools| pools.push(Box::new(pool)));
}
