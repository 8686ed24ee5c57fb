//! Scalar SWAR flood fill tuned to the size of each component. A pre-pass emits isolated
//! cells without growing them; a component starting below row 1 fits in a 60-bit window and
//! grows in u64 arithmetic; a component that is still growing after two u128 steps is a big one
//! and switches to whole-run fills (carry addition and Kogge-Stone shifts with per-board
//! propagator masks), which cross the board in a few rounds instead of one cell per step.

use crate::bits::{NOT_LEFT, NOT_RIGHT, RIGHT, dilate, isolated};
use crate::{Board, Components, Labeler};

const W: u32 = Board::WIDTH as u32;

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
            let comp = if low & singles != 0 {
                low
            } else {
                // A component lies in the rows from its lowest cell's row down. When those
                // rows fit in 60 bits, grow it in a u64 window at half the cost of u128.
                let shift = low.trailing_zeros() / W * W;
                let window = rest >> shift;
                if window >> WINDOW_BITS == 0 {
                    (grow_window(window as u64, (low >> shift) as u64) as u128) << shift
                } else {
                    // Grow a few steps; a component still growing after that is a big one,
                    // worth the per-board Kogge-Stone masks.
                    let mut x = low;
                    let mut steps = 0;
                    loop {
                        let g = dilate(x) & rest;
                        if g == x {
                            break x;
                        }
                        x = g;
                        steps += 1;
                        if steps == SMALL_STEPS {
                            break grow_big(rest, x);
                        }
                    }
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

/// The component of `m` containing `x` by whole-run fills; kept out of line so the hot loop
/// for small components stays small.
#[inline(never)]
fn grow_big(m: u128, x: u128) -> u128 {
    let f = Fills::new(m);
    let mut x = f.runs(x);
    while !f.closed(x) {
        x = f.runs(f.columns(x));
    }
    x
}

/// Dilation steps before a component counts as big.
const SMALL_STEPS: u32 = 2;

/// Ten rows of six cells: the most a u64 window holds.
const WINDOW_BITS: u32 = 60;
const NOT_LEFT64: u64 = NOT_LEFT as u64 & ((1 << WINDOW_BITS) - 1);
const NOT_RIGHT64: u64 = NOT_RIGHT as u64 & ((1 << WINDOW_BITS) - 1);

/// The component of `m` (rows of a window) containing `seed`, by single-step dilation.
#[inline(always)]
fn grow_window(m: u64, seed: u64) -> u64 {
    let (ml, mr) = (m & NOT_LEFT64, m & NOT_RIGHT64);
    let grow = |x: u64| x | (x << 1) & ml | (x >> 1) & mr | ((x << W) | (x >> W)) & m;
    let mut x = grow(seed);
    loop {
        let g = grow(x);
        if g == x {
            return x;
        }
        x = g;
    }
}
