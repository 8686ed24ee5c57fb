//! Breadth-first, one depth at a time: the boards reached after `d` moves,
//! each with the number of paths reaching it (mod 2^32), duplicates merged.
//! Paths that fill the board leave the frontier with their count; after the
//! last level the answer is the count-weighted sum of the hashes.

use std::collections::HashMap;

use crate::packed::{MAX_GAME, hash, is_full, pack};
use crate::table::MulHash;
use crate::{ANSWER_MASK, Board, Solver, moves};

/// Level-by-level search with merged path counts.
pub struct Bfs;

type Level<N> = HashMap<u32, N, MulHash>;

/// Expands a frontier by one move: `finished` gets each full child with its
/// count, the returned frontier the rest, merged.
fn step<N: Copy + Default + std::ops::AddAssign>(
    level: &Level<N>,
    mut finished: impl FnMut(u32, N),
) -> Level<N> {
    let mut next = Level::with_capacity_and_hasher(2 * level.len(), MulHash);
    for (&board, &n) in level {
        moves::for_each_child(board, |child| {
            if is_full(child) {
                finished(child, n);
            } else {
                *next.entry(child).or_default() += n;
            }
        });
    }
    next
}

/// The frontier before the first move: the board, unless it is full.
fn start<N: Default>(root: u32, one: N) -> Level<N> {
    let mut level = Level::default();
    if !is_full(root) {
        level.insert(root, one);
    }
    level
}

impl Solver for Bfs {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        let root = pack(board);
        if is_full(root) {
            return hash(root) & ANSWER_MASK;
        }
        let mut total = 0u32;
        let mut level = start(root, std::num::Wrapping(1u32));
        for _ in 0..depth.min(MAX_GAME) {
            level = step(&level, |b, n| {
                total = total.wrapping_add(n.0.wrapping_mul(hash(b)))
            });
        }
        for (&b, n) in &level {
            total = total.wrapping_add(n.0.wrapping_mul(hash(b)));
        }
        total & ANSWER_MASK
    }
}

/// Saturating path counter for [`path_count`].
#[derive(Clone, Copy, Default)]
struct Count(u64);

impl std::ops::AddAssign for Count {
    fn add_assign(&mut self, other: Count) {
        self.0 = self.0.saturating_add(other.0);
    }
}

/// See [`crate::path_count`]. The number of paths alive or finished never
/// drops from one level to the next, so the count can stop at `limit`.
pub(crate) fn path_count(depth: u32, board: Board, limit: u64) -> Option<u64> {
    let mut finished = Count(if is_full(pack(board)) { 1 } else { 0 });
    let mut level = start(pack(board), Count(1));
    for _ in 0..depth.min(MAX_GAME) {
        if level.is_empty() {
            break;
        }
        level = step(&level, |_, n| finished += n);
        let mut alive = finished;
        level.values().for_each(|&n| alive += n);
        if alive.0 > limit {
            return None;
        }
    }
    let mut total = finished;
    level.values().for_each(|&n| total += n);
    (total.0 <= limit).then_some(total.0)
}
