//! Move generation for a vector of boards at once, one board a lane, for
//! callers that want every child of many boards listed by the dice its
//! move captured.
//!
//! The bit masks of legal moves are `swarmoves`' SWAR steps, which work
//! within each 32-bit lane alike. What costs `swarmoves` most is what
//! follows: a loop over each mask's set bits, building one child at a
//! time. Here each kind of move (a cell, and the neighbours it captures)
//! builds all lanes' children in one vector, and the lanes where that move
//! is legal are packed to the front and stored at the end of the kind's
//! list. Every kind captures a fixed number of dice, so its list is known
//! in advance.

use crate::lists::{Lists, SLACK};
use crate::packed::{HIGH, LOW2, RING_BITS};
use crate::swarmoves::{
    CENTRE_HIGH, CLEAR_ADJ, CLEAR_LC, CLEAR_LR, CLEAR_LRC, CLEAR_OPP, CLEAR_RC, CLEAR_TRI,
    EDGE_FIELDS, EDGE_HIGH, FIELD, RING_HIGH, RING_LOW,
};
use crate::vector::Lanes;

/// Appends the children of the `L::LANES` packed boards `boards` (full
/// boards have none) to `lists`, their parents numbered from `first` on.
#[inline(always)]
pub(crate) fn moves<L: Lanes>(v: L, boards: &[u32], first: u32, lists: &mut Lists) {
    let mut out = Out::new(v, first, lists);
    let x = v.load(boards);
    let empty = zero_fields(v, x);
    let ring = v.and(x, v.splat(RING_BITS));
    let ring_empty = v.and(empty, v.splat(RING_HIGH));
    // Die of the left (k - 1) and right (k + 1) neighbour at each position k.
    let left = rot(v, ring, 1);
    let right = rot(v, ring, 7);
    let has_left = v.andnot(zero_fields(v, left), v.splat(RING_HIGH));
    let has_right = v.andnot(zero_fields(v, right), v.splat(RING_HIGH));
    let lr = add_saturate(v, left, right);
    let ok_lr = ok(v, v.and(ring_empty, v.and(has_left, has_right)), lr);
    if v.any(ok_lr) {
        for k in 0..8 {
            let t = 3 * k + 2;
            out.emit(1, ok_lr, t, ring_child(v, x, lr, CLEAR_LR[t], t));
        }
    }
    let mut captured = ok_lr;

    // Lanes whose centre holds a die: edges can also capture with it.
    let centre_free = v.eq(v.and(empty, v.splat(CENTRE_HIGH)), v.splat(CENTRE_HIGH));
    let edge_empty = v.andnot(centre_free, v.and(ring_empty, v.splat(EDGE_HIGH)));
    if v.any(edge_empty) {
        let c = v.mul(v.shr(x, 24), v.splat(RING_LOW));
        let lc = add_saturate(v, left, c);
        let rc = add_saturate(v, right, c);
        let lrc = add_saturate(v, lr, c);
        let ok_lc = ok(v, v.and(edge_empty, has_left), lc);
        let ok_rc = ok(v, v.and(edge_empty, has_right), rc);
        let ok_lrc = ok(v, v.and(edge_empty, v.and(has_left, has_right)), lrc);
        for t in [5, 11, 17, 23] {
            out.emit(1, ok_lc, t, ring_child(v, x, lc, CLEAR_LC[t], t));
            out.emit(1, ok_rc, t, ring_child(v, x, rc, CLEAR_RC[t], t));
            out.emit(2, ok_lrc, t, ring_child(v, x, lrc, CLEAR_LRC[t], t));
        }
        captured = v.or(captured, v.or(ok_lc, v.or(ok_rc, ok_lrc)));
    }

    // Lanes whose centre is empty: captures there, of 2 to 4 edges. Each
    // sum is computed at an edge position and moved to the centre.
    let edges = v.and(x, v.splat(EDGE_FIELDS));
    let has = v.and(
        centre_free,
        v.andnot(zero_fields(v, edges), v.splat(EDGE_HIGH)),
    );
    let has_next = rot(v, has, 6);
    let has_opposite = rot(v, has, 4);
    if v.any(v.and(has, v.or(has_next, has_opposite))) {
        let next = rot(v, edges, 6);
        let opposite = rot(v, edges, 4);
        let adj = add_saturate(v, edges, next);
        let opp = add_saturate(v, edges, opposite);
        let tri = add_saturate(v, adj, opposite);
        let quad = add_saturate(v, adj, rot(v, adj, 4));
        let ok_adj = ok(v, v.and(has, has_next), adj);
        // Opposite pairs and the quad would repeat at k + 4: keep k = 1 (and 3).
        let ok_opp = v.and(ok(v, v.and(has, has_opposite), opp), v.splat(0o4040));
        let ok_tri = ok(v, v.and(has, v.and(has_next, has_opposite)), tri);
        let all4 = v.and(
            v.and(has, has_next),
            v.and(has_opposite, rot(v, has_next, 4)),
        );
        let ok_quad = v.and(ok(v, all4, quad), v.splat(0o40));
        for t in [5, 11, 17, 23] {
            out.emit(1, ok_adj, t, centre_child(v, x, adj, CLEAR_ADJ[t], t));
            out.emit(2, ok_tri, t, centre_child(v, x, tri, CLEAR_TRI[t], t));
        }
        for t in [5, 11] {
            out.emit(1, ok_opp, t, centre_child(v, x, opp, CLEAR_OPP[t], t));
        }
        out.emit(3, ok_quad, 5, centre_child(v, x, quad, EDGE_FIELDS, 5));
        let centre = v.or(v.or(ok_adj, ok_opp), v.or(ok_tri, ok_quad));
        let none = v.eq(centre, v.splat(0));
        captured = v.or(captured, v.andnot(none, v.splat(CENTRE_HIGH)));
    }

    let place = v.andnot(captured, empty);
    for k in 0..9 {
        let t = 3 * k + 2;
        out.emit(0, place, t, v.or(x, v.splat(1 << (t - 2))));
    }
    out.finish(lists);
}

/// The boards `x` with the dice of `clear` removed and the sums `sums`
/// (at each ring position) placed at ring position `t`.
#[inline(always)]
fn ring_child<L: Lanes>(v: L, x: L::V, sums: L::V, clear: u32, t: usize) -> L::V {
    v.or(v.andnot(v.splat(clear), x), v.and(sums, v.splat(FIELD[t])))
}

/// The boards `x` with the dice of `clear` removed and the sums `sums`,
/// computed at edge position `t`, placed at the centre.
#[inline(always)]
fn centre_child<L: Lanes>(v: L, x: L::V, sums: L::V, clear: u32, t: usize) -> L::V {
    let sum = v.and(v.shl(sums, 26 - t as u32), v.splat(7 << 24));
    v.or(v.andnot(v.splat(clear), x), sum)
}

/// Where [`moves`] stores: the lists' buffers, and how far each is filled.
struct Out<L: Lanes> {
    v: L,
    boards: [*mut u32; 4],
    parents: [*mut u32; 4],
    len: [usize; 4],
    /// The parent index of each lane.
    ids: L::V,
}

impl<L: Lanes> Out<L> {
    /// Checks that `lists` have room for the children of `L::LANES` boards.
    #[inline(always)]
    fn new(v: L, first: u32, lists: &mut Lists) -> Out<L> {
        for to in 0..4 {
            let room = lists.boards[to].len().min(lists.parents[to].len());
            assert!(
                lists.len[to] + SLACK <= room,
                "room for a vector's children"
            );
        }
        const { assert!(L::LANES * 16 + L::LANES <= SLACK) };
        Out {
            v,
            boards: lists.boards.each_mut().map(|b| b.as_mut_ptr()),
            parents: lists.parents.each_mut().map(|p| p.as_mut_ptr()),
            len: lists.len,
            ids: v.iota(first),
        }
    }

    /// Appends to list `to` the lanes of `child` whose `ok` has bit `t` set.
    #[inline(always)]
    fn emit(&mut self, to: usize, ok: L::V, t: usize, child: L::V) {
        let m = self.v.bit_mask(ok, t as u32);
        let n = self.len[to];
        // SAFETY: `len` grows by at most the boards' children (16 a board),
        // and `new` checked that the lists have that many and a vector's
        // worth past their length.
        unsafe {
            self.v.compress_store(self.boards[to].add(n), child, m);
            self.v.compress_store(self.parents[to].add(n), self.ids, m);
        }
        self.len[to] = n + m.count_ones() as usize;
    }

    #[inline(always)]
    fn finish(self, lists: &mut Lists) {
        lists.len = self.len;
    }
}

/// [`crate::packed::zero_fields`] in each lane.
#[inline(always)]
fn zero_fields<L: Lanes>(v: L, b: L::V) -> L::V {
    let carried = v.add(v.and(b, v.splat(LOW2)), v.splat(LOW2));
    v.andnot(v.or(carried, b), v.splat(HIGH))
}

/// The moves of `candidates` whose sums in `sums` are not saturated:
/// `candidates & !seven_fields(sums)`.
#[inline(always)]
fn ok<L: Lanes>(v: L, candidates: L::V, sums: L::V) -> L::V {
    let seven = v.and(v.and(sums, v.shl(sums, 1)), v.shl(sums, 2));
    v.andnot(seven, candidates)
}

/// [`crate::packed::add_saturate`] in each lane.
#[inline(always)]
fn add_saturate<L: Lanes>(v: L, a: L::V, b: L::V) -> L::V {
    let low = v.add(v.and(a, v.splat(LOW2)), v.and(b, v.splat(LOW2)));
    let top = v.and(v.xor(a, b), v.splat(HIGH));
    let carry = v.or(v.and(v.and(a, b), v.splat(HIGH)), v.and(top, low));
    let fill = v.sub(v.shl(carry, 1), v.shr(carry, 2));
    v.or(v.xor(low, top), fill)
}

/// Rotates each lane's ring (no centre bits) by `n` fields.
#[inline(always)]
fn rot<L: Lanes>(v: L, ring: L::V, n: u32) -> L::V {
    let turned = v.or(v.shl(ring, 3 * n), v.shr(ring, 24 - 3 * n));
    v.and(turned, v.splat(RING_BITS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::SplitMix64;
    use crate::packed::{is_full, pack};
    use crate::vector::{Avx2, Avx512};
    use crate::{Board, swarmoves};

    /// Random boards, from nearly empty to nearly full.
    fn boards(rng: &mut SplitMix64, n: usize, i: usize) -> Vec<u32> {
        (0..n)
            .map(|lane| {
                let empty_odds = (i + lane) as u64 % 8 + 1;
                let cells: [u8; 9] = std::array::from_fn(|_| {
                    let r = rng.next_u64();
                    if r % 9 < empty_odds {
                        0
                    } else {
                        1 + ((r >> 8) % 6) as u8
                    }
                });
                pack(Board::from_cells(cells).unwrap())
            })
            .collect()
    }

    fn lists_the_moves_of_swarmoves<L: Lanes>(v: L) {
        let mut rng = SplitMix64::new(11);
        let mut lists = Lists::new(SLACK);
        for i in 0..40_000 {
            let boards = boards(&mut rng, L::LANES, i);
            lists.len = [0; 4];
            moves(v, &boards, 100, &mut lists);
            let mut got: Vec<(u32, usize, u32)> = (0..4)
                .flat_map(|to| {
                    let lists = &lists;
                    (0..lists.len[to]).map(move |j| (lists.parents[to][j], to, lists.boards[to][j]))
                })
                .collect();
            let mut want = Vec::new();
            for (lane, &b) in boards.iter().enumerate() {
                if !is_full(b) {
                    swarmoves::for_each_move(b, |child, captured| {
                        want.push((100 + lane as u32, Lists::of(captured), child));
                    });
                }
            }
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "boards {boards:?}");
        }
    }

    #[test]
    fn avx2_lists_the_moves_of_swarmoves() {
        let Some(v) = Avx2::new() else {
            eprintln!("skipped: this CPU has no AVX2 (avx2 and popcnt needed)");
            return;
        };
        lists_the_moves_of_swarmoves(v);
    }

    #[test]
    fn avx512_lists_the_moves_of_swarmoves() {
        let Some(v) = Avx512::new() else {
            eprintln!("skipped: this CPU has no AVX-512 (avx512f, avx2 and popcnt needed)");
            return;
        };
        lists_the_moves_of_swarmoves(v);
    }
}
