//! Bitmask search: the board is a `u64` (one bit per cell, plus one bit per
//! used piece) and every placement is precomputed as a mask, grouped by its
//! lowest cell and piece, so trying a placement is one AND. Same search tree
//! as the naive oracle, far less work per node.

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::search::{ByAnchor, placement_bits, solve_with};

/// The bitmask search.
pub struct Bitmask {
    table: ByAnchor<u64>,
}

impl Bitmask {
    /// Builds the placement table.
    pub fn new() -> Bitmask {
        Bitmask {
            table: ByAnchor::new(|_| true, |p| placement_bits(p.piece, p.mask())),
        }
    }
}

impl Default for Bitmask {
    fn default() -> Self {
        Bitmask::new()
    }
}

impl Solver for Bitmask {
    fn solve(&self, board: &PartialBoard, limit: usize) -> Solutions {
        solve_with(&self.table, board, limit, false)
    }
}
