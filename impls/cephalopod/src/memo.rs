//! Recursive DFS with memoisation in a std `HashMap` keyed by (board,
//! remaining depth). The simplest way to stop recomputing the many paths that
//! reach the same board with the same number of moves left.

use std::collections::HashMap;

use crate::packed::{MAX_GAME, hash, is_full, pack};
use crate::table::MulHash;
use crate::{ANSWER_MASK, Board, Solver, moves};

/// Recursive DFS with a (board, depth) → hash-sum `HashMap`.
pub struct Memo;

type Cache = HashMap<(u32, u32), u32, MulHash>;

impl Solver for Memo {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        let mut cache = Cache::default();
        sum_paths(pack(board), depth.min(MAX_GAME), &mut cache) & ANSWER_MASK
    }
}

fn sum_paths(board: u32, depth: u32, cache: &mut Cache) -> u32 {
    if depth == 0 || is_full(board) {
        return hash(board);
    }
    if let Some(&sum) = cache.get(&(board, depth)) {
        return sum;
    }
    let mut sum = 0u32;
    moves::for_each_child(board, |child| {
        sum = sum.wrapping_add(sum_paths(child, depth - 1, cache));
    });
    cache.insert((board, depth), sum);
    sum
}
