//! Bit helpers shared by the variants: column masks and one-step dilation on the row-major
//! 6-bit-per-row layout. Keeping them in one place means every variant agrees on the edges.

use crate::Board;

/// All valid cells.
pub(crate) const FULL: u128 = Board::FULL;

/// Every cell in one column, `col` in `0..6`.
pub(crate) const fn column(col: usize) -> u128 {
    let mut m = 0u128;
    let mut row = 0;
    while row < Board::HEIGHT {
        m |= 1 << (row * Board::WIDTH + col);
        row += 1;
    }
    m
}

/// Cells not in the left column: where a `<< 1` may land without wrapping a row.
pub(crate) const NOT_LEFT: u128 = FULL & !column(0);
/// Cells not in the right column: where a `>> 1` may land without wrapping a row.
pub(crate) const NOT_RIGHT: u128 = FULL & !column(Board::WIDTH - 1);

/// `x` together with its 4-neighbours (clipped to the board).
#[inline(always)]
pub(crate) fn dilate(x: u128) -> u128 {
    (x | (x << 1) & NOT_LEFT | (x >> 1) & NOT_RIGHT | (x << Board::WIDTH) | (x >> Board::WIDTH))
        & FULL
}

/// The 4-neighbours of cell `i` (row-major index) as indices, `None` past an edge.
#[inline]
pub(crate) fn neighbours(i: usize) -> [Option<usize>; 4] {
    let (row, col) = (i / Board::WIDTH, i % Board::WIDTH);
    [
        (row > 0).then(|| i - Board::WIDTH),
        (col > 0).then(|| i - 1),
        (col + 1 < Board::WIDTH).then_some(i + 1),
        (row + 1 < Board::HEIGHT).then_some(i + Board::WIDTH),
    ]
}

/// Cells in the right column.
pub(crate) const RIGHT: u128 = column(Board::WIDTH - 1);

/// The cells of `m` with no 4-neighbour in `m`: components of one cell, which the fast
/// variants emit without growing them.
#[inline(always)]
pub(crate) fn isolated(m: u128) -> u128 {
    // A cell is isolated when none of its 4-neighbours is set.
    let neighbours =
        (m << 1) & NOT_LEFT | (m >> 1) & NOT_RIGHT | m << Board::WIDTH | m >> Board::WIDTH;
    m & !neighbours
}

/// The neighbours of the cells of `x` (not `x` itself), clipped to the board.
#[inline(always)]
pub(crate) fn neighbour_cells(x: u128) -> u128 {
    ((x << 1) & NOT_LEFT | (x >> 1) & NOT_RIGHT | x << Board::WIDTH | x >> Board::WIDTH) & FULL
}

/// The components of one and two cells of `m`, found for the whole board at once: isolated
/// cells, the cells of dominoes, and the left cells of horizontal and top cells of vertical
/// dominoes (each domino's first cell, which gives its place in canonical order).
#[inline(always)]
pub(crate) fn small_components(m: u128) -> (u128, u128, u128, u128) {
    let (l, r) = ((m << 1) & NOT_LEFT, (m >> 1) & NOT_RIGHT);
    let (u, d) = ((m << Board::WIDTH) & FULL, m >> Board::WIDTH);
    let singles = m & !(l | r | u | d);
    // Exactly one neighbour: odd parity and no two neighbour masks overlapping.
    let two = (l & r) | (u & d) | ((l | r) & (u | d));
    let one = m & (l ^ r ^ u ^ d) & !two;
    // A cell with one neighbour whose neighbour also has one is half of a domino.
    let dominoes = one & neighbour_cells(one);
    let right = dominoes & (dominoes >> 1) & NOT_RIGHT;
    let down = dominoes & (dominoes >> Board::WIDTH);
    (singles, dominoes, right, down)
}
