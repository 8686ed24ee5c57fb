//! Perft variants, one file per algorithm.
//!
//! perft(d) is the number of legal move sequences of length d from a
//! position in which no proper prefix ended the game: a win or a full board
//! stops the game, and a winning move still counts as a leaf at its own
//! depth. So perft(0) = 1 always, and perft(d > 0) = 0 from a finished game.

pub mod bitboard;
pub mod bitboard_bulk;
pub mod bitboard_threats;
pub mod list;

use crate::position::outcome;
use crate::{Bits, Geometry, Position};

/// A bitboard search from a live node: the stones of the player to move,
/// all occupied cells, and the remaining depth (at least 1).
pub(crate) type Search<B> = fn(&Geometry<B>, B, B, u32) -> u64;

/// The shared root of the bitboard searches: handles depth 0 and finished
/// games, then hands the live position to `search`.
pub(crate) fn root<B: Bits>(position: &Position, depth: u32, search: Search<B>) -> u64 {
    let geo = Geometry::<B>::new(position.config());
    let stones = position.stones::<B>();
    if depth == 0 {
        return 1;
    }
    if outcome(&geo, stones, position.plies()).is_some() {
        return 0;
    }
    search(
        &geo,
        stones[position.plies() % 2],
        stones[0] | stones[1],
        depth,
    )
}
