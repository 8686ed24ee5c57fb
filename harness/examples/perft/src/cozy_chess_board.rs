//! cozy-chess's `Board`: legal moves handed out a piece at a time to a
//! callback, played on a clone.

use crate::Chessboard;
use cozy_chess::Board;

impl Chessboard for Board {
    const CRATE: &'static str = "cozy-chess";
    fn from_fen(fen: &str) -> Result<Self, String> {
        Board::from_fen(fen, false).map_err(|e| e.to_string())
    }
    fn count_moves(&self) -> u64 {
        let mut moves = 0;
        self.generate_moves(|piece_moves| {
            moves += piece_moves.len() as u64;
            false
        });
        moves
    }
    fn for_each_child(&self, mut visit: impl FnMut(&Self)) {
        self.generate_moves(|piece_moves| {
            for m in piece_moves {
                let mut child = self.clone();
                child.play_unchecked(m);
                visit(&child);
            }
            false
        });
    }
}
