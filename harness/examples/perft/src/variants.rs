//! The registry: one variant per crate, each reading the FEN into its own
//! board outside the timer, and one that reads it inside, to show what
//! that preparation takes out of the timed region.

use crate::{Chessboard, Input, perft};
use bitbench::Solve;

/// One way to count, as the command line names it.
pub struct Variant {
    /// Short name, as used on the command line.
    pub name: &'static str,
    /// One line on what it runs.
    pub description: &'static str,
    /// Builds it.
    pub make: fn() -> Box<dyn Solve<Input, u64>>,
}

/// Every variant, the oracle first.
pub fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "shakmaty",
            description: "shakmaty's Chess: a legal move list, each move played on a clone (the oracle)",
            make: prepared::<shakmaty::Chess>,
        },
        Variant {
            name: "cozy-chess",
            description: "cozy-chess's Board: legal moves a piece at a time to a callback",
            make: prepared::<cozy_chess::Board>,
        },
        Variant {
            name: "chess",
            description: "the chess crate's Board: a legal move iterator, make_move_new",
            make: prepared::<chess::Board>,
        },
        Variant {
            name: "shakmaty-parse-each-time",
            description: "shakmaty, reading the FEN inside the timed region",
            make: parse_each_time::<shakmaty::Chess>,
        },
    ]
}

/// Reads the FEN into `B` outside the timer (bitbench reports that as
/// `prepare`); only the search is timed.
fn prepared<B: Chessboard>() -> Box<dyn Solve<Input, u64>> {
    bitbench::prepared(
        |(fen, depth): &Input| (read::<B>(fen), *depth),
        |(board, depth): &(B, u32)| perft(board, *depth),
    )
}

/// Reads the FEN into `B` inside the timer, as a caller holding text pays.
fn parse_each_time<B: Chessboard>() -> Box<dyn Solve<Input, u64>> {
    Box::new(|(fen, depth): &Input| perft(&read::<B>(fen), *depth))
}

/// `fen` as `B`'s board. Every input is a legal position as shakmaty
/// writes it, so a crate that cannot read one panics, and bitbench
/// reports the panic against that variant.
fn read<B: Chessboard>(fen: &str) -> B {
    B::from_fen(fen).unwrap_or_else(|e| panic!("{} cannot read '{fen}': {e}", B::CRATE))
}
