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
    use crate::Board;
    use crate::avx2;
    use crate::cellsums::{CellSums, add_spread, hash_sum, row_major};
    use crate::dfs::{self, Flavor};
    use crate::dihedral::INVERSE;
    use crate::range;

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
            unsafe { avx2::canonical(child) }
        }

        #[inline(always)]
        fn add_leaves(&self, acc: &mut CellSums, wide: u64) {
            add_spread(acc, wide);
        }

        #[inline(always)]
        fn add_value(&self, acc: &mut CellSums, value: &CellSums, sym: u32) {
            let (ring, _) = acc.split_first_chunk_mut::<8>().expect("9 lanes");
            let (value_ring, _) = value.split_first_chunk::<8>().expect("9 lanes");
            // SAFETY: as in `key`.
            unsafe { avx2::add_permuted(ring, value_ring, &INVERSE[sym as usize]) };
            acc[8] = acc[8].wrapping_add(value[8]);
        }

        #[inline(always)]
        fn answer(&self, value: &CellSums) -> u32 {
            hash_sum(value)
        }
    }
}
