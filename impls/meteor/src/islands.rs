//! Bitmask search with dead-region pruning. When a piece is placed at the
//! lowest empty cell, every cell below is covered; the empty cells the piece
//! and that covered area cut off from the rest are computed once per
//! placement, and at search time a placement is skipped when such a region
//! holds a number of empty cells that is not a multiple of five.

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::geometry::{CELL_MASK, CELLS, COLS, Placement, ROWS, below, regions};
use crate::search::{ByAnchor, Candidate, Table, placement_bits, solve_with};

/// Regions checked per placement; more are merged into the last one.
const CHECKED: usize = 2;

/// A placement with the regions it cuts off.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    bits: u64,
    /// Each is a union of connected regions of the cells left empty by the
    /// placement and every cell below its anchor, all but the largest region;
    /// unused slots are 0.
    cut_off: [u64; CHECKED],
}

/// Bit `n` is set when `n` cells cannot be covered by five-cell pieces.
const NOT_MULTIPLE_OF_5: u64 = {
    let mut bad = 0u64;
    let mut n = 0;
    while n < 64 {
        if n % 5 != 0 {
            bad |= 1 << n;
        }
        n += 1;
    }
    bad
};

impl Entry {
    fn new(p: &Placement) -> Entry {
        let mut cut = regions(!(below(p.anchor()) | p.mask()) & CELL_MASK);
        cut.sort_by_key(|r| r.count_ones());
        // The largest region needs no check: all empty cells add up to a
        // multiple of five, so it is fine when the others are.
        cut.pop();
        let mut cut_off = [0; CHECKED];
        for (i, r) in cut.into_iter().enumerate() {
            cut_off[i.min(CHECKED - 1)] |= r;
        }
        Entry {
            bits: placement_bits(p.piece, p.mask()),
            cut_off,
        }
    }
}

impl Candidate for Entry {
    #[inline(always)]
    fn bits(&self) -> u64 {
        self.bits
    }

    /// Whatever else covers the board, the region's empty cells are cut off
    /// (everything below the anchor is covered), so its empty cells form whole
    /// regions of the real board: a count that is not a multiple of five
    /// means one of them can never be filled.
    #[inline(always)]
    fn fits(&self, board: u64) -> bool {
        self.bits & board == 0
            && self
                .cut_off
                .iter()
                .all(|&r| NOT_MULTIPLE_OF_5 >> (r & !board).count_ones() & 1 == 0)
    }
}

/// The placements with their cut-off regions, and the window test.
pub(crate) struct IslandTable {
    placements: ByAnchor<Entry>,
    windows: Windows,
}

impl Table for IslandTable {
    type Entry = Entry;

    #[inline(always)]
    fn of(&self, cell: usize, piece: usize) -> &[Entry] {
        self.placements.of(cell, piece)
    }

    #[inline(always)]
    fn dead(&self, board: u64, cell: usize) -> bool {
        self.windows.dead(board, cell / COLS)
    }
}

/// The island table, keeping the placements `keep` accepts.
pub(crate) fn table(keep: impl Fn(&Placement) -> bool) -> IslandTable {
    IslandTable {
        placements: ByAnchor::new(keep, Entry::new),
        windows: Windows::new(),
    }
}

/// Rows in a window.
const WINDOW_ROWS: usize = 3;
/// Cells in a window.
const WINDOW_CELLS: usize = WINDOW_ROWS * COLS;

/// For the three rows starting at the row of the lowest empty cell (every row
/// above it is covered), which patterns of covered cells enclose a region
/// whose size is not a multiple of five: one bit per pattern. A region is
/// enclosed unless it reaches the window's last row and the board goes on
/// below. This catches the holes pieces leave between each other, which the
/// per-placement regions miss.
struct Windows {
    /// Bit `pattern` of `bits[kind]`; see [`Windows::kind`].
    bits: Vec<Vec<u64>>,
}

impl Windows {
    fn new() -> Windows {
        // The bits depend on the first row only through its parity (odd rows
        // are shifted) and on how many rows remain below the window.
        let bits = (0..ROWS)
            .filter(|&row| row < 2 || row + WINDOW_ROWS >= ROWS)
            .map(|row| {
                let cells = WINDOW_CELLS.min(CELLS - row * COLS);
                let mut bits = vec![0u64; (1usize << cells).div_ceil(64)];
                for pattern in 0..1u64 << cells {
                    let free = (!pattern & ((1 << cells) - 1)) << (row * COLS);
                    let open_row = (row + WINDOW_ROWS < ROWS)
                        .then(|| ((1u64 << COLS) - 1) << ((row + WINDOW_ROWS - 1) * COLS));
                    let enclosed_bad = regions(free).into_iter().any(|r| {
                        open_row.is_none_or(|last| r & last == 0) && r.count_ones() % 5 != 0
                    });
                    if enclosed_bad {
                        bits[pattern as usize / 64] |= 1 << (pattern % 64);
                    }
                }
                bits
            })
            .collect();
        Windows { bits }
    }

    /// Which table serves a window starting at `row`.
    const fn kind(row: usize) -> usize {
        if row + WINDOW_ROWS < ROWS {
            row % 2
        } else {
            row + 2 - (ROWS - WINDOW_ROWS)
        }
    }

    #[inline(always)]
    fn dead(&self, board: u64, row: usize) -> bool {
        let pattern = ((board & CELL_MASK) >> (row * COLS)) as usize & ((1 << WINDOW_CELLS) - 1);
        self.bits[Windows::kind(row)][pattern / 64] >> (pattern % 64) & 1 != 0
    }
}

/// The island-pruning search.
pub struct Islands {
    table: IslandTable,
}

impl Islands {
    /// Builds the placement table and its regions.
    pub fn new() -> Islands {
        Islands {
            table: table(|_| true),
        }
    }
}

impl Default for Islands {
    fn default() -> Self {
        Islands::new()
    }
}

impl Solver for Islands {
    fn solve(&self, board: &PartialBoard, limit: usize) -> Solutions {
        solve_with(&self.table, board, limit, false)
    }
}
