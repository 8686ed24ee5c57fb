//! Starts fixed by all 8 symmetries of the square (the empty board, a
//! board with equal corners and equal edges).
//!
//! From such a start, `σ` maps the paths to `b` one-to-one onto the paths to
//! `σb`, so `front` can keep one board per orbit holding the orbit's total
//! path count `T` — one `u64` a depth, where [`Orbit`](super::orient::Orbit)
//! needs 8 counts. Expanding a representative `y` and adding `T(y)` to the
//! orbit of each child moves exactly the paths of the whole orbit, and an
//! orbit's share of the answer is `T · Σ_σ hash(σb) / 8`: the division is
//! exact over the integers, so the sums are kept mod 2^64 and shifted right
//! by 3 once at the end, exact mod 2^61.

use super::merge::{Lane, Merge};
use super::orient::{Orient, weighted};
use crate::dihedral::apply;

/// The symmetries (indices 0..8, identity first) that leave `root`
/// unchanged.
pub(super) fn stabiliser(root: u32) -> Vec<u32> {
    (0..8).filter(|&s| apply(root, s) == root).collect()
}

impl Lane for u64 {
    #[inline(always)]
    fn add(self, other: u64) -> u64 {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn add_moved(self, parent: u64, _: u32) -> u64 {
        self.wrapping_add(parent)
    }
}

/// Orbit totals under all 8 symmetries, for a start they all fix.
pub(super) struct Full {
    /// `Σ_σ hash(σb)` as a weighted digit sum of `b`.
    weights: [u64; 9],
}

impl Full {
    pub(super) fn new() -> Full {
        Full {
            weights: Orient([1; 8]).weights(),
        }
    }
}

impl Merge for Full {
    type Lane = u64;
    type Score = u64;
    fn root(&self, _: u32) -> u64 {
        1
    }
    #[inline(always)]
    fn score(&self, lane: u64) -> u64 {
        lane
    }
    #[inline(always)]
    fn scored(&self, total: &u64, b: u32) -> u64 {
        total.wrapping_mul(weighted(&self.weights, b))
    }
    fn finish(&self, total: u64) -> u32 {
        (total >> 3) as u32
    }
}
