//! The SWAR DFS with a symmetric cache: a board is cached under its
//! canonical form (the smallest of its 8 images), so symmetric boards share
//! one entry. The cached value is the 9 per-cell digit sums rather than one
//! hash sum, because sums can be permuted back to the child's orientation
//! while a hash sum cannot.

use crate::cellsums::{CellSums, add_spread, hash_sum, row_major};
use crate::dfs::{self, Flavor};
use crate::dihedral::{SOURCE, canonical};
use crate::{Board, Solver};

/// Explicit-stack DFS with a canonical-board cache of per-cell digit sums.
pub struct Sym;

impl Sym {
    /// The per-cell digit sums over all paths' final boards, row-major:
    /// entry `i` is the sum of cell `i`'s die (mod 2^32). The answer is their
    /// dot product with the decimal weights 10^8, 10^7, ..., 1.
    pub fn cell_sums(&self, depth: u32, board: Board) -> [u32; 9] {
        row_major(&dfs::value(&Symmetric, depth, board))
    }
}

impl Solver for Sym {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        dfs::solve(&Symmetric, depth, board)
    }
}

/// Scalar canonical keys and per-cell sums.
pub(crate) struct Symmetric;

impl Flavor for Symmetric {
    type Value = CellSums;
    const ZERO: CellSums = [0; 9];

    #[inline(always)]
    fn key(&self, child: u32) -> (u32, u32) {
        canonical(child)
    }

    #[inline(always)]
    fn add_leaves(&self, acc: &mut CellSums, wide: u64) {
        add_spread(acc, wide);
    }

    #[inline(always)]
    fn add_value(&self, acc: &mut CellSums, value: &CellSums, sym: u32) {
        // The key board is the child under `sym`, and digit sums move like
        // digits: the key's position k is the child's position SOURCE[sym][k].
        for (k, &from) in SOURCE[sym as usize].iter().enumerate() {
            acc[from] = acc[from].wrapping_add(value[k]);
        }
        acc[8] = acc[8].wrapping_add(value[8]);
    }

    #[inline(always)]
    fn answer(&self, value: &CellSums) -> u32 {
        hash_sum(value)
    }
}
