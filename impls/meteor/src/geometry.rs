//! Board geometry and the ten pieces: hexagonal coordinates, the twelve
//! orientations of every piece and all placements on the board.
//!
//! Everything here is derived by code from the cells each piece covers in the
//! smallest solution listed in the spec, so the orientations and placements
//! are not typed in; the solvers build their lookup tables from [`placements`].

/// Number of rows of the board.
pub const ROWS: usize = 10;
/// Number of cells in a row.
pub const COLS: usize = 5;
/// Number of cells (`cell = row * COLS + col`, row 0 at the top).
pub const CELLS: usize = ROWS * COLS;
/// Number of pieces, numbered `0..PIECES`.
pub const PIECES: usize = 10;
/// Cells covered by each piece.
pub const PIECE_SIZE: usize = 5;
/// Orientations of each piece: six rotations, each also mirrored.
pub const ORIENTATIONS: usize = 12;

/// Bits `0..CELLS` of a board bitmask.
pub const CELL_MASK: u64 = (1 << CELLS) - 1;

/// The cells each piece covers in the smallest solution (the spec's table);
/// the only place the piece shapes come from.
const SHAPES: [[u8; PIECE_SIZE]; PIECES] = [
    [0, 1, 2, 3, 8],
    [4, 9, 13, 14, 17],
    [5, 6, 7, 10, 15],
    [27, 28, 29, 34, 39],
    [30, 35, 36, 40, 42],
    [18, 19, 22, 23, 24],
    [11, 12, 16, 21, 26],
    [41, 43, 45, 46, 47],
    [20, 25, 31, 32, 37],
    [33, 38, 44, 48, 49],
];

/// Axial hex coordinates `(q, r)` of a cell: `r` is the row and `q` runs along
/// the row, shifted so that the six neighbours are the same offsets on every
/// row (odd rows sit half a cell to the right).
const fn axial(cell: usize) -> (i32, i32) {
    let (r, c) = ((cell / COLS) as i32, (cell % COLS) as i32);
    (c - r.div_euclid(2), r)
}

/// The cell at axial coordinates `(q, r)`, if it is on the board.
const fn cell_at(q: i32, r: i32) -> Option<usize> {
    let c = q + r.div_euclid(2);
    if 0 <= r && r < ROWS as i32 && 0 <= c && c < COLS as i32 {
        Some((r * COLS as i32 + c) as usize)
    } else {
        None
    }
}

/// The six axial neighbour offsets: E, W, NE, NW, SE, SW.
const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1)];

/// The cells adjacent to `cell` (between two and six of them).
pub fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (q, r) = axial(cell);
    DIRECTIONS
        .iter()
        .filter_map(move |&(dq, dr)| cell_at(q + dq, r + dr))
}

/// `ADJACENT[cell]`: the neighbours of `cell` as a bitmask.
const ADJACENT: [u64; CELLS] = {
    let mut table = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (q, r) = axial(cell);
        let mut d = 0;
        while d < DIRECTIONS.len() {
            if let Some(n) = cell_at(q + DIRECTIONS[d].0, r + DIRECTIONS[d].1) {
                table[cell] |= 1 << n;
            }
            d += 1;
        }
        cell += 1;
    }
    table
};

/// A piece orientation: the axial offsets of its five cells from its first
/// cell in board order, sorted in board order (so `offsets[0] == (0, 0)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Offsets `(dq, dr)` from the lowest cell.
    pub offsets: [(i32, i32); PIECE_SIZE],
}

impl Shape {
    fn normalized(mut cells: [(i32, i32); PIECE_SIZE]) -> Shape {
        // Board order is row first, then along the row, i.e. (r, q).
        cells.sort_by_key(|&(q, r)| (r, q));
        let (q0, r0) = cells[0];
        Shape {
            offsets: cells.map(|(q, r)| (q - q0, r - r0)),
        }
    }

    /// The cells this orientation covers when its lowest cell is `anchor`, or
    /// `None` when some cell falls off the board.
    pub fn place(&self, anchor: usize) -> Option<[u8; PIECE_SIZE]> {
        let (q, r) = axial(anchor);
        let mut cells = [0; PIECE_SIZE];
        for (out, &(dq, dr)) in cells.iter_mut().zip(&self.offsets) {
            *out = cell_at(q + dq, r + dr)? as u8;
        }
        Some(cells)
    }
}

/// The twelve orientations of `piece`, index `6 * mirrored + rotation` where
/// rotation `k` turns the shape by `k * 60°`; orientation `o` turned by 180°
/// is orientation [`rotated_180`]`(o)`.
pub fn orientations(piece: usize) -> [Shape; ORIENTATIONS] {
    std::array::from_fn(|o| {
        let (mirrored, turns) = (o / 6, o % 6);
        Shape::normalized(SHAPES[piece].map(|cell| {
            let (q, r) = axial(cell as usize);
            // Cube coordinates (q, r, s) with q + r + s = 0: a mirror that
            // keeps rows swaps q and s, a 60° turn maps (q, r, s) to (-r, -s, -q).
            let (mut q, mut r, mut s) = (q, r, -q - r);
            if mirrored == 1 {
                (q, s) = (s, q);
            }
            for _ in 0..turns {
                (q, r, s) = (-r, -s, -q);
            }
            debug_assert_eq!(q + r + s, 0);
            (q, r)
        }))
    })
}

/// The orientation index of orientation `o` turned by 180°.
pub const fn rotated_180(o: usize) -> usize {
    o / 6 * 6 + (o % 6 + 3) % 6
}

/// One way to put a piece on the empty board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The piece, `0..PIECES`.
    pub piece: u8,
    /// The orientation index, `0..ORIENTATIONS` (see [`orientations`]).
    pub orientation: u8,
    /// The covered cells in increasing order; `cells[0]` is the anchor.
    pub cells: [u8; PIECE_SIZE],
}

impl Placement {
    /// The covered cells as a bitmask (bit `cell`).
    pub fn mask(&self) -> u64 {
        self.cells.iter().fold(0, |m, &c| m | 1 << c)
    }

    /// The lowest covered cell, where the solvers place the piece.
    pub fn anchor(&self) -> usize {
        self.cells[0] as usize
    }
}

/// Every placement of every piece on the empty board (2596 of them), ordered
/// by piece, then orientation, then anchor.
pub fn placements() -> Vec<Placement> {
    let mut all = Vec::new();
    for piece in 0..PIECES {
        for (o, shape) in orientations(piece).iter().enumerate() {
            for anchor in 0..CELLS {
                if let Some(cells) = shape.place(anchor) {
                    all.push(Placement {
                        piece: piece as u8,
                        orientation: o as u8,
                        cells,
                    });
                }
            }
        }
    }
    all
}

/// The cell that `cell` lands on when the board is turned by 180°.
pub const fn rotate_cell(cell: usize) -> usize {
    CELLS - 1 - cell
}

/// Bitmask of every cell below `cell` in board order (cells `0..cell`).
pub(crate) const fn below(cell: usize) -> u64 {
    (1 << cell) - 1
}

/// How many cells on a neighbour is in board order: along the row (1), or
/// on the next row (4 to 6, by the row's parity and the cell's column).
const STEPS: [u32; 4] = [1, 4, 5, 6];

/// `(forward[k], back[k])`: the cells whose neighbours include the cell
/// `STEPS[k]` cells on, and the cell `STEPS[k]` cells back, read off
/// [`ADJACENT`]; checked to account for every neighbour.
const STEP_FROM: ([u64; STEPS.len()], [u64; STEPS.len()]) = {
    let (mut forward, mut back) = ([0; STEPS.len()], [0; STEPS.len()]);
    let mut cell = 0;
    while cell < CELLS {
        let mut found = 0;
        let mut k = 0;
        while k < STEPS.len() {
            let step = STEPS[k] as usize;
            if cell + step < CELLS && ADJACENT[cell] >> (cell + step) & 1 != 0 {
                forward[k] |= 1 << cell;
                found |= 1 << (cell + step);
            }
            if cell >= step && ADJACENT[cell] >> (cell - step) & 1 != 0 {
                back[k] |= 1 << cell;
                found |= 1 << (cell - step);
            }
            k += 1;
        }
        assert!(found == ADJACENT[cell], "every neighbour is a step away");
        cell += 1;
    }
    (forward, back)
};

/// The cells of `cells` and their neighbours: a few shifts of the whole
/// set instead of a table lookup per cell.
#[inline(always)]
fn spread(cells: u64) -> u64 {
    let (forward, back) = STEP_FROM;
    let mut grown = cells;
    for (k, step) in STEPS.into_iter().enumerate() {
        grown |= (cells & forward[k]) << step | (cells & back[k]) >> step;
    }
    grown
}

/// The connected regions of the cells in `free` (a cell bitmask), each as a
/// bitmask, in order of their lowest cell (found as they are asked for).
pub(crate) fn regions(mut free: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if free == 0 {
            return None;
        }
        let mut region = free & free.wrapping_neg();
        loop {
            let grown = spread(region) & free;
            if grown == region {
                break;
            }
            region = grown;
        }
        free &= !region;
        Some(region)
    })
}
