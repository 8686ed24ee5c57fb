//! The symmetric-cache DFS of `sym` with AVX2 doing the per-child
//! work: the 8 images of a child are turned in one vector (variable shifts)
//! and reduced to the canonical key with a horizontal minimum, a cached
//! value's ring sums are permuted back in one `vpermd`. Leaf digits are
//! widened by the shared shift cascade of every flavor, not `pdep`, which is
//! microcode on AMD before Zen 3 (so the variant needs AVX2 alone).
//! Detected at run time; absent off x86_64.

use crate::{Board, Solver};

/// CPU features the `simd` variant needs.
pub const FEATURES: &[&str] = &["avx2"];

/// The AVX2 symmetric-cache DFS. Exists only on a CPU with [`FEATURES`].
pub struct Simd {
    _detected: (),
}

impl Simd {
    /// The solver, or `None` when the CPU lacks AVX2.
    pub fn new() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            return Some(Simd { _detected: () });
        }
        None
    }

    /// The per-cell digit sums, row-major, as [`crate::sym::Sym::cell_sums`].
    pub fn cell_sums(&self, depth: u32, board: Board) -> [u32; 9] {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Simd` exists only when `new` detected AVX2.
        return unsafe { avx2::cell_sums(depth, board) };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("Simd::new returns None off x86_64 ({depth} {board})")
    }
}

/// The registry's constructor: [`Simd::new`], boxed.
pub fn make() -> Option<Box<dyn Solver>> {
    Simd::new().map(|s| Box::new(s) as Box<dyn Solver>)
}

/// The depth-range search of `range` with the same AVX2 helpers.
pub struct SimdRange(Simd);

/// The registry's constructor for [`SimdRange`].
pub fn make_range() -> Option<Box<dyn Solver>> {
    Simd::new().map(|s| Box::new(SimdRange(s)) as Box<dyn Solver>)
}

impl Solver for SimdRange {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        let _detected = &self.0;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Simd` exists only when `new` detected AVX2.
        return unsafe { avx2::solve_range(depth, board) };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("Simd::new returns None off x86_64 ({depth} {board})")
    }
}

impl Solver for Simd {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Simd` exists only when `new` detected AVX2.
        return unsafe { avx2::solve(depth, board) };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("Simd::new returns None off x86_64 ({depth} {board})")
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use crate::Board;
    use crate::cellsums::{CellSums, add_spread, hash_sum, row_major};
    use crate::dfs::{self, Flavor};
    use crate::packed::RING_BITS;
    use crate::range;
    use crate::symmetry::{INVERSE, mirror};

    /// Solves with the AVX2 flavor.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn solve(depth: u32, board: Board) -> u32 {
        dfs::solve(&Avx2 { _detected: () }, depth, board)
    }

    /// Solves with the AVX2 flavor and the depth-range search.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn solve_range(depth: u32, board: Board) -> u32 {
        range::solve(&Avx2 { _detected: () }, depth, board)
    }

    /// Per-cell sums, row-major, with the AVX2 flavor.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn cell_sums(depth: u32, board: Board) -> [u32; 9] {
        row_major(&dfs::value(&Avx2 { _detected: () }, depth, board))
    }

    /// The flavor; only `solve` (behind the feature check) builds one.
    struct Avx2 {
        _detected: (),
    }

    impl Flavor for Avx2 {
        type Value = CellSums;
        const ZERO: CellSums = [0; 9];

        #[inline(always)]
        fn key(&self, child: u32) -> (u32, u32) {
            // SAFETY: an `Avx2` exists only inside `solve`, which requires
            // AVX2.
            unsafe { canonical(child) }
        }

        #[inline(always)]
        fn add_leaves(&self, acc: &mut CellSums, wide: u64) {
            add_spread(acc, wide);
        }

        #[inline(always)]
        fn add_value(&self, acc: &mut CellSums, value: &CellSums, sym: u32) {
            // SAFETY: as in `key`; the loads and store touch lanes 0..8 of
            // 9-lane arrays, and `_mm256_loadu/storeu` need no alignment.
            unsafe {
                let idx = _mm256_loadu_si256(INVERSE[sym as usize].as_ptr().cast());
                let v = _mm256_loadu_si256(value.as_ptr().cast());
                let a = _mm256_loadu_si256(acc.as_ptr().cast());
                let sum = _mm256_add_epi32(a, _mm256_permutevar8x32_epi32(v, idx));
                _mm256_storeu_si256(acc.as_mut_ptr().cast(), sum);
            }
            acc[8] = acc[8].wrapping_add(value[8]);
        }

        #[inline(always)]
        fn answer(&self, value: &CellSums) -> u32 {
            hash_sum(value)
        }
    }

    /// `symmetry::canonical` with the 8 images in one vector: lanes 0..4
    /// turn the board 0..4 quarter turns, lanes 4..8 its mirror image.
    #[inline(always)]
    unsafe fn canonical(x: u32) -> (u32, u32) {
        let ring = (x & RING_BITS) as i32;
        let mirrored = (mirror(x) & RING_BITS) as i32;
        let centre = (x & !RING_BITS) as i32;
        // SAFETY: the caller guarantees AVX2.
        let best = unsafe {
            let rings = _mm256_setr_epi32(
                ring, ring, ring, ring, mirrored, mirrored, mirrored, mirrored,
            );
            let up = _mm256_sllv_epi32(rings, _mm256_setr_epi32(0, 6, 12, 18, 0, 6, 12, 18));
            let down = _mm256_srlv_epi32(rings, _mm256_setr_epi32(24, 18, 12, 6, 24, 18, 12, 6));
            let turned = _mm256_and_si256(
                _mm256_or_si256(up, down),
                _mm256_set1_epi32(RING_BITS as i32),
            );
            let images = _mm256_or_si256(turned, _mm256_set1_epi32(centre));
            // The symmetry index rides in the 3 low bits, as in the scalar
            // version, so the minimum carries it along.
            let keys = _mm256_or_si256(
                _mm256_slli_epi32::<3>(images),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            );
            let m = _mm_min_epu32(
                _mm256_castsi256_si128(keys),
                _mm256_extracti128_si256::<1>(keys),
            );
            let m = _mm_min_epu32(m, _mm_shuffle_epi32::<0b01_00_11_10>(m));
            let m = _mm_min_epu32(m, _mm_shuffle_epi32::<0b10_11_00_01>(m));
            _mm_cvtsi128_si32(m) as u32
        };
        (best >> 3, best & 7)
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::symmetry;

        #[test]
        fn matches_scalar_helpers() {
            if !is_x86_feature_detected!("avx2") {
                return;
            }
            let mut x = 0x1234_5678u32;
            for _ in 0..10_000 {
                x = x.wrapping_mul(0x9E37_79B9).wrapping_add(12345);
                let b = (0..9).fold(0, |b, pos| b | ((x >> (3 * pos)) % 7) << (3 * pos));
                // SAFETY: AVX2 was detected above.
                unsafe {
                    assert_eq!(canonical(b), symmetry::canonical(b), "{b:o}");
                }
            }
        }
    }
}
