//! shakmaty's `Chess`: a legal move list, played on a clone.

use crate::Chessboard;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

impl Chessboard for Chess {
    const CRATE: &'static str = "shakmaty";
    fn from_fen(fen: &str) -> Result<Self, String> {
        let fen = Fen::from_ascii(fen.as_bytes()).map_err(|e| e.to_string())?;
        fen.into_position(CastlingMode::Standard)
            .map_err(|e| e.to_string())
    }
    fn count_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }
    fn for_each_child(&self, mut visit: impl FnMut(&Self)) {
        for m in self.legal_moves() {
            let mut child = self.clone();
            child.play_unchecked(m);
            visit(&child);
        }
    }
}
