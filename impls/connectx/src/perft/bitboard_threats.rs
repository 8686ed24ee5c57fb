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
    let quiet = moves & !(geo.winning_cells(me) & moves);
    if depth == 2 {
        return two(geo, moves, quiet);
    }
    let mut nodes = 0;
    for cell in each_bit(quiet) {
        let (mover, occupied) = (me | cell, occupied | cell);
        let them = occupied ^ mover;
        nodes += if depth == 3 {
            // The last three plies in this loop: no call, no depth tests.
            let moves = geo.playable(occupied);
            two(geo, moves, moves & !(geo.winning_cells(them) & moves))
        } else {
            search(geo, them, occupied, depth - 1)
        };
    }
    nodes
}

/// perft(2) from a live node with legal `moves`, of which `quiet` do not win.
#[inline(always)]
fn two<B: Bits>(geo: &Geometry<B>, moves: B, quiet: B) -> u64 {
    let replies = u64::from(moves.count_ones());
    u64::from(quiet.count_ones()) * replies - u64::from((quiet & geo.top).count_ones())
}
