//! Bitboard perft: `mask + bottom` yields every legal landing cell at once,
//! and the shift-and test checks the mover's stones after each move.
//!
//! Every node, leaves included, is visited with a call, like the list
//! oracle; [`super::bitboard_bulk`] shows what skipping the leaves saves.

use crate::bits::each_bit;
use crate::position::by_word;
use crate::{Bits, Geometry, Perft, Position};

/// Bitboard perft visiting every node (see the module docs).
pub struct Bitboard;

impl Perft for Bitboard {
    fn perft(&self, position: &Position, depth: u32) -> u64 {
        by_word!(position.config(), B => super::root::<B>(position, depth, search::<B>))
    }
}

/// Counts from a live node: `me` are the stones of the player to move.
fn search<B: Bits>(geo: &Geometry<B>, me: B, occupied: B, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for cell in each_bit(geo.playable(occupied)) {
        let (mover, occupied) = (me | cell, occupied | cell);
        // A won game stops; a full board needs no test (it has no moves).
        if depth == 1 || !geo.has_line(mover) {
            nodes += search(geo, occupied ^ mover, occupied, depth - 1);
        }
    }
    nodes
}
