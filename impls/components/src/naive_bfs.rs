//! The oracle: textbook breadth-first search over a 72-cell array with an explicit queue and a
//! visited array. Slow and obviously right; every other variant is checked against it.

use crate::bits::neighbours;
use crate::{Board, Components, Labeler};

/// Textbook BFS labelling, the oracle.
#[derive(Clone, Copy, Debug, Default)]
pub struct NaiveBfs;

impl Labeler for NaiveBfs {
    fn label(&self, board: Board, out: &mut Components) {
        out.clear();
        let mut cell = [false; Board::CELLS];
        for (i, c) in cell.iter_mut().enumerate() {
            *c = board.bits() >> i & 1 == 1;
        }
        let mut visited = [false; Board::CELLS];
        let mut queue = [0usize; Board::CELLS];
        // Scanning starts in index order, so components come out sorted by lowest cell.
        for start in 0..Board::CELLS {
            if !cell[start] || visited[start] {
                continue;
            }
            visited[start] = true;
            queue[0] = start;
            let (mut head, mut tail) = (0, 1);
            let mut mask = 0u128;
            while head < tail {
                let i = queue[head];
                head += 1;
                mask |= 1 << i;
                for n in neighbours(i).into_iter().flatten() {
                    if cell[n] && !visited[n] {
                        visited[n] = true;
                        queue[tail] = n;
                        tail += 1;
                    }
                }
            }
            out.push(mask);
        }
    }
}
