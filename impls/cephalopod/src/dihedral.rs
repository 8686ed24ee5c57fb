//! The dihedral group of the square: its 8 symmetries on the spiral-packed
//! board, and the canonical form (the smallest image) used to share cache
//! entries between symmetric boards. The solvers that use them are the
//! variants `sym`, `simd`, `range` and `front`.
//!
//! Symmetry `s` (0..8) turns the board `s & 3` quarter turns after mirroring
//! it when `s & 4` is set. On spiral positions it maps the ring position `k`
//! of the result to `src(s, k)` of the source; the centre stays put.

use crate::packed::{RING_BITS, field};

/// The ring position of the source that lands on ring position `k`.
#[inline(always)]
pub(crate) const fn src(s: u32, k: usize) -> usize {
    let j = 2 * (s as usize & 3);
    if s & 4 == 0 {
        (k + 8 - j) & 7
    } else {
        (j + 8 - k) & 7
    }
}

/// `SOURCE[s][k] = src(s, k)`: where ring position `k` of the image comes
/// from.
pub(crate) const SOURCE: [[usize; 8]; 8] = {
    let mut t = [[0; 8]; 8];
    let mut s = 0;
    while s < 8 {
        let mut k = 0;
        while k < 8 {
            t[s][k] = src(s as u32, k);
            k += 1;
        }
        s += 1;
    }
    t
};

/// `INVERSE[s][m]`: the ring position of the image that came from ring
/// position `m` of the source (`SOURCE[s][INVERSE[s][m]] == m`).
pub(crate) const INVERSE: [[u32; 8]; 8] = {
    let mut t = [[0; 8]; 8];
    let mut s = 0;
    while s < 8 {
        let mut k = 0;
        while k < 8 {
            t[s][SOURCE[s][k]] = k as u32;
            k += 1;
        }
        s += 1;
    }
    t
};

/// The symmetry "`a`, then `b`": the one whose image takes ring position
/// `k` from `src(a, src(b, k))`.
pub(crate) const fn then(a: u32, b: u32) -> u32 {
    let mut u = 0;
    while u < 8 {
        let mut k = 0;
        while k < 8 && src(u, k) == src(a, src(b, k)) {
            k += 1;
        }
        if k == 8 {
            return u;
        }
        u += 1;
    }
    panic!("the symmetries of the square are closed under composition")
}

/// `INVERSE_SYM[s]`: the symmetry that undoes `s`.
pub(crate) const INVERSE_SYM: [u32; 8] = {
    let mut t = [0; 8];
    let mut s = 0;
    while s < 8 {
        let mut v = 0;
        while then(s, v) != 0 {
            v += 1;
        }
        t[s as usize] = v;
        s += 1;
    }
    t
};

/// Mirrors the board across the diagonal through positions 0 and 4
/// (ring position `k` takes the die at `-k mod 8`).
#[inline(always)]
pub(crate) fn mirror(b: u32) -> u32 {
    (b & (field(0) | field(4) | field(8)))
        | (b & field(1)) << 18
        | (b & field(7)) >> 18
        | (b & field(2)) << 12
        | (b & field(6)) >> 12
        | (b & field(3)) << 6
        | (b & field(5)) >> 6
}

/// [`mirror`] as a list of field moves, for vector code that mirrors many
/// boards at once, and [`canonical`] of a vector of boards (x86-64 only, as
/// the vector code is).
#[cfg(target_arch = "x86_64")]
pub(crate) mod vector {
    use crate::packed::{RING_BITS, field};
    use crate::vector::Lanes;

    /// The ring fields that stay put.
    pub(crate) const STAYS: u32 = field(0) | field(4);
    /// Each other ring field's mask and how far it moves (left if positive).
    pub(crate) const FIELD_MOVES: [(u32, i32); 6] = [
        (field(1), 18),
        (field(7), -18),
        (field(2), 12),
        (field(6), -12),
        (field(3), 6),
        (field(5), -6),
    ];

    /// [`super::canonical`] of `L::LANES` boards at once, each replaced by
    /// its key `representative << 3 | symmetry`: the 8 images are built and
    /// compared one symmetry at a time, each across all the boards.
    #[inline(always)]
    pub(crate) fn canonical_keys<L: Lanes>(v: L, boards: &mut [u32]) {
        let x = v.load(boards);
        let ring_bits = v.splat(RING_BITS);
        let ring = v.and(x, ring_bits);
        let centre = v.shl(v.andnot(ring_bits, x), 3);
        let mut mirrored = v.and(ring, v.splat(STAYS));
        for (mask, up) in FIELD_MOVES {
            let field = v.and(ring, v.splat(mask));
            let moved = if up > 0 {
                v.shl(field, up as u32)
            } else {
                v.shr(field, up.unsigned_abs())
            };
            mirrored = v.or(mirrored, moved);
        }
        let mut best = v.splat(u32::MAX);
        for (s, image) in [ring, mirrored].into_iter().enumerate() {
            for q in 0..4 {
                let turned = v.and(
                    v.or(v.shl(image, 6 * q), v.shr(image, 24 - 6 * q)),
                    ring_bits,
                );
                let key = v.or(v.shl(turned, 3), v.or(centre, v.splat(4 * s as u32 + q)));
                best = v.min(best, key);
            }
        }
        v.store(boards, best);
    }
}

/// Turns the board `q` quarter turns clockwise.
#[inline(always)]
pub(crate) fn turn(b: u32, q: u32) -> u32 {
    let ring = b & RING_BITS;
    let sh = 6 * (q & 3);
    let turned = if sh == 0 {
        ring
    } else {
        ((ring << sh) | (ring >> (24 - sh))) & RING_BITS
    };
    (b & !RING_BITS) | turned
}

/// Applies symmetry `s` to the board.
#[inline(always)]
pub(crate) fn apply(b: u32, s: u32) -> u32 {
    turn(if s & 4 != 0 { mirror(b) } else { b }, s)
}

/// The canonical form of `b` (its smallest image) and the symmetry `s` with
/// `apply(b, s) == canonical`.
#[inline(always)]
pub(crate) fn canonical(b: u32) -> (u32, u32) {
    let m = mirror(b);
    // The symmetry index rides in the 3 free low bits, so one `min` picks
    // both the smallest image and (on ties, the smallest) symmetry.
    let mut best = u32::MAX;
    for q in 0..4 {
        best = best.min(turn(b, q) << 3 | q);
        best = best.min(turn(m, q) << 3 | (4 | q));
    }
    (best >> 3, best & 7)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::packed::{CELL_OF_POS, get, pack};

    /// Row-major image of cell (r, c) under a quarter turn / transpose.
    fn geometric(b: &Board, s: u32) -> Board {
        let mut cells = b.cells();
        if s & 4 != 0 {
            cells = std::array::from_fn(|i| cells[(i % 3) * 3 + i / 3]);
        }
        for _ in 0..(s & 3) {
            // Clockwise: the new (r, c) holds the old (2 - c, r).
            cells = std::array::from_fn(|i| cells[(2 - i % 3) * 3 + i / 3]);
        }
        Board::from_cells(cells).unwrap()
    }

    #[test]
    fn apply_matches_geometry_and_src() {
        let b: Board = "123/456/012".parse().unwrap();
        let p = pack(b);
        let mut images = Vec::new();
        for s in 0..8 {
            let img = apply(p, s);
            assert_eq!(img, pack(geometric(&b, s)), "symmetry {s}");
            for k in 0..8 {
                assert_eq!(get(img, k), get(p, src(s, k)), "symmetry {s} pos {k}");
            }
            images.push(img);
        }
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), 8, "an asymmetric board has 8 distinct images");
        let (c, s) = canonical(p);
        assert_eq!(c, images[0]);
        assert_eq!(apply(p, s), c);
        assert_eq!(CELL_OF_POS[8], 4);
    }

    #[cfg(target_arch = "x86_64")]
    fn vector_keys_match_canonical<L: crate::vector::Lanes>(v: L) {
        let mut x = 0x1234_5678u32;
        for _ in 0..10_000 {
            let boards: Vec<u32> = (0..L::LANES as u32)
                .map(|lane| {
                    x = x.wrapping_mul(0x9E37_79B9).wrapping_add(12345 + lane);
                    (0..9).fold(0, |b, pos| b | ((x >> (3 * pos)) % 7) << (3 * pos))
                })
                .collect();
            let mut keys = boards.clone();
            vector::canonical_keys(v, &mut keys);
            for (&b, key) in boards.iter().zip(keys) {
                let (c, s) = canonical(b);
                assert_eq!(key, c << 3 | s, "{b:o}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_keys_match_canonical_avx2() {
        let Some(v) = crate::vector::Avx2::new() else {
            eprintln!("skipped: this CPU has no AVX2 (avx2 and popcnt needed)");
            return;
        };
        vector_keys_match_canonical(v);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_keys_match_canonical_avx512() {
        let Some(v) = crate::vector::Avx512::new() else {
            eprintln!("skipped: this CPU has no AVX-512 (avx512f, avx2 and popcnt needed)");
            return;
        };
        vector_keys_match_canonical(v);
    }
}
