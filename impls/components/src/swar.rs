//! Scalar SWAR labelling tuned to the sizes components really have. Isolated cells are found
//! for the whole board at once and written straight to their slots (the number of component
//! starts below them), with no serial chain from one to the next. Other small components come from a
//! table built at compile time: the component of a row's first cell within that row and the
//! next, which is the whole component when it touches nothing in the row after. The rest grow
//! from that piece by dilation in a u64 window of ten rows (half the cost of u128); a component
//! that leaves the window, keeps growing, or starts dense finishes with whole-run fills (carry
//! addition and Kogge-Stone shifts with per-board propagator masks) that cross a dense board in
//! a few rounds.

use crate::bits::{NOT_LEFT, NOT_RIGHT, RIGHT, isolated};
use crate::{Board, Components, Labeler, SPARE};

const W: u32 = Board::WIDTH as u32;
/// Bits of two rows, the table's index.
const PAIR_BITS: u32 = 2 * W;
const ROW: u64 = (1 << W) - 1;

/// For every two-row pattern (first row in the low 6 bits), the component of its lowest cell
/// within those two rows.
static PAIRS: [u16; 1 << PAIR_BITS] = pair_table();

const fn pair_table() -> [u16; 1 << PAIR_BITS] {
    let not_left = NOT_LEFT as u16 & ((1 << PAIR_BITS) - 1);
    let not_right = NOT_RIGHT as u16 & ((1 << PAIR_BITS) - 1);
    let mut table = [0u16; 1 << PAIR_BITS];
    let mut m = 1u16;
    while m < 1 << PAIR_BITS {
        let mut x = m & m.wrapping_neg();
        loop {
            let g = (x | (x << 1) & not_left | (x >> 1) & not_right | x << W | x >> W) & m;
            if g == x {
                break;
            }
            x = g;
        }
        table[m as usize] = x;
        m += 1;
    }
    table
}

/// Per-board propagator masks: bit `i` of a mask says a fill may pass through cell `i` over the
/// given distance without leaving the board or wrapping a row.
struct Fills {
    /// The board.
    m: u128,
    /// Board cells outside the right column: the carry chain runs in these, so a carry never
    /// leaves its row.
    m_r: u128,
    /// Board cells in the right column, reached from their left neighbour after the carry.
    m_c5: u128,
    /// Leftward fill over 2 and 4 cells.
    left2: u128,
    left4: u128,
    /// Downward fill over 2, 4 and 8 rows.
    down2: u128,
    down4: u128,
    down8: u128,
    /// Upward fill over 2, 4 and 8 rows.
    up2: u128,
    up4: u128,
    up8: u128,
}

impl Fills {
    #[inline(always)]
    fn new(m: u128) -> Fills {
        let m_r = m & NOT_RIGHT;
        let left2 = m_r & (m_r >> 1);
        let down2 = m & (m << W);
        let down4 = down2 & (down2 << (2 * W));
        let up2 = m & (m >> W);
        let up4 = up2 & (up2 >> (2 * W));
        Fills {
            m,
            m_r,
            m_c5: m & RIGHT,
            left2,
            left4: left2 & (left2 >> 2),
            down2,
            down4,
            down8: down4 & (down4 << (4 * W)),
            up2,
            up4,
            up8: up4 & (up4 >> (4 * W)),
        }
    }

    /// Extends every run of the board that `x` touches to the whole run.
    #[inline(always)]
    fn runs(&self, x: u128) -> u128 {
        // Carry from the lowest touched cell runs to the right end of its run in `m_r`.
        let seeds = x & self.m_r;
        let right = ((self.m_r + seeds) ^ self.m_r) & self.m_r;
        let mut x = x | right;
        x |= (x << 1) & self.m_c5;
        x |= (x >> 1) & self.m_r;
        x |= (x >> 2) & self.left2;
        x | (x >> 4) & self.left4
    }

    /// Extends every vertical run of the board that `x` touches to the whole vertical run.
    #[inline(always)]
    fn columns(&self, x: u128) -> u128 {
        let mut d = x | (x << W) & self.m;
        d |= (d << (2 * W)) & self.down2;
        d |= (d << (4 * W)) & self.down4;
        d |= (d << (8 * W)) & self.down8;
        let mut u = x | (x >> W) & self.m;
        u |= (u >> (2 * W)) & self.up2;
        u |= (u >> (4 * W)) & self.up4;
        u |= (u >> (8 * W)) & self.up8;
        d | u
    }

    /// Whether `x` (closed under runs) has no vertical neighbour outside itself.
    #[inline(always)]
    fn closed(&self, x: u128) -> bool {
        ((x << W) | (x >> W)) & self.m & !x == 0
    }
}

/// Run-filling SWAR flood fill.
#[derive(Clone, Copy, Debug)]
pub struct Swar {
    /// Whether the CPU has POPCNT and BMI1/BMI2 (checked once in [`Swar::new`]);
    /// other architectures have no such build.
    #[cfg(target_arch = "x86_64")]
    fast: bool,
}

impl Swar {
    /// The labeler, set up to use POPCNT and BMI where the CPU has them.
    pub fn new() -> Swar {
        Swar {
            #[cfg(target_arch = "x86_64")]
            fast: is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2"),
        }
    }
}

impl Default for Swar {
    fn default() -> Swar {
        Swar::new()
    }
}

impl Labeler for Swar {
    fn label(&self, board: Board, out: &mut Components) {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is true only when `new` saw the features.
            return unsafe { label_fast(board, out) };
        }
        label(board, out);
    }

    fn label_batch(&self, boards: &[Board], out: &mut [Components]) {
        assert_eq!(
            boards.len(),
            out.len(),
            "label_batch: boards and out differ in length"
        );
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is true only when `new` saw the features.
            return unsafe { batch_fast(boards, out) };
        }
        for (&b, o) in boards.iter().zip(out.iter_mut()) {
            label(b, o);
        }
    }
}

/// [`label`] compiled for POPCNT and BMI (the rank counts and bit loops are single
/// instructions there, a dozen without).
///
/// # Safety
/// The CPU must have POPCNT, BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
unsafe fn label_fast(board: Board, out: &mut Components) {
    label(board, out);
}

/// [`label_fast`] over a batch, in one call so the loop is compiled with the features too.
///
/// # Safety
/// The CPU must have POPCNT, BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
#[inline(never)]
pub(crate) unsafe fn batch_fast(boards: &[Board], out: &mut [Components]) {
    for (&b, o) in boards.iter().zip(out.iter_mut()) {
        label(b, o);
    }
}

/// Labels one board. Isolated cells, most components of sparse boards, come from a
/// whole-board pre-pass and are never grown; the other components are grown one at a time;
/// then every component goes to its slot in canonical order, the number of component starts
/// below its own, so the isolated cells are written without a serial chain between them.
#[inline(always)]
fn label(board: Board, out: &mut Components) {
    let m = board.bits();
    let singles = isolated(m);
    let mut rest = m ^ singles;
    // Components are found in canonical order, so the slot of the `k`th is `k` plus the
    // isolated cells before its start.
    let mut k = 0;
    let mut starts = singles;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        // The lowest cell starts the next component, and nothing of `rest` lies before it in
        // its row, so the rows from its row on index the table.
        let shift = rest.trailing_zeros() / W * W;
        let window = (rest >> shift) as u64;
        let piece = u64::from(PAIRS[(window & ((1 << PAIR_BITS) - 1)) as usize]);
        let comp = if (piece >> W) & (window >> PAIR_BITS) & ROW == 0 {
            (piece as u128) << shift
        } else {
            grow(rest, shift, piece)
        };
        out.masks[k + rank(singles, low)] = comp;
        k += 1;
        starts |= low;
        rest ^= comp;
    }
    if singles != 0 {
        place_small(out, starts, (singles, 0, 0));
    }
    out.len = starts.count_ones() as u8;
}

/// The number of cells of `set` below the single cell `low`.
#[inline(always)]
fn rank(set: u128, low: u128) -> usize {
    (set & (low - 1)).count_ones() as usize
}

/// Writes every one- and two-cell component to its slot among `starts` (the number of
/// component starts below its own): `small` holds their first cells, `right` the left cells
/// of horizontal dominoes and `down` the top cells of vertical ones (zero when there are
/// none, which inlining folds away). The first 64 cells go in 64-bit steps, `UNROLL` per loop
/// test, as mispredicted loop exits are much of what a sparse board costs; steps past the last
/// cell write an empty mask to the spare slot.
#[inline(always)]
pub(crate) fn place_small(
    out: &mut Components,
    starts: u128,
    (small, right, down): (u128, u128, u128),
) {
    let (starts_lo, right_lo, down_lo) = (starts as u64, right as u64, down as u64);
    let mut s = small as u64;
    loop {
        for _ in 0..UNROLL {
            let low = s & s.wrapping_neg();
            let (beside, below) = (low & right_lo, low & down_lo);
            // A domino starting in row 10 may end in the high word.
            let lo = low | beside << 1 | below << W;
            let hi = beside >> 63 | below >> (64 - W);
            let slot = (starts_lo & low.wrapping_sub(1)).count_ones() as usize;
            out.masks[if low == 0 { SPARE } else { slot }] = u128::from(lo) | u128::from(hi) << 64;
            s &= s.wrapping_sub(1);
        }
        if s == 0 {
            break;
        }
    }
    // The last eight cells rarely hold more than two starts: two steps without a test, then a
    // loop that seldom runs.
    let base = starts_lo.count_ones() as usize;
    let (starts_hi, right_hi, down_hi) = (
        (starts >> 64) as u64,
        (right >> 64) as u64,
        (down >> 64) as u64,
    );
    let mut s = (small >> 64) as u64;
    let mut step = |s: &mut u64| {
        let low = *s & s.wrapping_neg();
        let hi = low | (low & right_hi) << 1 | (low & down_hi) << W;
        let slot = base + (starts_hi & low.wrapping_sub(1)).count_ones() as usize;
        out.masks[if low == 0 { SPARE } else { slot }] = u128::from(hi) << 64;
        *s &= s.wrapping_sub(1);
    };
    step(&mut s);
    step(&mut s);
    while s != 0 {
        step(&mut s);
    }
}

/// Steps of [`place_small`] per loop test.
const UNROLL: usize = 3;

/// Ten rows of six cells: the most a u64 window holds.
const WINDOW_BITS: u32 = 60;
const WINDOW: u64 = (1 << WINDOW_BITS) - 1;
/// Dilation steps before a component counts as big.
const SMALL_STEPS: u32 = 10;
/// Cells of a two-row piece from which its component counts as big from the start.
const DENSE_PIECE: u32 = 10;
const NOT_LEFT64: u64 = NOT_LEFT as u64 & ((1 << WINDOW_BITS) - 1);
const NOT_RIGHT64: u64 = NOT_RIGHT as u64 & ((1 << WINDOW_BITS) - 1);

/// The component of `m` containing `piece` (rows from `shift` on, as the window holds them);
/// out of line so the loop for small components stays small. Growth starts in a u64 window of
/// ten rows, at half the cost of u128; only a component that reaches the window's last row
/// with more of the board below goes on in u128.
#[inline(never)]
fn grow(m: u128, shift: u32, piece: u64) -> u128 {
    if piece.count_ones() >= DENSE_PIECE {
        // A dense start: whole-run fills cross the board in a few rounds.
        return grow_big(m, (piece as u128) << shift);
    }
    let below = m >> shift;
    let under = (below >> WINDOW_BITS) as u64;
    match grow64(below as u64 & WINDOW, piece) {
        Ok(x) if (x >> (WINDOW_BITS - W)) & under & ROW == 0 => (x as u128) << shift,
        Ok(x) | Err(x) => grow_big(m, (x as u128) << shift),
    }
}

/// The component of the window `m` containing `x`, by single-step dilation; `Err` with the
/// part grown so far when it is still growing after [`SMALL_STEPS`] steps, a big component
/// that whole-run fills finish sooner.
fn grow64(m: u64, mut x: u64) -> Result<u64, u64> {
    let (ml, mr) = (m & NOT_LEFT64, m & NOT_RIGHT64);
    let step = |x: u64| x | (x << 1) & ml | (x >> 1) & mr | ((x << W) | (x >> W)) & m;
    for _ in 0..SMALL_STEPS {
        // One step per test: two per test measured slower here (at density 0.5, 141 against
        // 136 ns/board), as the u64 step is cheap and a component stops growing sooner.
        let g = step(x);
        if g == x {
            return Ok(x);
        }
        x = g;
    }
    Err(x)
}

/// The component of `m` containing `x`, a connected part of it, by rounds of whole-run fills
/// down columns, then across rows, each round tested after. A dense piece, or what [`grow64`]
/// finished in its window, holds whole runs already and nearly always has a cell below, so a
/// run fill and a test before the first round found nothing (at density 0.875, 583 -> 515
/// instructions a board); what [`grow64`] left growing gets its runs in the first round, and the
/// third of those that a run fill alone would finish pay one column fill more (0.5: 839 -> 841).
fn grow_big(m: u128, mut x: u128) -> u128 {
    let f = Fills::new(m);
    loop {
        x = f.runs(f.columns(x));
        if f.closed(x) {
            return x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive_bfs::NaiveBfs;

    #[test]
    fn pair_table_is_the_first_component_of_two_rows() {
        let mut out = Components::new();
        for (pattern, &piece) in PAIRS.iter().enumerate() {
            NaiveBfs.label(Board(pattern as u128), &mut out);
            let want = out.as_slice().first().copied().unwrap_or(0);
            assert_eq!(u128::from(piece), want, "pattern {pattern:#x}");
        }
    }

    /// `grow_big` fills a round before its first test: a part that is whole already comes back
    /// as it is (a dense piece with nothing below: the last two rows, or two rows above an empty
    /// one), and one cell of a run grows to its component.
    #[test]
    fn grow_big_tests_after_a_round() {
        let two_rows = (1u128 << PAIR_BITS) - 1;
        let last = two_rows << (10 * W);
        let apart = two_rows | two_rows << (3 * W);
        assert_eq!(grow_big(last, last), last);
        assert_eq!(grow_big(apart, two_rows), two_rows);
        assert_eq!(grow_big(apart, 1 << (3 * W + 5)), two_rows << (3 * W));
        assert_eq!(grow_big(Board::FULL, 1 << 4), Board::FULL);
        let but_row_9 = Board::FULL & !(u128::from(ROW) << (9 * W));
        let (mut got, mut want) = (Components::new(), Components::new());
        for bits in [last, apart, last | 1, but_row_9] {
            Swar::new().label(Board(bits), &mut got);
            NaiveBfs.label(Board(bits), &mut want);
            assert_eq!(got, want, "{bits:#x}");
        }
    }

    /// The portable path, which CPUs without POPCNT and BMI take, agrees with the oracle (the
    /// registry builds the other one wherever the features exist).
    #[test]
    fn portable_path_matches_the_oracle() {
        let portable = Swar { fast: false };
        let (mut got, mut want) = (Components::new(), Components::new());
        let mut boards = crate::inputs::edge_cases();
        for (i, p) in [0.05, 0.125, 0.3, 0.5, 0.7, 0.875, 0.95]
            .into_iter()
            .enumerate()
        {
            boards.extend(
                crate::inputs::density(p, i as u64, 300)
                    .into_iter()
                    .map(|b| ("", b)),
            );
        }
        for (label, b) in boards {
            portable.label(b, &mut got);
            NaiveBfs.label(b, &mut want);
            assert_eq!(got, want, "{label} {b}");
        }
    }
}
