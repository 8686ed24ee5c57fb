//! SIMD variants (x86-64 only, runtime-detected): the boards of a batch go column-major into
//! 16-bit lanes, one board per 128-bit lane (6 columns and 2 zero sentinel columns), so a
//! vertical move is a lane bit shift and a horizontal move a byte shift, and one register holds
//! 1 (`sse`), 2 (`avx2`) or 4 (`avx512`) boards. Each round grows one component per board;
//! boards that are done just carry zeros. The shared round loop is generic over [`Lanes`].

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod sse;

use crate::Variant;

/// The SIMD variants, in order sse, avx2, avx512 (none off x86-64).
pub(crate) fn variants() -> Vec<Variant> {
    #[cfg(target_arch = "x86_64")]
    {
        vec![sse::VARIANT, avx2::VARIANT, avx512::VARIANT]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx2::Avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) use rounds::{Lanes, label_batch};

#[cfg(target_arch = "x86_64")]
mod rounds {
    use core::arch::x86_64::{_pdep_u64, _pext_u64};

    use crate::bits::isolated;
    use crate::{Board, Components, MAX_COMPONENTS};

    /// One register of `BOARDS` column-major boards and the primitive operations the round
    /// loop is written in. Every method is unsafe because it runs instructions of the
    /// implementing variant's target features: callers must have checked that the CPU has them.
    pub(crate) trait Lanes: Copy {
        /// Boards per register.
        const BOARDS: usize;
        /// Loads `BOARDS` column-major boards.
        unsafe fn load(boards: &[u128]) -> Self;
        /// Stores `BOARDS` column-major boards.
        unsafe fn store(self, out: &mut [u128]);
        /// `self & other`.
        unsafe fn and(self, other: Self) -> Self;
        /// `self | other`.
        unsafe fn or(self, other: Self) -> Self;
        /// `self ^ other`.
        unsafe fn xor(self, other: Self) -> Self;
        /// `!self & other`.
        unsafe fn andnot(self, other: Self) -> Self;
        /// Wrapping add of 16-bit lanes (carries stop at lane edges).
        unsafe fn add16(self, other: Self) -> Self;
        /// Each 16-bit lane shifted up by `N` bits: every cell `N` rows down.
        unsafe fn shl16<const N: i32>(self) -> Self;
        /// Each 16-bit lane shifted down by `N` bits: every cell `N` rows up.
        unsafe fn shr16<const N: i32>(self) -> Self;
        /// Each 128-bit lane shifted up by `N` bytes: every cell `N / 2` columns right.
        unsafe fn shl_bytes<const N: i32>(self) -> Self;
        /// Each 128-bit lane shifted down by `N` bytes: every cell `N / 2` columns left.
        unsafe fn shr_bytes<const N: i32>(self) -> Self;
        /// The lowest set bit of each board (column-major order), zero for empty boards.
        unsafe fn lowest(self) -> Self;
        /// Whether every board of `self` equals the one of `other`.
        unsafe fn same(self, other: Self) -> bool;
        /// Whether every board is empty.
        unsafe fn is_zero(self) -> bool;
    }

    /// The 4-neighbours of every cell (not the cells themselves); needs zero sentinels.
    ///
    /// # Safety
    /// As for [`Lanes`].
    #[inline(always)]
    unsafe fn neighbours<L: Lanes>(x: L) -> L {
        // SAFETY: forwarded to the caller.
        unsafe {
            let vertical = x.shl16::<1>().or(x.shr16::<1>());
            vertical.or(x.shl_bytes::<2>().or(x.shr_bytes::<2>()))
        }
    }

    /// `x` (inside `m`) grown by one step, then down every vertical run of `m` it touches:
    /// adding `x` to `m` carries through each touched run (lanes stop the carries). Full
    /// Kogge-Stone run fills in all four directions were measured slower: most components are
    /// small, and the extra shifts cost more than the steps they save.
    ///
    /// # Safety
    /// As for [`Lanes`].
    #[inline(always)]
    unsafe fn step<L: Lanes>(x: L, m: L) -> L {
        // SAFETY: forwarded to the caller.
        unsafe {
            let g = x.or(neighbours(x)).and(m);
            m.add16(g).xor(m).or(g).and(m)
        }
    }

    /// Cells of rows 0..10 (the first 60 bits) in one column, row-major.
    const COLUMN_TOP: u64 = 0x0041_0410_4104_1041;
    /// Cells of rows 10 and 11 in one column, counted from bit 60.
    const COLUMN_BOTTOM: u64 = 0x41;
    const TOP_ROWS: u32 = 10;
    const TOP_BITS: u32 = 60;

    /// Row-major board to column-major (column `c` in bits `16c..16c + 12`).
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    unsafe fn to_columns(bits: u128) -> u128 {
        let (top, bottom) = (bits as u64, (bits >> TOP_BITS) as u64);
        let mut out = 0u128;
        for c in 0..Board::WIDTH {
            let col =
                _pext_u64(top, COLUMN_TOP << c) | _pext_u64(bottom, COLUMN_BOTTOM << c) << TOP_ROWS;
            out |= (col as u128) << (16 * c);
        }
        out
    }

    /// Column-major component back to a row-major mask.
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    unsafe fn to_rows(cols: u128) -> u128 {
        let (mut top, mut bottom) = (0u64, 0u64);
        for c in 0..Board::WIDTH {
            let col = (cols >> (16 * c)) as u64;
            top |= _pdep_u64(col, COLUMN_TOP << c);
            bottom |= _pdep_u64(col >> TOP_ROWS, COLUMN_BOTTOM << c);
        }
        top as u128 | (bottom as u128) << TOP_BITS
    }

    /// The number of cells of `set` below the single cell `low`.
    #[inline(always)]
    fn rank(set: u128, low: u128) -> usize {
        (set & (low - 1)).count_ones() as usize
    }

    /// Labels `boards` into `out`, `L::BOARDS` boards at a time (the last group padded with
    /// empty boards).
    ///
    /// # Safety
    /// The CPU must have `L`'s target features plus BMI2 and POPCNT; callers are
    /// `#[target_feature]` functions enabling them, into which this is inlined.
    #[inline(always)]
    pub(crate) unsafe fn label_batch<L: Lanes, const N: usize>(
        boards: &[Board],
        out: &mut [Components],
    ) {
        assert_eq!(
            boards.len(),
            out.len(),
            "label_batch: boards and out differ in length"
        );
        debug_assert_eq!(N, L::BOARDS);
        // Components of two or more cells per board, in round order (one spare slot for the
        // empty masks of finished boards). Reused across groups: `count` says what is valid.
        let mut found = [[0u128; MAX_COMPONENTS + 1]; N];
        for (boards, out) in boards.chunks(N).zip(out.chunks_mut(N)) {
            let mut cols = [0u128; N];
            for (c, b) in cols.iter_mut().zip(boards) {
                // SAFETY: the caller guarantees BMI2.
                *c = unsafe { to_columns(b.bits()) };
            }
            // SAFETY: the caller guarantees `L`'s features, BMI2 and POPCNT.
            unsafe {
                // Isolated cells need no growth: they are found all at once (row-major, so no
                // conversion) and placed by rank at the end.
                let mut lone = [0u128; N];
                for (l, b) in lone.iter_mut().zip(boards) {
                    *l = isolated(b.bits());
                }
                let board = L::load(&cols);
                let mut rest = neighbours(board).andnot(board).andnot(board);
                let mut count = [0usize; N];
                let mut comp = [0u128; N];
                while !rest.is_zero() {
                    let mut x = rest.lowest();
                    loop {
                        // Two steps per test: the test and its branch cost more than a step.
                        let g = step(step(x, rest), rest);
                        if g.same(x) {
                            break;
                        }
                        x = g;
                    }
                    rest = x.andnot(rest);
                    x.store(&mut comp);
                    for b in 0..N {
                        // Boards already done contribute an empty mask, which the next one
                        // overwrites: no branch to mispredict.
                        found[b][count[b]] = to_rows(comp[b]);
                        count[b] += (comp[b] != 0) as usize;
                    }
                }
                for (b, o) in out.iter_mut().enumerate() {
                    place(o, lone[b], &found[b][..count[b]]);
                }
            }
        }
    }

    /// Writes the single cells of `singles` and the components `comps` into `out` in canonical
    /// order: each one's slot is the number of component starts below its own.
    #[inline(always)]
    fn place(out: &mut Components, singles: u128, comps: &[u128]) {
        let mut starts = singles;
        for &c in comps {
            starts |= c & c.wrapping_neg();
        }
        for &c in comps {
            out.masks[rank(starts, c & c.wrapping_neg())] = c;
        }
        let mut s = singles;
        while s != 0 {
            let low = s & s.wrapping_neg();
            out.masks[rank(starts, low)] = low;
            s ^= low;
        }
        out.len = starts.count_ones() as u8;
    }
}
