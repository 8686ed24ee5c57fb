//! Solvers for the Meteor puzzle of the Computer Language Benchmarks Game:
//! cover a 10×5 hexagonal board with ten five-cell pieces (2098 solutions).
//!
//! Every variant implements [`Solver`] and counts the completions of a
//! [`PartialBoard`], reporting the smallest and largest solution found and the
//! search nodes it visited; [`variants`] lists them, the oracle first.

// docs.rs labels each item with the feature or target it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod board;
pub mod geometry;
pub mod inputs;

mod bitmask;
mod endgame;
mod islands;
mod naive;
mod parallel;
mod rng;
mod search;
mod symmetric;

pub use bitmask::Bitmask;
pub use board::{ParseError, PartialBoard, Puzzle, Solution, Solutions};
pub use endgame::Endgame;
pub use islands::Islands;
pub use naive::Naive;
pub use parallel::Parallel;
pub use symmetric::Symmetric;

/// A Meteor solver.
///
/// # The limit
/// `solve(board, limit)` searches the completions of `board` and stops as soon
/// as it has found at least `limit` solutions (`limit == 0` searches nothing).
/// `count` is exactly the number of solutions it found, which may exceed
/// `limit` when a variant finds several at once (`symmetric` finds a solution
/// and its 180° turn together; `parallel` threads finish what they were doing).
/// `min` and `max` are the smallest and largest of the solutions found, so:
/// - `count < limit` means the search was exhaustive: `count` is the number of
///   completions and `min`/`max` are the true extremes, identical in every variant;
/// - otherwise `limit <= count <= completions`, and `min`/`max` are extremes of
///   whichever solutions this variant happened to find first.
pub trait Solver: Send + Sync {
    /// Finds completions of `board` (see the trait docs for `limit`).
    fn solve(&self, board: &PartialBoard, limit: usize) -> Solutions;
}

/// One implementation in the registry.
pub struct Variant {
    /// Short name, as used on the command line.
    pub name: &'static str,
    /// One line on the idea.
    pub description: &'static str,
    /// CPU features it needs (none of the Meteor variants needs any).
    pub features: &'static [&'static str],
    /// Builds the solver (and its tables), or `None` when the CPU lacks `features`.
    pub make: fn() -> Option<Box<dyn Solver>>,
}

/// Every variant, the oracle (`naive`) first, then roughly slowest to fastest.
pub fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "naive",
            description: "cell array, fill the lowest empty cell with every piece and orientation, no pruning (oracle)",
            features: &[],
            make: || Some(Box::new(Naive::new())),
        },
        Variant {
            name: "bitmask",
            description: "u64 board, placements precomputed per (lowest cell, piece)",
            features: &[],
            make: || Some(Box::new(Bitmask::new())),
        },
        Variant {
            name: "islands",
            description: "bitmask + dead-region pruning with regions precomputed per placement",
            features: &[],
            make: || Some(Box::new(Islands::new())),
        },
        Variant {
            name: "symmetric",
            description: "islands + 180° symmetry: search half the empty board, record each solution turned too",
            features: &[],
            make: || Some(Box::new(Symmetric::new())),
        },
        Variant {
            name: "endgame",
            description: "symmetric, with the last five pieces looked up: a per-search cache of which piece sets tile each region left",
            features: &[],
            make: || Some(Box::new(Endgame::new())),
        },
        Variant {
            name: "parallel",
            description: "endgame split over threads at the top of the search tree, one cache shared by all (rayon)",
            features: &[],
            make: || Some(Box::new(Parallel::new())),
        },
    ]
}
