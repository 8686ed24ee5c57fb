//! Scalar SWAR labelling tuned to the sizes components really have. Isolated cells are found
//! for the whole board at once and emitted without growth. Other small components come from a
//! table built at compile time: the component of a row's first cell within that row and the
//! next, which is the whole component when it touches nothing in the row after. The rest grow
//! from that piece by dilation in a u64 window of ten rows (half the cost of u128); a component
//! that leaves the window, keeps growing, or starts dense finishes with whole-run fills (carry
//! addition and Kogge-Stone shifts with per-board propagator masks) that cross a dense board in
//! a few rounds.

use crate::bits::{NOT_LEFT, NOT_RIGHT, RIGHT, isolated};
use crate::{Board, Components, Labeler};

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
#[derive(Clone, Copy, Debug, Default)]
pub struct Swar;

impl Labeler for Swar {
    fn label(&self, board: Board, out: &mut Components) {
        let m = board.bits();
        let singles = isolated(m);
        let mut rest = m;
        let mut n = 0;
        while rest != 0 {
            let low = rest & rest.wrapping_neg();
            // Singles skip the lookup: it sits on the serial chain from one component to the
            // next, which is what bounds sparse boards.
            let comp = if low & singles != 0 {
                low
            } else {
                // The lowest cell starts the next component (canonical order), and nothing of
                // `rest` lies before it in its row, so the rows from its row on index the table.
                let shift = rest.trailing_zeros() / W * W;
                let window = (rest >> shift) as u64;
                let piece = u64::from(PAIRS[(window & ((1 << PAIR_BITS) - 1)) as usize]);
                if (piece >> W) & (window >> PAIR_BITS) & ROW == 0 {
                    (piece as u128) << shift
                } else {
                    grow(rest, shift, piece)
                }
            };
            // A local count keeps the length out of memory inside the loop.
            out.masks[n] = comp;
            n += 1;
            rest ^= comp;
        }
        out.len = n as u8;
    }
}

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

/// The component of `m` containing `x`, by whole-run fills across rows and down columns.
fn grow_big(m: u128, x: u128) -> u128 {
    let f = Fills::new(m);
    let mut x = f.runs(x);
    while !f.closed(x) {
        x = f.runs(f.columns(x));
    }
    x
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
}
