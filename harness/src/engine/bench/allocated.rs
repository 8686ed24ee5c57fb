//! What a verified variant allocates: one untimed pass over its batch
//! with the counting allocator's region open ([`crate::allocations`]).
//!
//! The pass comes after verification, so what a variant builds on first
//! use (a table, a thread pool) was built by then and does not count per
//! element; the answers' buffer was allocated before it. Its figures are
//! exact: the same build on the same inputs counts the same, and
//! `compare` and `ab` flag any increase as they do for instructions (`ab`
//! gets the counts from each build's serve child, which counts the same
//! pass when it loads a batch).

use crate::allocations::{self, Counted};
use crate::workload::{Prepared, Solve};
use reports::{Metric, Record};

/// The `allocations`, `allocated_bytes` and `peak_bytes` records of one
/// pass of `solver` over `inputs` (of `elements` throughput elements in
/// all) into `out`, each filled in from `like`; none where the process's
/// allocator does not count.
pub fn records<I, O>(
    solver: &mut dyn Solve<I, O>,
    (inputs, prepared): (&[I], &Prepared),
    out: &mut [O],
    elements: u64,
    like: impl Fn(Metric) -> Record,
) -> Vec<Record> {
    counted(solver, (inputs, prepared), out).map_or_else(Vec::new, |c| of(c, elements, like))
}

/// What one pass of `solver` over `inputs` into `out` allocated; `None`
/// where the process's allocator does not count.
pub fn counted<I, O>(
    solver: &mut dyn Solve<I, O>,
    (inputs, prepared): (&[I], &Prepared),
    out: &mut [O],
) -> Option<Counted> {
    allocations::installed()
        .then(|| allocations::count(|| prepared.run(solver, inputs, 0..inputs.len(), out)).1)
}

/// The records of what a pass of `elements` throughput elements
/// allocated, each filled in from `like`.
pub fn of(counted: Counted, elements: u64, like: impl Fn(Metric) -> Record) -> Vec<Record> {
    let per_element = |n: u64| n as f64 / elements.max(1) as f64;
    [
        (Metric::Allocations, per_element(counted.allocations)),
        (Metric::AllocatedBytes, per_element(counted.bytes)),
        (Metric::PeakBytes, counted.peak as f64),
    ]
    .into_iter()
    .map(|(metric, value)| Record {
        median: value,
        min: value,
        max: value,
        samples: 1,
        elements_per_sample: elements,
        ..like(metric)
    })
    .collect()
}
