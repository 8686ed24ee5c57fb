//! Breadth-first search per starting index, with the unvisited cells kept as a bitboard (the
//! seed's `GetComponentsBFS`). The bitboard replaces the visited array and finds each next
//! start with one trailing-zeros count.

use crate::bits::neighbours;
use crate::{Board, Components, Labeler};

/// BFS over a bitboard of remaining cells.
#[derive(Clone, Copy, Debug, Default)]
pub struct BitBfs;

impl Labeler for BitBfs {
    fn label(&self, board: Board, out: &mut Components) {
        out.clear();
        let mut remaining = board.bits();
        let mut queue = [0u8; Board::CELLS];
        while remaining != 0 {
            let start = remaining.trailing_zeros() as usize;
            remaining &= remaining - 1;
            queue[0] = start as u8;
            let (mut head, mut tail) = (0, 1);
            let mut mask = 0u128;
            while head < tail {
                let i = queue[head] as usize;
                head += 1;
                mask |= 1 << i;
                for n in neighbours(i).into_iter().flatten() {
                    if remaining >> n & 1 == 1 {
                        remaining &= !(1 << n);
                        queue[tail] = n as u8;
                        tail += 1;
                    }
                }
            }
            out.push(mask);
        }
    }
}
