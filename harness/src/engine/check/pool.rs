//! The solvers the parallel passes share, a whole set per work unit.

use crate::engine::verify::build_solver;
use crate::error::Error;
use crate::workload::{Solve, Workload};
use std::sync::{Mutex, PoisonError};

/// A variant's solver, as the workload builds it.
pub type Solver<W> = Box<dyn Solve<<W as Workload>::Input, <W as Workload>::Output>>;

/// Solvers for the parallel passes. A solver may keep scratch state, so no
/// two threads share one: each work unit takes a whole set (every checked
/// variant, built by the workload) and puts it back, and a set is built
/// only when every other is in use, at most one per thread.
pub struct Pool<'w, W: Workload + ?Sized> {
    w: &'w W,
    /// The variants of a set, in order: the oracle first.
    pub names: Vec<&'static str>,
    free: Mutex<Vec<Vec<Solver<W>>>>,
}

impl<'w, W: Workload + ?Sized> Pool<'w, W> {
    /// Builds the first set, so a variant that does not build is an error
    /// before any input is solved.
    pub fn new(w: &'w W, names: Vec<&'static str>) -> Result<Self, Error> {
        let pool = Pool {
            w,
            names,
            free: Mutex::new(Vec::new()),
        };
        let first = pool.build()?;
        pool.put(first);
        Ok(pool)
    }

    fn build(&self) -> Result<Vec<Solver<W>>, Error> {
        self.names.iter().map(|n| build_solver(self.w, n)).collect()
    }

    pub fn take(&self) -> Result<Vec<Solver<W>>, Error> {
        let spare = self
            .free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        spare.map_or_else(|| self.build(), Ok)
    }

    pub fn put(&self, set: Vec<Solver<W>>) {
        self.free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(set);
    }
}

/// Two distinct elements of `v`, both mutable: a reference's solver and
/// a variant's, of one set.
pub fn pair<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "two distinct solvers");
    if a < b {
        let (low, high) = v.split_at_mut(b);
        (&mut low[a], &mut high[0])
    } else {
        let (low, high) = v.split_at_mut(a);
        (&mut high[0], &mut low[b])
    }
}
