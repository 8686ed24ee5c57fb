//! Move generation for 8 boards at once, one per AVX2 lane, for callers
//! that want every child of many boards listed by the dice its move
//! captured.
//!
//! The bit masks of legal moves are `swarmoves`' SWAR steps, which work
//! within each 32-bit lane alike. What costs `swarmoves` most is what
//! follows: a loop over each mask's set bits, building one child at a
//! time. Here each kind of move (a cell, and the neighbours it captures)
//! builds the 8 lanes' children in one vector, and the lanes where that
//! move is legal are packed to the front (a `vpermd` through a table of
//! the 256 lane masks) and stored at the end of the kind's list. Every
//! kind captures a fixed number of dice, so its list is known in advance.

use core::arch::x86_64::*;

use crate::lists::{Lists, SLACK};
use crate::packed::{HIGH, LOW2, RING_BITS};
use crate::swarmoves::{
    CENTRE_HIGH, CLEAR_ADJ, CLEAR_LC, CLEAR_LR, CLEAR_LRC, CLEAR_OPP, CLEAR_RC, CLEAR_TRI,
    EDGE_FIELDS, EDGE_HIGH, FIELD, RING_HIGH, RING_LOW,
};

/// `COMPRESS[m]`: the indices of the set bits of `m`, lowest first, as
/// bytes (the rest 0).
static COMPRESS: [[u8; 8]; 256] = {
    let mut t = [[0; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if m >> bit & 1 != 0 {
                t[m][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        m += 1;
    }
    t
};

/// Appends the children of the 8 packed boards `boards` (full boards have
/// none) to `lists`, their parents numbered `first..first + 8`.
///
/// # Safety
/// The CPU must support AVX2 and POPCNT.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
pub(crate) unsafe fn moves(boards: &[u32; 8], first: u32, lists: &mut Lists) {
    for to in 0..4 {
        assert!(
            lists.len[to] + SLACK <= lists.boards[to].len().min(lists.parents[to].len()),
            "room for 8 boards' children"
        );
    }
    let mut out = Out {
        boards: lists.boards.each_mut().map(|v| v.as_mut_ptr()),
        parents: lists.parents.each_mut().map(|v| v.as_mut_ptr()),
        len: lists.len,
        ids: _mm256_add_epi32(
            _mm256_set1_epi32(first as i32),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        ),
    };
    // SAFETY: `boards` covers the 32 bytes loaded.
    let x = unsafe { _mm256_loadu_si256(boards.as_ptr().cast()) };
    let empty = zero_fields(x);
    let ring = and(x, splat(RING_BITS));
    let ring_empty = and(empty, splat(RING_HIGH));
    // Die of the left (k - 1) and right (k + 1) neighbour at each position k.
    let left = rot(ring, 1);
    let right = rot(ring, 7);
    let has_left = _mm256_andnot_si256(zero_fields(left), splat(RING_HIGH));
    let has_right = _mm256_andnot_si256(zero_fields(right), splat(RING_HIGH));
    let lr = add_saturate(left, right);
    let ok_lr = ok(and(ring_empty, and(has_left, has_right)), lr);
    let ring_capture = |out: &mut Out, to, ok, sums, clear: &[u32; 27], t: usize| {
        let child = _mm256_or_si256(
            _mm256_andnot_si256(splat(clear[t]), x),
            and(sums, splat(FIELD[t])),
        );
        out.emit(to, ok, t, child);
    };
    if any(ok_lr) {
        for k in 0..8 {
            ring_capture(&mut out, 1, ok_lr, lr, &CLEAR_LR, 3 * k + 2);
        }
    }
    let mut captured = ok_lr;

    // Lanes whose centre holds a die: edges can also capture with it.
    let centre_free = _mm256_cmpeq_epi32(and(empty, splat(CENTRE_HIGH)), splat(CENTRE_HIGH));
    let edge_empty = _mm256_andnot_si256(centre_free, and(ring_empty, splat(EDGE_HIGH)));
    if any(edge_empty) {
        let c = _mm256_mullo_epi32(_mm256_srli_epi32::<24>(x), splat(RING_LOW));
        let lc = add_saturate(left, c);
        let rc = add_saturate(right, c);
        let lrc = add_saturate(lr, c);
        let ok_lc = ok(and(edge_empty, has_left), lc);
        let ok_rc = ok(and(edge_empty, has_right), rc);
        let ok_lrc = ok(and(edge_empty, and(has_left, has_right)), lrc);
        for t in [5, 11, 17, 23] {
            ring_capture(&mut out, 1, ok_lc, lc, &CLEAR_LC, t);
            ring_capture(&mut out, 1, ok_rc, rc, &CLEAR_RC, t);
            ring_capture(&mut out, 2, ok_lrc, lrc, &CLEAR_LRC, t);
        }
        captured = _mm256_or_si256(
            captured,
            _mm256_or_si256(ok_lc, _mm256_or_si256(ok_rc, ok_lrc)),
        );
    }

    // Lanes whose centre is empty: captures there, of 2 to 4 edges. Each
    // sum is computed at an edge position and moved to the centre.
    let edges = and(x, splat(EDGE_FIELDS));
    let has = and(
        centre_free,
        _mm256_andnot_si256(zero_fields(edges), splat(EDGE_HIGH)),
    );
    let has_next = rot(has, 6);
    if any(and(has, has_next)) || any(and(has, rot(has, 4))) {
        let next = rot(edges, 6);
        let opposite = rot(edges, 4);
        let has_opposite = rot(has, 4);
        let adj = add_saturate(edges, next);
        let opp = add_saturate(edges, opposite);
        let tri = add_saturate(adj, opposite);
        let quad = add_saturate(adj, rot(adj, 4));
        let ok_adj = ok(and(has, has_next), adj);
        // Opposite pairs and the quad would repeat at k + 4: keep k = 1 (and 3).
        let ok_opp = and(ok(and(has, has_opposite), opp), splat(0o4040));
        let ok_tri = ok(and(has, and(has_next, has_opposite)), tri);
        let all4 = and(and(has, has_next), and(has_opposite, rot(has_next, 4)));
        let ok_quad = and(ok(all4, quad), splat(0o40));
        let centre_capture = |out: &mut Out, to, ok, sums, clear: u32, t: usize| {
            let sum = _mm256_sll_epi32(sums, _mm_cvtsi32_si128(26 - t as i32));
            let child = _mm256_or_si256(
                _mm256_andnot_si256(splat(clear), x),
                and(sum, splat(7 << 24)),
            );
            out.emit(to, ok, t, child);
        };
        for t in [5, 11, 17, 23] {
            centre_capture(&mut out, 1, ok_adj, adj, CLEAR_ADJ[t], t);
            centre_capture(&mut out, 2, ok_tri, tri, CLEAR_TRI[t], t);
        }
        for t in [5, 11] {
            centre_capture(&mut out, 1, ok_opp, opp, CLEAR_OPP[t], t);
        }
        centre_capture(&mut out, 3, ok_quad, quad, EDGE_FIELDS, 5);
        let centre = _mm256_or_si256(
            _mm256_or_si256(ok_adj, ok_opp),
            _mm256_or_si256(ok_tri, ok_quad),
        );
        let none = _mm256_cmpeq_epi32(centre, _mm256_setzero_si256());
        captured = _mm256_or_si256(captured, _mm256_andnot_si256(none, splat(CENTRE_HIGH)));
    }

    let place = _mm256_andnot_si256(captured, empty);
    for k in 0..9 {
        let t = 3 * k + 2;
        out.emit(0, place, t, _mm256_or_si256(x, splat(1 << (t - 2))));
    }
    lists.len = out.len;
}

/// Where [`moves`] stores: the lists' buffers, and how far each is filled.
struct Out {
    boards: [*mut u32; 4],
    parents: [*mut u32; 4],
    len: [usize; 4],
    /// The parent index of each lane.
    ids: __m256i,
}

impl Out {
    /// Appends to list `to` the lanes of `child` whose `ok` has bit `t` set.
    #[inline(always)]
    fn emit(&mut self, to: usize, ok: __m256i, t: usize, child: __m256i) {
        // SAFETY: `Out` exists only inside `moves`, which needs AVX2 and
        // POPCNT. Each store writes 8 lanes from `len`; `len` grows by at
        // most the 8 boards' children, and `moves` checked that the lists
        // have `SLACK` past their length.
        unsafe {
            let top = _mm256_sll_epi32(ok, _mm_cvtsi32_si128(31 - t as i32));
            let m = _mm256_movemask_ps(_mm256_castsi256_ps(top)) as usize;
            let order = _mm256_cvtepu8_epi32(_mm_loadl_epi64(COMPRESS[m].as_ptr().cast()));
            let n = self.len[to];
            _mm256_storeu_si256(
                self.boards[to].add(n).cast(),
                _mm256_permutevar8x32_epi32(child, order),
            );
            _mm256_storeu_si256(
                self.parents[to].add(n).cast(),
                _mm256_permutevar8x32_epi32(self.ids, order),
            );
            self.len[to] = n + m.count_ones() as usize;
        }
    }
}

#[inline(always)]
fn splat(v: u32) -> __m256i {
    // SAFETY: only called from code compiled for AVX2 (`moves`).
    unsafe { _mm256_set1_epi32(v as i32) }
}

#[inline(always)]
fn and(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: as for `splat`.
    unsafe { _mm256_and_si256(a, b) }
}

/// Whether any bit of `v` is set.
#[inline(always)]
fn any(v: __m256i) -> bool {
    // SAFETY: as for `splat`.
    unsafe { _mm256_testz_si256(v, v) == 0 }
}

/// [`crate::packed::zero_fields`] in each lane.
#[inline(always)]
fn zero_fields(b: __m256i) -> __m256i {
    // SAFETY: as for `splat`.
    unsafe {
        let carried = _mm256_add_epi32(and(b, splat(LOW2)), splat(LOW2));
        _mm256_andnot_si256(_mm256_or_si256(carried, b), splat(HIGH))
    }
}

/// The moves of `candidates` whose sums in `sums` are not saturated:
/// `candidates & !seven_fields(sums)`.
#[inline(always)]
fn ok(candidates: __m256i, sums: __m256i) -> __m256i {
    // SAFETY: as for `splat`.
    unsafe {
        let seven = and(
            and(sums, _mm256_slli_epi32::<1>(sums)),
            _mm256_slli_epi32::<2>(sums),
        );
        _mm256_andnot_si256(seven, candidates)
    }
}

/// [`crate::packed::add_saturate`] in each lane.
#[inline(always)]
fn add_saturate(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: as for `splat`.
    unsafe {
        let low = _mm256_add_epi32(and(a, splat(LOW2)), and(b, splat(LOW2)));
        let top = and(_mm256_xor_si256(a, b), splat(HIGH));
        let carry = _mm256_or_si256(and(and(a, b), splat(HIGH)), and(top, low));
        let fill = _mm256_sub_epi32(_mm256_slli_epi32::<1>(carry), _mm256_srli_epi32::<2>(carry));
        _mm256_or_si256(_mm256_xor_si256(low, top), fill)
    }
}

/// Rotates each lane's ring (no centre bits) by `n` fields.
#[inline(always)]
fn rot(ring: __m256i, n: i32) -> __m256i {
    // SAFETY: as for `splat`.
    unsafe {
        and(
            _mm256_or_si256(
                _mm256_sll_epi32(ring, _mm_cvtsi32_si128(3 * n)),
                _mm256_srl_epi32(ring, _mm_cvtsi32_si128(24 - 3 * n)),
            ),
            splat(RING_BITS),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::SplitMix64;
    use crate::packed::{is_full, pack};
    use crate::{Board, swarmoves};

    #[test]
    fn lists_the_moves_of_swarmoves() {
        if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")) {
            return;
        }
        let mut rng = SplitMix64::new(11);
        let mut lists = Lists::new(SLACK);
        for i in 0..40_000 {
            let boards: [u32; 8] = std::array::from_fn(|lane| {
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
            });
            lists.len = [0; 4];
            // SAFETY: AVX2 and POPCNT were detected above.
            unsafe { moves(&boards, 100, &mut lists) };
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
}
