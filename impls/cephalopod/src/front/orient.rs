//! Path counts per orientation, so that a forward search from any start can
//! merge boards under all 8 symmetries.
//!
//! A start fixed by every symmetry (the empty board) lets `front` merge the
//! 8 images of a board into one count: they are reached by equally many
//! paths. From any other start they are not, but a move commutes with the
//! symmetries: the children of `apply(c, t)` are the images under `t` of the
//! children of `c`. So one canonical board `c` can stand for its whole orbit
//! if it keeps 8 counts, `cnt[t]` = the paths reaching `apply(c, t)`; it is
//! expanded once, and each child's counts are the parent's, permuted by the
//! symmetry that relates the child to its own canonical board.
//!
//! The hash is linear in the digits, so the answer's share of a lane,
//! `Σ_t cnt[t] · hash(apply(b, t))` over the boards `b` it reaches in one more
//! move, is one weighted digit sum of `b` with 9 weights computed once per
//! lane ([`Weights`]). The sweep keeps them in `u32`s, exact mod 2^30, so
//! that AVX2 computes the 8 ring weights in one vector product and scores a
//! board in another: official test 11 took 60.3 M instructions a whole
//! process with `u64` weights, 57.1 M with these, and its solve in process
//! 4.88-5.26 ms against 5.07-5.29 (six alternating rounds, Zen 4).

use super::merge::{Lane, Merge};
use crate::dihedral::{INVERSE, INVERSE_SYM, then};
use crate::packed::{WEIGHTS, get};
#[cfg(target_arch = "x86_64")]
use crate::{avx2, vector::Avx2};

/// Paths per orientation: `0[t]` reach `apply(board, t)` of the canonical
/// board the lane belongs to (mod 2^32: the answer is mod 2^30).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(super) struct Orient(pub(super) [u32; 8]);

impl Orient {
    /// Per spiral position, the weight of its digit in
    /// `Σ_t cnt[t] · hash(apply(b, t))` ([`ROWS`]); the centre stays. Exact
    /// in `u64`s, for orbit totals (`stabiliser`); the sweep's
    /// [`Orbit`] scores with [`Weights`].
    pub(super) fn weights(self) -> [u64; 9] {
        let mut v = [0u64; 9];
        for (&n, row) in self.0.iter().zip(&ROWS) {
            let n = u64::from(n);
            for (w, &r) in v.iter_mut().zip(row) {
                *w = w.wrapping_add(n * u64::from(r));
            }
            v[8] = v[8].wrapping_add(n * u64::from(WEIGHTS[8]));
        }
        v
    }
}

/// A lane's paths prepared to score the boards they end on, mod 2^32: per
/// ring position, the weight of its die in `Σ_t cnt[t] · hash(apply(b, t))`,
/// and the centre's ([`Orient::weights`] in `u32`s, whose wrapping sums are
/// exact mod 2^30).
#[derive(Clone, Copy)]
pub(super) struct Weights {
    ring: [u32; 8],
    centre: u32,
}

/// `ROWS[t][m]`: the weight orientation `t`'s count gives the die at ring
/// position `m`: `apply(b, t)` holds at ring position `k` the die of
/// `src(t, k)`, so the die at `m` is weighed by the weight of
/// `INVERSE[t][m]`.
const ROWS: [[u32; 8]; 8] = {
    let mut rows = [[0; 8]; 8];
    let mut t = 0;
    while t < 8 {
        let mut m = 0;
        while m < 8 {
            rows[t][m] = WEIGHTS[INVERSE[t][m] as usize];
            m += 1;
        }
        t += 1;
    }
    rows
};

impl Weights {
    /// The weights of `lane`'s counts: [`Orient::weights`] mod 2^32.
    fn of(lane: Orient) -> Weights {
        let w = lane.weights();
        Weights {
            ring: std::array::from_fn(|m| w[m] as u32),
            centre: w[8] as u32,
        }
    }

    /// [`Weights::of`] in one vector product.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn of_avx2(lane: Orient, _: Avx2) -> Weights {
        let paths = lane.0.iter().fold(0u32, |a, &n| a.wrapping_add(n));
        Weights {
            // SAFETY: an `Avx2` exists only on a CPU with AVX2.
            ring: unsafe { avx2::combine(&lane.0, &ROWS) },
            centre: paths.wrapping_mul(WEIGHTS[8]),
        }
    }

    /// The weighted digit sum of the packed board `b`.
    #[inline(always)]
    fn score(&self, b: u32) -> u32 {
        let ring = (0..8).fold(0u32, |sum, pos| {
            sum.wrapping_add(get(b, pos).wrapping_mul(self.ring[pos]))
        });
        ring.wrapping_add(get(b, 8).wrapping_mul(self.centre))
    }

    /// [`Weights::score`] in one vector product.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn score_avx2(&self, b: u32, _: Avx2) -> u32 {
        // SAFETY: an `Avx2` exists only on a CPU with AVX2.
        let ring = unsafe { avx2::ring_dot(b, &self.ring) };
        ring.wrapping_add(get(b, 8).wrapping_mul(self.centre))
    }
}

/// The weighted digit sum of the packed board `b`.
#[inline(always)]
pub(super) fn weighted(weights: &[u64; 9], b: u32) -> u64 {
    weights.iter().enumerate().fold(0u64, |sum, (pos, &w)| {
        sum.wrapping_add(u64::from(b >> (3 * pos) & 7).wrapping_mul(w))
    })
}

/// Where a count of orientation `t` lands on a child whose representative
/// is its image under `s`: the symmetry "`s` undone, then `t`".
const fn moved(s: usize, t: u32) -> u32 {
    then(INVERSE_SYM[s], t)
}

/// `FROM[s][u]`: the orientation whose count lands on `u` ([`moved`]
/// inverted), so a move reads the parent's counts in place of scattering
/// them.
const FROM: [[u32; 8]; 8] = {
    let mut f = [[0; 8]; 8];
    let mut s = 0;
    while s < 8 {
        let mut t = 0;
        while t < 8 {
            f[s][moved(s, t) as usize] = t;
            t += 1;
        }
        s += 1;
    }
    f
};

impl Lane for Orient {
    #[inline(always)]
    fn add(self, other: Orient) -> Orient {
        Orient(std::array::from_fn(|t| self.0[t].wrapping_add(other.0[t])))
    }

    /// The parent's image under `t` has the child's image under `t`, which
    /// is `apply(representative, inverse(sym) then t)`.
    #[inline(always)]
    fn add_moved(self, parent: Orient, sym: u32) -> Orient {
        let from = &FROM[sym as usize];
        Orient(std::array::from_fn(|u| {
            self.0[u].wrapping_add(parent.0[from[u] as usize])
        }))
    }

    /// One `vpermd` through [`FROM`] and one add, where the portable
    /// version loads the 8 counts one by one (official test 11: 474 k
    /// lane moves a solve).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn add_moved_avx2(mut self, parent: Orient, sym: u32, _: Avx2) -> Orient {
        // SAFETY: an `Avx2` exists only on a CPU with AVX2.
        unsafe { avx2::add_permuted(&mut self.0, &parent.0, &FROM[sym as usize]) };
        self
    }
}

/// All 8 symmetries, the orientation kept in the lanes: how `front` merges
/// boards from a start that not every symmetry fixes.
pub(super) struct Orbit;

impl Merge for Orbit {
    type Lane = Orient;
    type Score = Weights;
    fn root(&self, sym: u32) -> Orient {
        let mut o = Orient::default();
        o.0[INVERSE_SYM[sym as usize] as usize] = 1;
        o
    }
    #[inline(always)]
    fn score(&self, lane: Orient) -> Weights {
        Weights::of(lane)
    }
    #[inline(always)]
    fn scored(&self, weights: &Weights, b: u32) -> u64 {
        weights.score(b).into()
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn score_avx2(&self, lane: Orient, avx2: Avx2) -> Weights {
        Weights::of_avx2(lane, avx2)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn scored_avx2(&self, weights: &Weights, b: u32, avx2: Avx2) -> u64 {
        weights.score_avx2(b, avx2).into()
    }
    fn finish(&self, total: u64) -> u32 {
        total as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dihedral::{apply, canonical};
    use crate::packed::{hash, pack};

    /// A board whose 8 images differ.
    fn asymmetric() -> u32 {
        pack("120/450/063".parse().unwrap())
    }

    #[test]
    fn symmetry_tables_match_apply() {
        let b = asymmetric();
        for s in 0..8 {
            let inverse = INVERSE_SYM[s as usize];
            assert_eq!(apply(apply(b, s), inverse), b, "inverse of {s}");
            for t in 0..8 {
                let moved = moved(s as usize, t);
                assert_eq!(apply(b, moved), apply(apply(b, inverse), t), "{s} {t}");
                assert_eq!(FROM[s as usize][moved as usize], t, "{s} {t}");
            }
        }
    }

    /// Counts follow their boards: the start's one path sits on the start,
    /// a moved count sits on the image of the parent's orientation, and the
    /// weights score each orientation's image.
    #[test]
    fn counts_follow_the_symmetries() {
        let b = asymmetric();
        let counts = Orient(std::array::from_fn(|t| 3 * t as u32 + 1));
        let want: u64 = (0..8)
            .map(|t| u64::from(counts.0[t]) * u64::from(hash(apply(b, t as u32))))
            .sum();
        assert_eq!(weighted(&counts.weights(), b), want);
        assert_eq!(Orbit.scored(&Orbit.score(counts), b), want as u32 as u64);
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Avx2::new() {
            let weights = Orbit.score_avx2(counts, avx2);
            assert_eq!(Orbit.scored_avx2(&weights, b, avx2), want as u32 as u64);
        }
        for s in 0..8 {
            let image = apply(b, s);
            let (key, sym) = canonical(image);
            let root = Orbit.root(sym);
            let t = root.0.iter().position(|&n| n == 1).unwrap();
            assert_eq!(apply(key, t as u32), image, "the start is counted");
            // A parent counted in orientation `t` whose child is `image`:
            // the count lands on the key's orientation showing `image`
            // turned by `t`.
            for t in 0..8 {
                let mut one = Orient::default();
                one.0[t] = 1;
                let landed = Orient::default().add_moved(one, sym);
                let u = landed.0.iter().position(|&n| n == 1).unwrap();
                assert_eq!(apply(key, u as u32), apply(image, t as u32), "{s} {t}");
            }
        }
    }
}
