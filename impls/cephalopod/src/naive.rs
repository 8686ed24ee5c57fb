//! The oracle: a recursive DFS over every path on a plain `[u8; 9]` board,
//! with no cache. It follows the rules as literally as possible and is
//! exponential in the depth, so it only serves small path counts.

use crate::{ANSWER_MASK, Board, Solver};

/// Orthogonal neighbours of each cell, row-major.
const NEIGHBOURS: [&[usize]; 9] = [
    &[1, 3],
    &[0, 2, 4],
    &[1, 5],
    &[0, 4, 6],
    &[1, 3, 5, 7],
    &[2, 4, 8],
    &[3, 7],
    &[4, 6, 8],
    &[5, 7],
];

/// Recursive DFS over every path (the oracle).
pub struct Naive;

impl Solver for Naive {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        sum_paths(board.cells(), depth) & ANSWER_MASK
    }
}

fn hash(cells: &[u8; 9]) -> u32 {
    cells
        .iter()
        .fold(0u32, |h, &c| h.wrapping_mul(10).wrapping_add(u32::from(c)))
}

/// Sum of the hashes of the final boards of every path from `cells`.
fn sum_paths(cells: [u8; 9], depth: u32) -> u32 {
    if depth == 0 || cells.iter().all(|&c| c != 0) {
        return hash(&cells);
    }
    let mut total = 0u32;
    for cell in 0..9 {
        if cells[cell] != 0 {
            continue;
        }
        let neighbours = NEIGHBOURS[cell];
        let mut captured = false;
        // Every subset of the neighbours, as a bit mask over `neighbours`.
        for subset in 1u32..(1 << neighbours.len()) {
            if subset.count_ones() < 2 {
                continue;
            }
            let members = neighbours
                .iter()
                .enumerate()
                .filter(|&(bit, _)| subset & (1 << bit) != 0)
                .map(|(_, &n)| n);
            if members.clone().any(|n| cells[n] == 0) {
                continue;
            }
            let sum: u8 = members.clone().map(|n| cells[n]).sum();
            if sum > 6 {
                continue;
            }
            captured = true;
            let mut child = cells;
            for n in members {
                child[n] = 0;
            }
            child[cell] = sum;
            total = total.wrapping_add(sum_paths(child, depth - 1));
        }
        if !captured {
            let mut child = cells;
            child[cell] = 1;
            total = total.wrapping_add(sum_paths(child, depth - 1));
        }
    }
    total
}
