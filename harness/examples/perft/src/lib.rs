//! Chess perft with three published crates, measured with bitbench: the
//! worked example of comparing crates that do one job.
//!
//! Perft counts the leaves of the legal move tree to a depth; every chess
//! move generator is tested with it, and the counts for a few positions
//! are published, so it is the job these crates share. They share no
//! board type, though: the one input all of them read is a FEN, text. So
//! each variant is `bitbench::prepared`: it reads the FEN into its crate's
//! board outside the timer and counts from that, and the reading is
//! reported on its own as the `prepare` metric ([`variants`]).
//!
//! Every crate runs the same search, [`perft`], over the small
//! [`Chessboard`] trait: the times compare the crates' move generators,
//! not three ways of writing perft. [`workload`] tells bitbench about the
//! variants, the positions and the text format; `main.rs` is one line.

mod chess_board;
mod cozy_chess_board;
pub mod positions;
mod shakmaty_board;
pub mod variants;
pub mod workload;

pub use workload::PERFT;

/// One input: a position as a FEN, and the depth to count to.
pub type Input = (String, u32);

/// A crate's board as perft uses it: read from a FEN, its legal moves
/// counted, and each one played on a copy.
pub trait Chessboard: Sized + Send + Sync + 'static {
    /// The crate's name, for messages.
    const CRATE: &'static str;
    /// Reads a FEN with all six fields.
    fn from_fen(fen: &str) -> Result<Self, String>;
    /// The number of legal moves.
    fn count_moves(&self) -> u64;
    /// Calls `visit` with the position after each legal move.
    fn for_each_child(&self, visit: impl FnMut(&Self));
}

/// The leaves of the legal move tree `depth` plies deep: at the last ply
/// the moves are counted, not played (bulk counting, as each crate's own
/// perft does).
pub fn perft<B: Chessboard>(board: &B, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_moves(),
        _ => {
            let mut leaves = 0;
            board.for_each_child(|child| leaves += perft(child, depth - 1));
            leaves
        }
    }
}
