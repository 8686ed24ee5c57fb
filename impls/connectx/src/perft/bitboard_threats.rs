//! Threat-based bitboard perft: one pass of shifts finds every cell where
//! the side to move would complete K in a row, which replaces the win test
//! of each child and lets the last two plies be counted without playing.
//!
//! With `wins` the playable winning cells, `L` the legal moves and `top` the
//! top row, perft(2) = |quiet|·L − |quiet ∩ top| where quiet = moves − wins:
//! a quiet move leaves L replies, one fewer when it filled its column.

use crate::bits::each_bit;
use crate::position::by_word;
use crate::{Bits, Geometry, Perft, Position};

/// Bitboard perft with a winning-cell mask per node (see the module docs).
pub struct BitboardThreats;

impl Perft for BitboardThreats {
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
    let wins = geo.winning_cells(me) & moves;
    let quiet = moves & !wins;
    if depth == 2 {
        let replies = u64::from(moves.count_ones());
        return u64::from(quiet.count_ones()) * replies - u64::from((quiet & geo.top).count_ones());
    }
    let mut nodes = 0;
    for cell in each_bit(quiet) {
        let (mover, occupied) = (me | cell, occupied | cell);
        nodes += search(geo, occupied ^ mover, occupied, depth - 1);
    }
    nodes
}
