//! Bulk-counting bitboard perft: at the last ply the legal moves are
//! counted with one popcount of `mask + bottom` instead of being played.
//!
//! Leaves are most of a perft tree (about W times the interior), so
//! skipping them removes most of the work of [`super::bitboard`].

use crate::bits::each_bit;
use crate::position::by_word;
use crate::{Bits, Geometry, Perft, Position};

/// Bitboard perft with bulk counting at the last ply (see the module docs).
pub struct BitboardBulk;

impl Perft for BitboardBulk {
    fn perft(&self, position: &Position, depth: u32) -> u64 {
        by_word!(position.config(), B => super::root::<B>(position, depth, search::<B>))
    }
}

/// Counts from a live node, `depth >= 1`: `me` are the stones of the player
/// to move.
fn search<B: Bits>(geo: &Geometry<B>, me: B, occupied: B, depth: u32) -> u64 {
    let moves = geo.playable(occupied);
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut nodes = 0;
    for cell in each_bit(moves) {
        let (mover, occupied) = (me | cell, occupied | cell);
        if !geo.has_line(mover) {
            nodes += search(geo, occupied ^ mover, occupied, depth - 1);
        }
    }
    nodes
}
