//! SWAR move generation on the spiral-packed board: every capture of the
//! board is found at once with field-wise saturating adds on the whole `u32`
//! (no per-cell loop), then the moves are emitted from bit masks.
//!
//! Ring position `k` has ring neighbours `k - 1` and `k + 1`; rotating the
//! ring by one field lines every cell up with a neighbour, so one
//! `add_saturate` sums a neighbour pair for all 8 ring cells. Edges (odd
//! positions) also touch the centre, which is broadcast to every field.

use crate::packed::{HIGH, LOW, RING_BITS, add_saturate, seven_fields, zero_fields};

/// High bits of the 8 ring fields.
pub(crate) const RING_HIGH: u32 = HIGH & RING_BITS;
/// High bits of the edge fields (odd ring positions).
pub(crate) const EDGE_HIGH: u32 = 0o4040_4040;
/// The 4 edge fields.
pub(crate) const EDGE_FIELDS: u32 = 0o7070_7070;
/// The lowest bit of each ring field.
pub(crate) const RING_LOW: u32 = LOW & RING_BITS;
/// High bit of the centre field.
pub(crate) const CENTRE_HIGH: u32 = 1 << 26;

/// Rotates the ring (a value with no centre bits) by `n` fields, so the die at
/// position `k` moves to `k + n`.
#[inline(always)]
const fn rot(ring: u32, n: u32) -> u32 {
    ((ring << (3 * n)) | (ring >> (24 - 3 * n))) & RING_BITS
}

/// Per high-bit index `t = 3k + 2`: the field mask of position `k`.
pub(crate) const FIELD: [u32; 27] = tables(0);
/// Per `t`: both ring neighbours of `k`.
pub(crate) const CLEAR_LR: [u32; 27] = tables(1);
/// Per `t`: the left ring neighbour and the centre.
pub(crate) const CLEAR_LC: [u32; 27] = tables(2);
/// Per `t`: the right ring neighbour and the centre.
pub(crate) const CLEAR_RC: [u32; 27] = tables(3);
/// Per `t`: both ring neighbours and the centre.
pub(crate) const CLEAR_LRC: [u32; 27] = tables(4);
/// Per `t` (an edge): itself and the edge two steps clockwise.
pub(crate) const CLEAR_ADJ: [u32; 27] = tables(5);
/// Per `t` (an edge): itself and the opposite edge.
pub(crate) const CLEAR_OPP: [u32; 27] = tables(6);
/// Per `t` (an edge): itself and the next two edges clockwise.
pub(crate) const CLEAR_TRI: [u32; 27] = tables(7);

/// The field mask of ring position `p mod 8`.
const fn f(p: usize) -> u32 {
    7 << (3 * (p % 8))
}

const fn tables(kind: u32) -> [u32; 27] {
    let mut out = [0; 27];
    let mut k = 0;
    while k < 8 {
        let centre = 7 << 24;
        out[3 * k + 2] = match kind {
            0 => f(k),
            1 => f(k + 7) | f(k + 1),
            2 => f(k + 7) | centre,
            3 => f(k + 1) | centre,
            4 => f(k + 7) | f(k + 1) | centre,
            5 => f(k) | f(k + 2),
            6 => f(k) | f(k + 4),
            _ => f(k) | f(k + 2) | f(k + 4),
        };
        k += 1;
    }
    out[26] = 7 << 24;
    out
}

/// Calls `f(t)` for each set bit `t` of `mask`.
#[inline(always)]
fn each_bit(mut mask: u32, mut f: impl FnMut(usize)) {
    while mask != 0 {
        f(mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
}

/// The most moves any board has.
const MAX_MOVES: usize = 16;

/// The children of a board in move order, held in an array: for callers
/// whose per-child work needs borrows an `emit` closure cannot take, or is
/// too large to inline at every place a move is found.
pub(crate) struct Children {
    boards: [u32; MAX_MOVES],
    len: usize,
}

impl Children {
    /// The children of the non-full packed board `x` (see [`for_each_move`]).
    #[inline(always)]
    pub(crate) fn of(x: u32) -> Children {
        let mut c = Children {
            boards: [0; MAX_MOVES],
            len: 0,
        };
        for_each_child(x, |child| {
            c.boards[c.len] = child;
            c.len += 1;
        });
        c
    }

    /// The children.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.boards[..self.len]
    }
}

/// Calls `emit` with every child of the non-full packed board `x`, one per
/// move (the same child may come twice through different moves).
#[inline(always)]
pub(crate) fn for_each_child(x: u32, mut emit: impl FnMut(u32)) {
    for_each_move(x, |child, _| emit(child));
}

/// [`for_each_child`], with the number of dice each move captures (0 for a
/// placement, else 2 to 4): a caller that groups boards by dice sum and
/// count knows the child's group without looking at it.
#[inline(always)]
pub(crate) fn for_each_move(x: u32, mut emit: impl FnMut(u32, usize)) {
    let empty = zero_fields(x);
    let ring = x & RING_BITS;
    let ring_empty = empty & RING_HIGH;
    // Die of the left (k - 1) and right (k + 1) neighbour at each position k.
    let left = rot(ring, 1);
    let right = rot(ring, 7);
    let has_left = !zero_fields(left) & RING_HIGH;
    let has_right = !zero_fields(right) & RING_HIGH;
    let lr = add_saturate(left, right);
    let ok_lr = ring_empty & has_left & has_right & !seven_fields(lr);
    each_bit(ok_lr, |t| emit((x & !CLEAR_LR[t]) | (lr & FIELD[t]), 2));
    let mut captured = ok_lr;

    let centre = x >> 24;
    if centre != 0 {
        // Edges can also capture with the centre.
        let edge_empty = ring_empty & EDGE_HIGH;
        let c = centre * RING_LOW;
        let lc = add_saturate(left, c);
        let rc = add_saturate(right, c);
        let lrc = add_saturate(lr, c);
        let ok_lc = edge_empty & has_left & !seven_fields(lc);
        let ok_rc = edge_empty & has_right & !seven_fields(rc);
        let ok_lrc = edge_empty & has_left & has_right & !seven_fields(lrc);
        each_bit(ok_lc, |t| emit((x & !CLEAR_LC[t]) | (lc & FIELD[t]), 2));
        each_bit(ok_rc, |t| emit((x & !CLEAR_RC[t]) | (rc & FIELD[t]), 2));
        each_bit(ok_lrc, |t| emit((x & !CLEAR_LRC[t]) | (lrc & FIELD[t]), 3));
        captured |= ok_lc | ok_rc | ok_lrc;
    } else {
        captured |= centre_captures(x, &mut emit);
    }
    each_bit(empty & !captured, |t| emit(x | 1 << (t - 2), 0));
}

/// Emits the captures at the empty centre; returns `CENTRE_HIGH` when there
/// was at least one. Each sum is computed at an edge position `k` and moved
/// to the centre.
#[inline(always)]
fn centre_captures(x: u32, emit: &mut impl FnMut(u32, usize)) -> u32 {
    let edges = x & EDGE_FIELDS;
    let has = !zero_fields(edges) & EDGE_HIGH;
    // Edges two and four steps clockwise of k, lined up at k.
    let next = rot(edges, 6);
    let opposite = rot(edges, 4);
    let has_next = rot(has, 6);
    let has_opposite = rot(has, 4);
    let adj = add_saturate(edges, next);
    let opp = add_saturate(edges, opposite);
    let tri = add_saturate(adj, opposite);
    let quad = add_saturate(adj, rot(adj, 4));
    let ok_adj = has & has_next & !seven_fields(adj);
    // Opposite pairs and the quad would repeat at k + 4: keep k = 1 (and 3).
    let ok_opp = has & has_opposite & !seven_fields(opp) & 0o4040;
    let ok_tri = has & has_next & has_opposite & !seven_fields(tri);
    let ok_quad = has & has_next & has_opposite & rot(has_next, 4) & !seven_fields(quad) & 0o40;
    let to_centre = |sums: u32, t: usize| ((sums >> (t - 2)) & 7) << 24;
    each_bit(ok_adj, |t| emit((x & !CLEAR_ADJ[t]) | to_centre(adj, t), 2));
    each_bit(ok_opp, |t| emit((x & !CLEAR_OPP[t]) | to_centre(opp, t), 2));
    each_bit(ok_tri, |t| emit((x & !CLEAR_TRI[t]) | to_centre(tri, t), 3));
    each_bit(ok_quad, |t| {
        emit((x & !EDGE_FIELDS) | to_centre(quad, t), 4)
    });
    if ok_adj | ok_opp | ok_tri | ok_quad != 0 {
        CENTRE_HIGH
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::inputs::SplitMix64;
    use crate::moves;
    use crate::packed::{is_full, pack};

    fn children(x: u32, generate: impl Fn(u32, &mut dyn FnMut(u32))) -> Vec<u32> {
        let mut v = Vec::new();
        generate(x, &mut |c| v.push(c));
        v.sort_unstable();
        v
    }

    #[test]
    fn matches_subset_enumeration() {
        let mut rng = SplitMix64::new(7);
        for i in 0..200_000 {
            // Mix dense and sparse boards: each cell is empty with a
            // probability that varies from board to board.
            let empty_odds = (i % 7) as u64 + 1;
            let cells: [u8; 9] = std::array::from_fn(|_| {
                let r = rng.next_u64();
                if r % 8 < empty_odds {
                    0
                } else {
                    1 + ((r >> 8) % 6) as u8
                }
            });
            let x = pack(Board::from_cells(cells).unwrap());
            if is_full(x) {
                continue;
            }
            let fast = children(x, |b, f| for_each_child(b, f));
            let slow = children(x, |b, f| moves::for_each_child(b, f));
            assert_eq!(fast, slow, "board {x:o}");
            assert!(fast.len() <= MAX_MOVES);
            for_each_move(x, |child, captured| {
                let dice = |b: u32| (!zero_fields(b) & HIGH).count_ones() as usize;
                assert_eq!(
                    dice(child) + captured,
                    dice(x) + 1,
                    "board {x:o} child {child:o}"
                );
            });
        }
    }
}
