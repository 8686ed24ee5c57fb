//! Island-pruned search that uses the board's 180° symmetry: turning a
//! solution of the empty board gives another solution, never the same one
//! (no piece looks the same turned by 180°). So one piece keeps only the six
//! orientations whose 180° turn is dropped, the search finds one solution of
//! every pair, and each is recorded together with its turned twin.
//!
//! A board with any piece on it is not symmetric (that piece would have to map
//! onto itself), so partial boards fall back to the full island search, whose
//! table is built the first time such a board comes (the empty board, the
//! benchmark's, never needs it: half the set-up saved).

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::geometry::{PIECES, Placement, placements};
use crate::islands::{IslandTable, table};
use crate::search::solve_with;
use std::sync::OnceLock;

/// The symmetric search.
pub struct Symmetric {
    full: OnceLock<IslandTable>,
    half: IslandTable,
}

impl Symmetric {
    /// Builds the empty board's placement table. The piece with the most
    /// placements keeps half its orientations: it prunes the most.
    pub fn new() -> Symmetric {
        let all = placements();
        let breaker = (0..PIECES as u8)
            .max_by_key(|&p| all.iter().filter(|pl| pl.piece == p).count())
            .unwrap_or(0);
        let keep = move |p: &Placement| p.piece != breaker || p.orientation % 6 < 3;
        Symmetric {
            full: OnceLock::new(),
            half: table(keep),
        }
    }

    /// The table to search `board` with, and whether every solution found
    /// stands for itself and its 180° turn.
    pub(crate) fn plan(&self, board: &PartialBoard) -> (&IslandTable, bool) {
        if board.is_empty() {
            (&self.half, true)
        } else {
            (self.full.get_or_init(|| table(|_| true)), false)
        }
    }
}

impl Default for Symmetric {
    fn default() -> Self {
        Symmetric::new()
    }
}

impl Solver for Symmetric {
    fn solve(&self, board: &PartialBoard, limit: usize) -> Solutions {
        let (table, turned_too) = self.plan(board);
        solve_with(table, board, limit, turned_too)
    }
}
