//! DFS on the 3-bit SWAR board: an explicit stack instead of recursion, SWAR
//! move generation, and an open-addressing cache from (board, remaining
//! depth) to the hash sum. No symmetry: symmetric boards are cached apart.

use crate::cellsums::spread_hash;
use crate::dfs::{self, Flavor};
use crate::{Board, Solver};

/// Explicit-stack DFS with a (board, depth) → hash-sum cache.
pub struct Swar;

impl Solver for Swar {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        dfs::solve(&HashSums, depth, board)
    }
}

/// Values are plain hash sums; the key is the board itself.
struct HashSums;

impl Flavor for HashSums {
    type Value = u32;
    const ZERO: u32 = 0;

    #[inline(always)]
    fn key(&self, child: u32) -> (u32, u32) {
        (child, 0)
    }

    #[inline(always)]
    fn add_leaves(&self, acc: &mut u32, wide: u64) {
        *acc = acc.wrapping_add(spread_hash(wide));
    }

    #[inline(always)]
    fn add_value(&self, acc: &mut u32, value: &u32, _sym: u32) {
        *acc = acc.wrapping_add(*value);
    }

    #[inline(always)]
    fn answer(&self, value: &u32) -> u32 {
        *value
    }
}
