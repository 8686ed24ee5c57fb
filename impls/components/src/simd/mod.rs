//! SIMD variants (x86-64 only, runtime-detected): each 128-bit lane holds one board, each row
//! in a byte (6 cells and 2 zero sentinel columns), so a horizontal move is a 64-bit lane bit
//! shift, a vertical move a byte shift, and a carry addition fills row runs. Single cells and
//! dominoes are found for all boards of a register at once and never grown; then each round
//! grows one component per board, alternating whole row runs (carry addition, then a
//! Kogge-Stone fill left) with whole vertical runs (Kogge-Stone fills up and down with
//! per-board propagator masks), which reaches the fixpoint in about three alternations even on
//! dense boards. Boards that are done just carry zeros. `sse` and `avx2` drive two registers
//! at once ([`Pair`]), two dependency chains the CPU overlaps. Groups of boards under
//! two thirds full go to the scalar `swar` labeler instead (each run of them in one call),
//! which places single cells without any round and grows the many small components of
//! middling densities faster than rounds do. The shared round loop is generic over [`Lanes`].
//!
//! The spec suggests column-major 16-bit lanes (vertical moves by bit shifts, carries down
//! columns). Row-major bytes measured faster on the AVX2 machine this was tuned on
//! (quick_bench, ns/board at densities 0.125 / 0.5 / 0.875 / game): column-major 51.8 / 140 /
//! 37.8 / 46.8, row-major 47.3 / 131 / 35.5 / 39.2. A padded board converts to and from the
//! row-major output with three shift-and-mask steps per 64-bit half (no `pdep`/`pext`, which
//! are microcode on AMD before Zen 3), paid once per component; the
//! sentinel bytes make the whole-board single and domino pre-pass a dozen vector operations;
//! and on dense boards, where the column carry was the advantage of column-major, the
//! Kogge-Stone column fill makes up for it.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod sse;

use crate::Variant;

/// The SIMD variants, in order sse, avx2, avx512. Off x86-64 they are listed
/// too, unavailable by their x86 feature names, and have no code to make.
pub(crate) fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "sse",
            description: "row-major padded bytes, two SSE registers of one board, run-fill rounds; sparse boards to swar",
            features: &["sse4.1", "popcnt", "bmi1", "bmi2"],
            #[cfg(target_arch = "x86_64")]
            make: sse::make,
            #[cfg(not(target_arch = "x86_64"))]
            make: || None,
        },
        Variant {
            name: "avx2",
            description: "row-major padded bytes, two AVX2 registers of two boards, run-fill rounds; sparse boards to swar",
            features: &["avx2", "popcnt", "bmi1", "bmi2"],
            #[cfg(target_arch = "x86_64")]
            make: avx2::make,
            #[cfg(not(target_arch = "x86_64"))]
            make: || None,
        },
        Variant {
            name: "avx512",
            description: "row-major padded bytes, four boards per AVX-512 register, run-fill rounds; sparse boards to swar",
            features: &["avx512f", "avx512bw", "popcnt", "bmi1", "bmi2"],
            #[cfg(target_arch = "x86_64")]
            make: avx512::make,
            #[cfg(not(target_arch = "x86_64"))]
            make: || None,
        },
    ]
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx2::Avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) use rounds::{Lanes, Pair, label_batch};

#[cfg(target_arch = "x86_64")]
mod rounds {
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
        /// Each 64-bit lane shifted down by `N` bits: every cell `N` columns left.
        unsafe fn shr64<const N: i32>(self) -> Self;
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

    /// Two registers driven as one: every operation runs on both, two independent dependency
    /// chains that the CPU overlaps, where one chain would leave it waiting on latency.
    #[derive(Clone, Copy)]
    pub(crate) struct Pair<L>(L, L);

    impl<L: Lanes> Lanes for Pair<L> {
        const BOARDS: usize = 2 * L::BOARDS;

        #[inline(always)]
        unsafe fn load(boards: &[u128]) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(L::load(boards), L::load(&boards[L::BOARDS..])) }
        }
        #[inline(always)]
        unsafe fn store(self, out: &mut [u128]) {
            // SAFETY: forwarded to the caller.
            unsafe {
                self.0.store(out);
                self.1.store(&mut out[L::BOARDS..]);
            }
        }
        #[inline(always)]
        unsafe fn and(self, o: Self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.and(o.0), self.1.and(o.1)) }
        }
        #[inline(always)]
        unsafe fn or(self, o: Self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.or(o.0), self.1.or(o.1)) }
        }
        #[inline(always)]
        unsafe fn xor(self, o: Self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.xor(o.0), self.1.xor(o.1)) }
        }
        #[inline(always)]
        unsafe fn andnot(self, o: Self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.andnot(o.0), self.1.andnot(o.1)) }
        }
        #[inline(always)]
        unsafe fn add64(self, o: Self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.add64(o.0), self.1.add64(o.1)) }
        }
        #[inline(always)]
        unsafe fn shl64_1(self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.shl64_1(), self.1.shl64_1()) }
        }
        #[inline(always)]
        unsafe fn shr64<const N: i32>(self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.shr64::<N>(), self.1.shr64::<N>()) }
        }
        #[inline(always)]
        unsafe fn shl_bytes<const N: i32>(self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.shl_bytes::<N>(), self.1.shl_bytes::<N>()) }
        }
        #[inline(always)]
        unsafe fn shr_bytes<const N: i32>(self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.shr_bytes::<N>(), self.1.shr_bytes::<N>()) }
        }
        #[inline(always)]
        unsafe fn lowest(self) -> Self {
            // SAFETY: forwarded to the caller.
            unsafe { Pair(self.0.lowest(), self.1.lowest()) }
        }
        #[inline(always)]
        unsafe fn same(self, o: Self) -> bool {
            // SAFETY: forwarded to the caller.
            unsafe { self.0.xor(o.0).or(self.1.xor(o.1)).is_zero() }
        }
        #[inline(always)]
        unsafe fn is_zero(self) -> bool {
            // SAFETY: forwarded to the caller.
            unsafe { self.0.or(self.1).is_zero() }
        }
    }

    /// Per-board propagator masks for whole-run fills: bit `c` of a mask says a fill may jump
    /// over the given distance into cell `c` without passing a gap of the board.
    #[derive(Clone, Copy)]
    struct Runs<L> {
        /// The board.
        m: L,
        /// Cells whose 1 and 3 right neighbours are in the board: leftward jumps of 2 and 4.
        left: [L; 2],
        /// Cells whose 1, 3 and 7 cells above are in the board: downward jumps of 2, 4, 8.
        down: [L; 3],
        /// Cells whose 1, 3 and 7 cells below are in the board: upward jumps of 2, 4, 8.
        up: [L; 3],
    }

    impl<L: Lanes> Runs<L> {
        /// # Safety
        /// As for [`Lanes`].
        #[inline(always)]
        unsafe fn new(m: L) -> Runs<L> {
            // SAFETY: forwarded to the caller.
            unsafe {
                let l2 = m.and(m.shr64::<1>());
                let d2 = m.and(m.shl_bytes::<1>());
                let d4 = d2.and(d2.shl_bytes::<2>());
                let u2 = m.and(m.shr_bytes::<1>());
                let u4 = u2.and(u2.shr_bytes::<2>());
                Runs {
                    m,
                    left: [l2, l2.and(l2.shr64::<2>())],
                    down: [d2, d4, d4.and(d4.shl_bytes::<4>())],
                    up: [u2, u4, u4.and(u4.shr_bytes::<4>())],
                }
            }
        }

        /// Every row run of the board that `x` (inside it) touches, whole: adding `x` to the
        /// board carries right through each touched run and stops at the zero sentinel
        /// columns; a Kogge-Stone fill of 1, 2 and 4 cells reaches the run's left end.
        ///
        /// # Safety
        /// As for [`Lanes`].
        #[inline(always)]
        unsafe fn rows(&self, x: L) -> L {
            // SAFETY: forwarded to the caller.
            unsafe {
                let m = self.m;
                let x = m.add64(x).xor(m).or(x).and(m);
                let x = x.or(x.shr64::<1>().and(m));
                let x = x.or(x.shr64::<2>().and(self.left[0]));
                x.or(x.shr64::<4>().and(self.left[1]))
            }
        }

        /// Every vertical run of the board that `x` (inside it) touches, whole: Kogge-Stone
        /// fills of 1, 2, 4 and 8 rows down and up.
        ///
        /// # Safety
        /// As for [`Lanes`].
        #[inline(always)]
        unsafe fn columns(&self, x: L) -> L {
            // SAFETY: forwarded to the caller.
            unsafe {
                let (m, d, u) = (self.m, &self.down, &self.up);
                let dn = x.or(x.shl_bytes::<1>().and(m));
                let dn = dn.or(dn.shl_bytes::<2>().and(d[0]));
                let dn = dn.or(dn.shl_bytes::<4>().and(d[1]));
                let dn = dn.or(dn.shl_bytes::<8>().and(d[2]));
                let up = x.or(x.shr_bytes::<1>().and(m));
                let up = up.or(up.shr_bytes::<2>().and(u[0]));
                let up = up.or(up.shr_bytes::<4>().and(u[1]));
                dn.or(up.or(up.shr_bytes::<8>().and(u[2])))
            }
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
            let horizontal = x.shl64_1().or(x.shr64::<1>());
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
            let (l, r) = (m.shl64_1(), m.shr64::<1>());
            let (u, d) = (m.shl_bytes::<1>(), m.shr_bytes::<1>());
            let singles = l.or(r).or(u).or(d).andnot(m);
            // Exactly one neighbour: odd parity and no two neighbour masks overlapping.
            let two = l.and(r).or(u.and(d)).or(l.or(r).and(u.or(d)));
            let one = two.andnot(l.xor(r).xor(u).xor(d).and(m));
            let dominoes = one.and(neighbours(one));
            let right = dominoes.and(dominoes.shr64::<1>());
            let down = dominoes.and(dominoes.shr_bytes::<1>());
            (singles.or(dominoes).andnot(m), singles, right, down)
        }
    }

    /// Row-major board to the padded layout: row `r` in byte `r`, columns 6 and 7 zero.
    ///
    /// Three halving steps of shifts and masks (48 bits to two 24-bit halves, to four 12-bit
    /// pairs of rows, to eight rows), not `pdep`: that is one instruction on Intel and on AMD
    /// from Zen 3, but microcode costing a hundred cycles and more on Zen 1 and Zen 2, where
    /// it made the SIMD variants six times slower than `swar` on dense boards.
    #[inline(always)]
    fn to_padded(bits: u128) -> u128 {
        let low = spread_rows(bits as u64 & ((1 << LOW_BITS) - 1));
        let high = spread_rows((bits >> LOW_BITS) as u64);
        low as u128 | (high as u128) << 64
    }

    /// Padded component back to a row-major mask: [`to_padded`] undone step by step.
    #[inline(always)]
    fn to_rows(padded: u128) -> u128 {
        let low = gather_rows(padded as u64);
        let high = gather_rows((padded >> 64) as u64);
        low as u128 | (high as u128) << LOW_BITS
    }

    /// Bits of the first eight rows, row-major.
    const LOW_BITS: u32 = 48;

    /// Up to eight 6-bit rows, packed, to one row per byte.
    #[inline(always)]
    fn spread_rows(x: u64) -> u64 {
        let x = (x & 0x0000_0000_00ff_ffff) | (x & 0x0000_ffff_ff00_0000) << 8;
        let x = (x & 0x0000_0fff_0000_0fff) | (x & 0x00ff_f000_00ff_f000) << 4;
        (x & 0x003f_003f_003f_003f) | (x & 0x0fc0_0fc0_0fc0_0fc0) << 2
    }

    /// One 6-bit row per byte (columns 6 and 7 clear) to the rows packed.
    #[inline(always)]
    fn gather_rows(x: u64) -> u64 {
        let x = (x & 0x003f_003f_003f_003f) | (x >> 2 & 0x0fc0_0fc0_0fc0_0fc0);
        let x = (x & 0x0000_0fff_0000_0fff) | (x >> 4 & 0x00ff_f000_00ff_f000);
        (x & 0x0000_0000_00ff_ffff) | (x >> 8 & 0x0000_ffff_ff00_0000)
    }

    #[cfg(test)]
    #[test]
    fn padding_puts_row_r_in_byte_r_and_back() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u128 << 64 | 0xD1B5_4A32_D192_ED03;
        for _ in 0..1000 {
            x = x.wrapping_mul(0x2545_F491_4F6C_DD1D_0000_0000_0000_0001) ^ (x >> 29);
            let board = x & crate::Board::FULL;
            let padded = to_padded(board);
            for row in 0..12 {
                let want = board >> (6 * row) & 0x3f;
                assert_eq!(padded >> (8 * row) & 0xff, want, "row {row} of {board:#x}");
            }
            assert_eq!(padded >> 96, 0, "{board:#x}");
            assert_eq!(to_rows(padded), board, "{board:#x}");
        }
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
    /// The CPU must have `L`'s target features plus POPCNT, BMI1 and BMI2; callers are
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
        // Blocks of 64 groups: first the sparse groups (mostly single cells, which the scalar
        // labeler places without any growth round), then the dense ones in a loop free of
        // calls, as a call there costs the vector loop its registers.
        let block = 64 * N;
        for (boards, out) in boards.chunks(block).zip(out.chunks_mut(block)) {
            let mut dense = 0u64;
            for (g, boards) in boards.chunks(N).enumerate() {
                let cells: u32 = boards.iter().map(|b| b.bits().count_ones()).sum();
                dense |= u64::from(cells >= SPARSE_CELLS * N as u32) << g;
            }
            // Each run of sparse groups in one call.
            let groups = boards.len().div_ceil(N);
            let mut g = 0;
            while g < groups {
                let run = ((!dense) >> g).trailing_ones() as usize;
                if run == 0 {
                    g += 1;
                    continue;
                }
                let (start, end) = (g * N, boards.len().min((g + run) * N));
                // SAFETY: the caller guarantees POPCNT, BMI1 and BMI2.
                unsafe { crate::swar::batch_fast(&boards[start..end], &mut out[start..end]) };
                g += run;
            }
            while dense != 0 {
                let g = dense.trailing_zeros() as usize;
                dense &= dense - 1;
                let end = boards.len().min((g + 1) * N);
                // SAFETY: forwarded to the caller.
                unsafe {
                    label_group::<L, N>(&boards[g * N..end], &mut out[g * N..end], &mut found)
                };
            }
        }
    }

    /// Labels one group of at most `N` boards with the vector round loop.
    ///
    /// # Safety
    /// As for [`label_batch`].
    #[inline(always)]
    unsafe fn label_group<L: Lanes, const N: usize>(
        boards: &[Board],
        out: &mut [Components],
        found: &mut [[u128; MAX_COMPONENTS + 1]; N],
    ) {
        let mut padded = [0u128; N];
        for (p, b) in padded.iter_mut().zip(boards) {
            *p = to_padded(b.bits());
        }
        // SAFETY: the caller guarantees `L`'s features, BMI2 and POPCNT.
        unsafe {
            // Single cells and dominoes need no growth: they are found for all boards at
            // once and placed by rank at the end.
            let board = L::load(&padded);
            let (rest, singles, right, down) = small_components(board);
            // Each kind back to row-major, skipped when no board has any (dense groups have
            // few single cells and fewer dominoes).
            let mut small = [[0u128; N]; 3];
            for (rows, v) in small.iter_mut().zip([singles, right, down]) {
                if !v.is_zero() {
                    v.store(rows);
                    for r in rows.iter_mut() {
                        *r = to_rows(*r);
                    }
                }
            }
            let mut count = [0usize; N];
            grow_all::<L, N>(rest, found, &mut count);
            for (b, o) in out.iter_mut().enumerate() {
                let small = (small[0][b], small[1][b], small[2][b]);
                place(o, small, &found[b][..count[b]]);
            }
        }
    }

    /// Cells per board below which a group goes to the scalar labeler: below about two
    /// thirds full, `swar` beats the round loop here (Zen 1, quick_bench sweep, ns/board at
    /// densities 0.5 / 0.65 / 0.7: swar 196 / 171 / 160, avx2 rounds 221 / 173 / 147).
    const SPARSE_CELLS: u32 = 48;

    /// Grows the components of `rest`, one per board per round, appending each board's to its
    /// row of `found` (row-major) and counting them in `count`.
    ///
    /// # Safety
    /// As for [`label_batch`].
    #[inline(always)]
    unsafe fn grow_all<L: Lanes, const N: usize>(
        mut rest: L,
        found: &mut [[u128; MAX_COMPONENTS + 1]; N],
        count: &mut [usize; N],
    ) {
        // SAFETY: forwarded to the caller.
        unsafe {
            let mut comp = [0u128; N];
            let runs = Runs::new(rest);
            while !rest.is_zero() {
                // Alternate whole row runs and whole vertical runs: about three rounds reach
                // the fixpoint even on dense boards, where single steps take a dozen or more.
                let mut x = runs.rows(rest.lowest());
                loop {
                    let g = runs.rows(runs.columns(x));
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
    /// dominoes, top cells of vertical ones) and the components `comps` (in canonical order)
    /// into `out`, each at its slot: the number of component starts below its own.
    #[inline(always)]
    fn place(out: &mut Components, small: (u128, u128, u128), comps: &[u128]) {
        let (singles, right, down) = small;
        let small_starts = singles | right | down;
        let mut starts = small_starts;
        for (k, &c) in comps.iter().enumerate() {
            let low = c & c.wrapping_neg();
            out.masks[k + rank(small_starts, low)] = c;
            starts |= low;
        }
        if small_starts != 0 {
            crate::swar::place_small(out, starts, (small_starts, right, down));
        }
        out.len = starts.count_ones() as u8;
    }
}
