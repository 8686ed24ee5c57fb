//! SIMD variants (x86-64 only, runtime-detected): one register holds 1 (`sse`), 2 (`avx2`) or 4
//! (`avx512`) boards, one per 128-bit lane, each row in a byte (6 cells and 2 zero sentinel
//! columns), so a horizontal move is a 64-bit lane bit shift, a vertical move a byte shift, and
//! a carry addition fills row runs. Single cells and dominoes are found for all boards of a
//! register at once and never grown; then each round grows one component per board, and
//! boards that are done just carry zeros. The shared round loop is generic over [`Lanes`].
//!
//! The spec suggests column-major 16-bit lanes (vertical moves by bit shifts, carries down
//! columns). Row-major bytes measured faster on the AVX2 machine this was tuned on
//! (quick_bench, ns/board at densities 0.125 / 0.5 / 0.875 / game): column-major 51.8 / 140 /
//! 37.8 / 46.8, row-major 47.3 / 131 / 35.5 / 39.2. A padded board converts to and from the
//! row-major output with two `pdep`/`pext` instead of twelve, paid once per component; the
//! sentinel bytes make the whole-board single and domino pre-pass a dozen vector operations;
//! and on dense boards, where the column carry was the advantage of column-major, a
//! Kogge-Stone fill down the columns makes up for it.

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

    use crate::{Board, Components, MAX_COMPONENTS};

    /// One register of `BOARDS` padded boards and the primitive operations the round loop is
    /// written in. Every method is unsafe because it runs instructions of the implementing
    /// variant's target features: callers must have checked that the CPU has them.
    pub(crate) trait Lanes: Copy {
        /// Boards per register.
        const BOARDS: usize;
        /// Loads `BOARDS` padded boards.
        unsafe fn load(boards: &[u128]) -> Self;
        /// Stores `BOARDS` padded boards.
        unsafe fn store(self, out: &mut [u128]);
        /// `self & other`.
        unsafe fn and(self, other: Self) -> Self;
        /// `self | other`.
        unsafe fn or(self, other: Self) -> Self;
        /// `self ^ other`.
        unsafe fn xor(self, other: Self) -> Self;
        /// `!self & other`.
        unsafe fn andnot(self, other: Self) -> Self;
        /// Wrapping add of 64-bit lanes (carries stop at lane edges).
        unsafe fn add64(self, other: Self) -> Self;
        /// Each 64-bit lane shifted up by one bit: every cell one column right.
        unsafe fn shl64_1(self) -> Self;
        /// Each 64-bit lane shifted down by one bit: every cell one column left.
        unsafe fn shr64_1(self) -> Self;
        /// Each 128-bit lane shifted up by `N` bytes: every cell `N` rows down.
        unsafe fn shl_bytes<const N: i32>(self) -> Self;
        /// Each 128-bit lane shifted down by `N` bytes: every cell `N` rows up.
        unsafe fn shr_bytes<const N: i32>(self) -> Self;
        /// The lowest set bit of each board, zero for empty boards.
        unsafe fn lowest(self) -> Self;
        /// Whether every board of `self` equals the one of `other`.
        unsafe fn same(self, other: Self) -> bool;
        /// Whether every board is empty.
        unsafe fn is_zero(self) -> bool;
    }

    /// `x` (inside `m`) grown by one step, then right along every row run of `m` it touches:
    /// adding `x` to `m` carries through each touched run and stops at the zero sentinel
    /// columns. The sentinels also make the plain shifts safe: nothing wraps into a cell.
    ///
    /// # Safety
    /// As for [`Lanes`].
    #[inline(always)]
    unsafe fn step<L: Lanes>(x: L, m: L) -> L {
        // SAFETY: forwarded to the caller.
        unsafe {
            let g = x.or(neighbours(x)).and(m);
            m.add64(g).xor(m).or(g).and(m)
        }
    }

    /// Fills down every vertical run of `m` that `g` touches.
    ///
    /// # Safety
    /// As for [`Lanes`].
    #[inline(always)]
    unsafe fn fill_down<L: Lanes>(g: L, down: &[L; 3]) -> L {
        // SAFETY: forwarded to the caller.
        unsafe {
            let g = g.or(g.shl_bytes::<2>().and(down[0]));
            let g = g.or(g.shl_bytes::<4>().and(down[1]));
            g.or(g.shl_bytes::<8>().and(down[2]))
        }
    }

    /// Cells of `m` whose 1, 3 and 7 cells above are all in `m` too: where a fill down a
    /// column may jump 2, 4 and 8 rows without passing a gap.
    ///
    /// # Safety
    /// As for [`Lanes`].
    #[inline(always)]
    unsafe fn down_masks<L: Lanes>(m: L) -> [L; 3] {
        // SAFETY: forwarded to the caller.
        unsafe {
            let d2 = m.and(m.shl_bytes::<1>());
            let d4 = d2.and(d2.shl_bytes::<2>());
            let d8 = d4.and(d4.shl_bytes::<4>());
            [d2, d4, d8]
        }
    }

    /// The neighbours of the cells of `x` (not `x` itself), up to the zero sentinels.
    ///
    /// # Safety
    /// As for [`Lanes`].
    #[inline(always)]
    unsafe fn neighbours<L: Lanes>(x: L) -> L {
        // SAFETY: forwarded to the caller.
        unsafe {
            let horizontal = x.shl64_1().or(x.shr64_1());
            horizontal.or(x.shl_bytes::<1>().or(x.shr_bytes::<1>()))
        }
    }

    /// Splits every board of `m` into the cells of components of three or more cells, the
    /// isolated cells, the left cells of horizontal dominoes and the top cells of vertical
    /// ones (a domino's first cell), as `crate::bits::small_components` does on one board.
    ///
    /// # Safety
    /// As for [`Lanes`].
    #[inline(always)]
    unsafe fn small_components<L: Lanes>(m: L) -> (L, L, L, L) {
        // SAFETY: forwarded to the caller.
        unsafe {
            let (l, r) = (m.shl64_1(), m.shr64_1());
            let (u, d) = (m.shl_bytes::<1>(), m.shr_bytes::<1>());
            let singles = l.or(r).or(u).or(d).andnot(m);
            // Exactly one neighbour: odd parity and no two neighbour masks overlapping.
            let two = l.and(r).or(u.and(d)).or(l.or(r).and(u.or(d)));
            let one = two.andnot(l.xor(r).xor(u).xor(d).and(m));
            let dominoes = one.and(neighbours(one));
            let right = dominoes.and(dominoes.shr64_1());
            let down = dominoes.and(dominoes.shr_bytes::<1>());
            (singles.or(dominoes).andnot(m), singles, right, down)
        }
    }

    /// Six cells in each byte: where row-major rows go in the padded layout.
    const PADDED_ROWS: u64 = 0x3f3f_3f3f_3f3f_3f3f;
    /// Rows 8 to 11 in the high qword.
    const PADDED_HIGH: u64 = 0x3f3f_3f3f;
    /// Bits of the first eight rows, row-major.
    const LOW_BITS: u32 = 48;

    /// Row-major board to the padded layout: row `r` in byte `r`, columns 6 and 7 zero.
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    unsafe fn to_padded(bits: u128) -> u128 {
        let low = _pdep_u64(bits as u64, PADDED_ROWS);
        let high = _pdep_u64((bits >> LOW_BITS) as u64, PADDED_HIGH);
        low as u128 | (high as u128) << 64
    }

    /// Padded component back to a row-major mask.
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    unsafe fn to_rows(padded: u128) -> u128 {
        let low = _pext_u64(padded as u64, PADDED_ROWS);
        let high = _pext_u64((padded >> 64) as u64, PADDED_HIGH);
        low as u128 | (high as u128) << LOW_BITS
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
        // Components of three or more cells per board, in round order (one spare slot for
        // the empty masks of finished boards). Reused across groups: `count` says what is
        // valid.
        let mut found = [[0u128; MAX_COMPONENTS + 1]; N];
        for (boards, out) in boards.chunks(N).zip(out.chunks_mut(N)) {
            let mut padded = [0u128; N];
            for (p, b) in padded.iter_mut().zip(boards) {
                // SAFETY: the caller guarantees BMI2.
                *p = unsafe { to_padded(b.bits()) };
            }
            // SAFETY: the caller guarantees `L`'s features, BMI2 and POPCNT.
            unsafe {
                // Single cells and dominoes need no growth: they are found for all boards at
                // once and placed by rank at the end.
                let board = L::load(&padded);
                let (rest, singles, right, down) = small_components(board);
                let mut small = [(0u128, 0u128, 0u128); N];
                let mut parts = [[0u128; N]; 3];
                for (part, v) in parts.iter_mut().zip([singles, right, down]) {
                    v.store(part);
                }
                for (b, s) in small.iter_mut().enumerate() {
                    *s = (
                        to_rows(parts[0][b]),
                        to_rows(parts[1][b]),
                        to_rows(parts[2][b]),
                    );
                }
                let mut count = [0usize; N];
                let cells: u32 = padded.iter().map(|p| p.count_ones()).sum();
                grow_all::<L, N>(
                    rest,
                    cells >= DENSE_CELLS * N as u32,
                    &mut found,
                    &mut count,
                );
                for (b, o) in out.iter_mut().enumerate() {
                    place(o, small[b], &found[b][..count[b]]);
                }
            }
        }
    }

    /// Cells per board from which a group counts as dense: there components span the board,
    /// and filling down whole columns each round pays for its cost.
    const DENSE_CELLS: u32 = 40;

    /// Grows the components of `rest`, one per board per round, appending each board's to its
    /// row of `found` (row-major) and counting them in `count`. `fill` adds whole-column
    /// fills to every round.
    ///
    /// # Safety
    /// As for [`label_batch`].
    #[inline(always)]
    unsafe fn grow_all<L: Lanes, const N: usize>(
        mut rest: L,
        fill: bool,
        found: &mut [[u128; MAX_COMPONENTS + 1]; N],
        count: &mut [usize; N],
    ) {
        // SAFETY: forwarded to the caller.
        unsafe {
            let mut comp = [0u128; N];
            let down = if fill { down_masks(rest) } else { [rest; 3] };
            while !rest.is_zero() {
                let mut x = rest.lowest();
                loop {
                    // Two steps per test: the test and its branch cost more than a step.
                    let mut g = step(step(x, rest), rest);
                    if fill {
                        g = fill_down(g, &down);
                    }
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
        }
    }

    /// Writes the single cells and dominoes of `small` (singles, left cells of horizontal
    /// dominoes, top cells of vertical ones) and the components `comps` into `out` in
    /// canonical order: each one's slot is the number of component starts below its own.
    #[inline(always)]
    fn place(out: &mut Components, small: (u128, u128, u128), comps: &[u128]) {
        let (singles, right, down) = small;
        let small_starts = singles | right | down;
        let mut starts = small_starts;
        for &c in comps {
            starts |= c & c.wrapping_neg();
        }
        for &c in comps {
            out.masks[rank(starts, c & c.wrapping_neg())] = c;
        }
        let mut s = small_starts;
        while s != 0 {
            let low = s & s.wrapping_neg();
            let mask = low | (low & right) << 1 | (low & down) << Board::WIDTH;
            out.masks[rank(starts, low)] = mask;
            s ^= low;
        }
        out.len = starts.count_ones() as u8;
    }
}
