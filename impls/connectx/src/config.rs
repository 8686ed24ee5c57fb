//! Game configurations (`WxHkK`) and the bitboard geometry derived from them.
//!
//! [`Config`] is Kaggle's `columns`, `rows` and `inarow`; [`Geometry`] holds
//! what the bitboard code needs for one configuration (column masks, the four
//! line directions and the log-doubling shift schedule), computed once.

use std::fmt;
use std::str::FromStr;

use crate::Error;
use crate::bits::Bits;

/// A ConnectX configuration: `columns` W, `rows` H, `inarow` K.
///
/// Invariants (checked by [`Config::new`]): `W, H >= 1`, `W*(H+1) <= 128` and
/// `1 <= K <= max(W, H)`.
///
/// Packed in one word (`W | H << 8 | K << 16`) so that telling whether a
/// batch changes configuration is one compare per position (a transparent
/// `u32`, which the SIMD kernels read as part of a position's last word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Config {
    packed: u32,
}

impl Config {
    /// Kaggle's default: 7 columns, 6 rows, 4 in a row.
    pub const STANDARD: Config = Config::pack(7, 6, 4);

    const fn pack(columns: u32, rows: u32, inarow: u32) -> Config {
        Config {
            packed: columns | rows << 8 | inarow << 16,
        }
    }

    /// Validates and builds a configuration.
    pub fn new(columns: usize, rows: usize, inarow: usize) -> Result<Config, String> {
        if columns == 0 || rows == 0 {
            return Err(format!("board {columns}x{rows} has no cells"));
        }
        let bits = columns.saturating_mul(rows.saturating_add(1));
        if bits > 128 {
            return Err(format!(
                "board {columns}x{rows} needs W*(H+1) = {bits} bits, more than 128"
            ));
        }
        if inarow == 0 || inarow > columns.max(rows) {
            return Err(format!(
                "k = {inarow} is impossible on a {columns}x{rows} board (need 1..={})",
                columns.max(rows)
            ));
        }
        // All three fit in a byte: bits <= 128 bounds columns and rows.
        Ok(Config::pack(columns as u32, rows as u32, inarow as u32))
    }

    /// Number of columns W.
    pub fn columns(self) -> usize {
        (self.packed & 0xff) as usize
    }

    /// Number of rows H.
    pub fn rows(self) -> usize {
        (self.packed >> 8 & 0xff) as usize
    }

    /// Stones in a row needed to win, K.
    pub fn inarow(self) -> usize {
        (self.packed >> 16) as usize
    }

    /// Number of cells W*H (the longest possible game).
    pub fn cells(self) -> usize {
        self.columns() * self.rows()
    }

    /// Bits used by the bitboard, W*(H+1).
    pub fn bits(self) -> u32 {
        (self.columns() * (self.rows() + 1)) as u32
    }

    /// Whether the `u64` fast path can hold this board.
    pub fn fits_u64(self) -> bool {
        self.bits() <= 64
    }

    /// The bitboard bit of Kaggle's cell (row `row` from the top, column `col`):
    /// `col*(H+1) + (H-1-row)`.
    pub fn bit_index(self, row: usize, col: usize) -> u32 {
        (col * (self.rows() + 1) + (self.rows() - 1 - row)) as u32
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}k{}", self.columns(), self.rows(), self.inarow())
    }
}

impl FromStr for Config {
    type Err = Error;

    fn from_str(s: &str) -> Result<Config, Error> {
        let bad = |reason: String| Error::new(s, reason);
        let text = s.trim();
        let (w, rest) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| bad("expected a configuration like 7x6k4".into()))?;
        let (h, k) = rest
            .split_once(['k', 'K'])
            .ok_or_else(|| bad("expected a configuration like 7x6k4".into()))?;
        let num = |part: &str, what: &str| {
            part.parse::<usize>()
                .map_err(|_| bad(format!("{what} {part:?} is not a number")))
        };
        Config::new(num(w, "columns")?, num(h, "rows")?, num(k, "k")?).map_err(bad)
    }
}

/// Most shift steps a run-length doubling needs (K <= 127 takes at most 7:
/// six doublings to 64, then one step to close the gap).
pub(crate) const MAX_STEPS: usize = 7;

/// The line directions and shift schedule of one configuration (they do
/// not depend on the word type); [`Geometry`] and the SIMD kernels use it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Schedule {
    /// See [`Geometry::dirs`].
    pub dirs: [u32; 4],
    /// See [`Geometry::shifts`].
    pub shifts: [[u32; 4]; MAX_STEPS],
    /// See [`Geometry::steps`].
    pub steps: usize,
}

impl Schedule {
    pub(crate) fn new(config: Config) -> Schedule {
        let (w, h, k) = (config.columns(), config.rows(), config.inarow());
        let stride = (h + 1) as u32;
        // Vertical, horizontal and the two diagonals. A direction that cannot
        // hold K stones would need shifts wider than the word, so it borrows
        // a direction that can (duplicating a direction changes no OR).
        let dirs = [1, stride, stride - 1, stride + 1];
        let possible = [k <= h, k <= w, k <= w.min(h), k <= w.min(h)];
        let fallback = dirs[possible.iter().position(|&p| p).unwrap_or(0)];
        let dirs: [u32; 4] = std::array::from_fn(|j| if possible[j] { dirs[j] } else { fallback });
        let mut shifts = [[0; 4]; MAX_STEPS];
        let mut steps = 0;
        let mut run = 1;
        while run < k {
            // Double the run while that stays <= K, then close the gap with one
            // overlapping step of K - run (< run).
            let step = if 2 * run <= k { run } else { k - run };
            shifts[steps] = dirs.map(|d| d * step as u32);
            steps += 1;
            run += step;
        }
        Schedule {
            dirs,
            shifts,
            steps,
        }
    }
}

/// Bitboard constants of one configuration, for one word type.
#[derive(Clone, Copy, Debug)]
pub struct Geometry<B> {
    /// Bit 0 of every column (the bottom row).
    pub bottom: B,
    /// Every playable cell (all bits except the spare bit on top of each column).
    pub board: B,
    /// The top row: a stone played there fills its column.
    pub top: B,
    /// The four line directions as bit distances (vertical, horizontal, two
    /// diagonals); a direction too short for K repeats one that is not.
    pub dirs: [u32; 4],
    /// K, the stones in a row needed to win.
    pub inarow: usize,
    /// Per doubling step, the right shift for each of the four directions.
    pub shifts: [[u32; 4]; MAX_STEPS],
    /// How many entries of `shifts` are used.
    pub steps: usize,
    /// Whether every used shift is below 64, so a `u128` word can shift
    /// with [`Bits::shr_short`] (true on every board with `W*(H+1) <= 65`,
    /// and on most larger ones).
    pub short: bool,
}

impl<B: Bits> Geometry<B> {
    /// Derives the masks and the shift schedule; `B` must hold `config.bits()`.
    pub fn new(config: Config) -> Geometry<B> {
        assert!(config.bits() <= B::WIDTH, "{config} does not fit the word");
        let (w, h, k) = (config.columns(), config.rows(), config.inarow());
        let stride = (h + 1) as u32;
        let mut bottom = B::ZERO;
        for c in 0..w as u32 {
            bottom |= B::ONE << (c * stride);
        }
        let mut board = B::ZERO;
        for r in 0..h as u32 {
            board |= bottom << r;
        }
        let Schedule {
            dirs,
            shifts,
            steps,
        } = Schedule::new(config);
        Geometry {
            bottom,
            board,
            top: bottom << (h as u32 - 1),
            dirs,
            inarow: k,
            shifts,
            steps,
            short: shifts[..steps]
                .iter()
                .flatten()
                .all(|&n| (1..64).contains(&n)),
        }
    }

    /// Whether `stones` contain K aligned in any direction (Tromp/Pons shifts).
    #[inline(always)]
    pub fn has_line(&self, stones: B) -> bool {
        self.has_lines([stones])[0]
    }

    /// [`has_line`](Geometry::has_line) for several boards at once: their
    /// 4·N shift chains are independent, so they overlap in the pipeline.
    #[inline(always)]
    pub fn has_lines<const N: usize>(&self, stones: [B; N]) -> [bool; N] {
        // A u64 word never shifts by 64 or more: its test folds away.
        if B::WIDTH == 64 || self.short {
            self.lines_by_steps::<true, N>(stones)
        } else {
            self.lines_by_steps::<false, N>(stones)
        }
    }

    /// [`has_lines`](Geometry::has_lines) with `SHORT` equal to `short`.
    #[inline(always)]
    fn lines_by_steps<const SHORT: bool, const N: usize>(&self, stones: [B; N]) -> [bool; N] {
        // A constant step count lets the compiler unroll the chains into
        // straight-line code; the match is perfectly predicted in a batch or
        // a search, which use one configuration throughout.
        match self.steps {
            0 => self.lines_in::<0, N, SHORT>(stones),
            1 => self.lines_in::<1, N, SHORT>(stones),
            2 => self.lines_in::<2, N, SHORT>(stones),
            3 => self.lines_in::<3, N, SHORT>(stones),
            4 => self.lines_in::<4, N, SHORT>(stones),
            5 => self.lines_in::<5, N, SHORT>(stones),
            6 => self.lines_in::<6, N, SHORT>(stones),
            _ => self.lines_in::<7, N, SHORT>(stones),
        }
    }

    /// [`has_lines`](Geometry::has_lines) for a step count known at compile
    /// time (`STEPS` must be `steps`, or `MAX_STEPS` when `steps` is 7) and
    /// `SHORT` equal to `short`.
    #[inline(always)]
    pub(crate) fn lines_in<const STEPS: usize, const N: usize, const SHORT: bool>(
        &self,
        stones: [B; N],
    ) -> [bool; N] {
        let mut m = stones.map(|s| [s; 4]);
        for s in &self.shifts[..STEPS] {
            // Boards sharing a shift count side by side: without BMI2 every
            // variable shift goes through `cl`, which then serves N of them.
            for j in 0..4 {
                for chains in &mut m {
                    let shifted = if SHORT {
                        chains[j].shr_short(s[j])
                    } else {
                        chains[j] >> s[j]
                    };
                    chains[j] &= shifted;
                }
            }
        }
        m.map(|[a, b, c, d]| (a | b | c | d) != B::ZERO)
    }

    /// One bit per non-full column: the cell the next stone there lands on.
    #[inline(always)]
    pub fn playable(&self, occupied: B) -> B {
        occupied.wrapping_add(self.bottom) & self.board
    }

    /// Every cell where one more stone would give `me` K aligned (occupied
    /// and unreachable cells included: mask the result with the playable
    /// cells).
    #[inline]
    pub fn winning_cells(&self, me: B) -> B {
        // A constant K unrolls the run loops below; K above 8 (rare, and only
        // on long thin boards) takes a heap buffer.
        match self.inarow {
            1 => self.winning_cells_in(me, &mut [B::ZERO; 1]),
            2 => self.winning_cells_in(me, &mut [B::ZERO; 2]),
            3 => self.winning_cells_in(me, &mut [B::ZERO; 3]),
            4 => self.winning_cells_in(me, &mut [B::ZERO; 4]),
            5 => self.winning_cells_in(me, &mut [B::ZERO; 5]),
            6 => self.winning_cells_in(me, &mut [B::ZERO; 6]),
            7 => self.winning_cells_in(me, &mut [B::ZERO; 7]),
            8 => self.winning_cells_in(me, &mut [B::ZERO; 8]),
            k => self.winning_cells_in(me, &mut vec![B::ZERO; k]),
        }
    }

    /// A cell x completes a line along d when the i cells before it and the
    /// K-1-i cells after it are `me`'s, for some i: `after[j]` (the j cells
    /// after x are mine) is built once per direction, then each `before[i]`
    /// is paired with `after[K-1-i]`. `after` has K entries.
    #[inline(always)]
    fn winning_cells_in(&self, me: B, after: &mut [B]) -> B {
        let k = after.len();
        let mut cells = B::ZERO;
        for &d in &self.dirs {
            after[0] = !B::ZERO;
            let mut shifted = me;
            for j in 1..k {
                shifted = shifted >> d;
                after[j] = after[j - 1] & shifted;
            }
            cells |= after[k - 1];
            let (mut before, mut shifted) = (!B::ZERO, me);
            for i in 1..k {
                shifted = shifted << d;
                before &= shifted;
                cells |= before & after[k - 1 - i];
            }
        }
        cells
    }
}
