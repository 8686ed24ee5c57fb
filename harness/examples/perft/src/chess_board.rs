//! The `chess` crate's `Board`: a legal move iterator, each move made into
//! a new board.

use crate::Chessboard;
use chess::{Board, MoveGen};

impl Chessboard for Board {
    const CRATE: &'static str = "chess";
    fn from_fen(fen: &str) -> Result<Self, String> {
        fen.parse().map_err(|e: chess::Error| e.to_string())
    }
    fn count_moves(&self) -> u64 {
        MoveGen::new_legal(self).len() as u64
    }
    fn for_each_child(&self, mut visit: impl FnMut(&Self)) {
        for m in MoveGen::new_legal(self) {
            visit(&self.make_move_new(m));
        }
    }
}
