//! Bitmask search with dead-region pruning. When a piece is placed at the
//! lowest empty cell, every cell below is covered; the empty cells the piece
//! and that covered area cut off from the rest are computed once per
//! placement, and a placement is skipped when such a region holds a number
//! of empty cells that is not a multiple of five. A table over the three rows
//! at the frontier catches the holes pieces leave between each other, and an
//! index on the cells after the anchor picks the few placements worth trying.

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::geometry::{CELL_MASK, CELLS, COLS, PIECES, Placement, ROWS, below, regions};
use crate::search::{ByAnchor, Kids, MAX_KIDS, PIECE_BIT, Table, placement_bits, solve_with};
use std::sync::atomic::{AtomicU64, Ordering};

/// The regions a placement anchored at `anchor` and covering `cells` cuts
/// off: the connected regions of the cells left empty by the placement and
/// every cell below its anchor, all but the largest. (The largest needs no
/// check: all empty cells add up to a multiple of five, so it is fine when
/// the others are.)
///
/// Whatever else covers the board, each region's empty cells are cut off,
/// so they form whole regions of the real board: a count that is not a
/// multiple of five means one of them can never be filled.
fn cut_off(anchor: usize, cells: u64) -> Vec<u64> {
    let mut cut: Vec<u64> = regions(!(below(anchor) | cells) & CELL_MASK).collect();
    cut.sort_by_key(|r| r.count_ones());
    cut.pop();
    cut
}

/// The selection-index group holding all of `region`, if one does.
fn group_of(anchor: usize, region: u64) -> Option<usize> {
    (0..GROUPS).find(|&g| region & !group_cells(anchor, g) == 0)
}

/// The cells of selection-index group `g` for placements anchored at `anchor`.
fn group_cells(anchor: usize, g: usize) -> u64 {
    ((1u64 << GROUP) - 1) << (anchor + 1 + g * GROUP) & CELL_MASK
}

/// A placement and the cut-off regions [`Select`] cannot check for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    bits: u64,
    /// The union of the cut-off regions reaching beyond one selection group:
    /// its empty cells are whole regions too. (Checking them one by one
    /// prunes a handful more nodes than it costs.)
    check: u64,
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

/// A placement's [`Entry`] with the cut-off regions that lie inside one
/// selection group (the group and the region), which [`Select`] checks.
struct Built {
    entry: Entry,
    inside: Vec<(usize, u64)>,
}

impl Built {
    /// Works out the regions `p` cuts off, once for both uses.
    fn new(p: &Placement) -> Built {
        let anchor = p.anchor();
        let mut inside = Vec::new();
        let mut check = 0;
        for r in cut_off(anchor, p.mask()) {
            match group_of(anchor, r) {
                Some(g) => inside.push((g, r)),
                None => check |= r,
            }
        }
        Built {
            entry: Entry {
                bits: placement_bits(p.piece, p.mask()),
                check,
            },
            inside,
        }
    }
}

impl Entry {
    /// Whether the placement fits on `board` and leaves no region it cuts
    /// off that is known to be dead (see [`cut_off`]). No early exits: the
    /// outcome is unpredictable, so computing everything is cheaper.
    #[inline(always)]
    fn fits(&self, board: u64) -> bool {
        (self.bits & board == 0)
            & (NOT_MULTIPLE_OF_5 >> (self.check & !board).count_ones() & 1 == 0)
    }
}

/// The placements with their cut-off regions, indexed for fast selection,
/// and the window test.
pub(crate) struct IslandTable {
    placements: ByAnchor<Entry>,
    select: Vec<Select>,
    windows: &'static Windows,
}

/// Cells after the anchor (in board order) in each group of the selection index.
const GROUP: usize = 5;
/// Groups of cells in the selection index: they cover the next three rows.
const GROUPS: usize = 3;

/// Which placements anchored at one cell are worth trying, as sets of their
/// indexes in [`ByAnchor::at`] (at most 120 of them: 10 pieces × 12
/// orientations): by which cells of each group of `GROUP` cells after the
/// anchor are covered, and by which pieces are used (two halves). A placement
/// is left out of a group's set when it overlaps the covered cells, or when
/// a region it cuts off lies inside the group and the covered cells leave it
/// a number of empty cells that is not a multiple of five. The intersection
/// holds every placement that can lead to a solution and few others, so the
/// search looks at a handful of placements instead of scanning dozens.
#[derive(Clone)]
struct Select {
    groups: [[Ids; 1 << GROUP]; GROUPS],
    unused_low: [Ids; 1 << GROUP],
    unused_high: [Ids; 1 << GROUP],
}

/// A set of placement indexes below 128, as two words (cheaper to scan
/// than a `u128` on every target).
#[derive(Clone, Copy)]
struct Ids([u64; 2]);

impl Ids {
    fn from_bits(ids: u128) -> Ids {
        Ids([ids as u64, (ids >> 64) as u64])
    }
}

/// For each subset (as bits) of five things, the placement indexes in
/// `all` that none of its members `excludes`: each subset's set is the set
/// of the subset without its lowest member, less what that member excludes.
fn subsets(all: u128, excludes: [u128; GROUP]) -> [Ids; 1 << GROUP] {
    let mut sets = [all; 1 << GROUP];
    for subset in 1..sets.len() {
        sets[subset] = sets[subset & (subset - 1)] & !excludes[subset.trailing_zeros() as usize];
    }
    sets.map(Ids::from_bits)
}

impl Select {
    /// The index over `built`, the placements anchored at `anchor`: the
    /// sets of each group are built from the placements covering each of
    /// its cells, and those of the pieces from each piece's placements (a
    /// few operations on whole sets per pattern); then the placements with a
    /// cut-off region inside a group leave the patterns that spoil it.
    fn new(anchor: usize, built: &[Built]) -> Select {
        assert!(built.len() <= 128, "at most 120 placements share an anchor");
        let all = u128::MAX.checked_shr(128 - built.len() as u32).unwrap_or(0);
        let mut covering = [[0u128; GROUP]; GROUPS];
        let mut of_piece = [0u128; PIECES];
        for (i, b) in built.iter().enumerate() {
            let bit = 1u128 << i;
            for (g, covering) in covering.iter_mut().enumerate() {
                let cells = (b.entry.bits & CELL_MASK) >> (anchor + 1 + g * GROUP);
                for (c, covering) in covering.iter_mut().enumerate() {
                    if cells >> c & 1 != 0 {
                        *covering |= bit;
                    }
                }
            }
            of_piece[(b.entry.bits >> PIECE_BIT).trailing_zeros() as usize] |= bit;
        }
        let mut groups = covering.map(|covering| subsets(all, covering));
        for (i, b) in built.iter().enumerate() {
            let (half, bit) = (i / 64, 1u64 << (i % 64));
            // A cut-off region inside a group must keep a multiple of five
            // empty cells under the pattern: none, or all five of its cells.
            for &(g, r) in &b.inside {
                let region = (r >> (anchor + 1 + g * GROUP)) as usize;
                let five = r.count_ones() == 5;
                for (pattern, set) in groups[g].iter_mut().enumerate() {
                    let left = region & !pattern;
                    if left != 0 && !(five && left == region) {
                        set.0[half] &= !bit;
                    }
                }
            }
        }
        let (low, high) = of_piece.split_at(GROUP);
        let unused = |pieces: &[u128]| {
            let excludes: [u128; GROUP] = pieces.try_into().expect("five pieces a half");
            subsets(excludes.iter().fold(0, |a, b| a | b), excludes)
        };
        Select {
            groups,
            unused_low: unused(low),
            unused_high: unused(high),
        }
    }
}

impl Table for IslandTable {
    #[inline(always)]
    fn dead(&self, board: u64) -> bool {
        self.windows.dead(board)
    }

    #[inline(always)]
    fn fits(&self, board: u64, cell: usize, out: &mut Kids) -> usize {
        let select = &self.select[cell];
        let next = (board & CELL_MASK) >> (cell + 1);
        let used = (board >> PIECE_BIT) as usize;
        let group = (1 << GROUP) - 1;
        let (low, high) = (
            select.unused_low[used & group],
            select.unused_high[used >> GROUP & group],
        );
        let entries = self.placements.at(cell);
        let mut ids = [0u64; 2];
        for (half, out) in ids.iter_mut().enumerate() {
            *out = low.0[half] | high.0[half];
            for (g, sets) in select.groups.iter().enumerate() {
                *out &= sets[(next >> (g * GROUP)) as usize & group].0[half];
            }
        }
        // One loop over both halves: each loop exit costs a misprediction.
        let mut ids = u128::from(ids[0]) | u128::from(ids[1]) << 64;
        let mut n = 0;
        while ids != 0 {
            let e = &entries[ids.trailing_zeros() as usize];
            ids &= ids - 1;
            out[n % MAX_KIDS] = e.bits;
            n += usize::from(e.fits(board) & !self.windows.dead(board | e.bits));
        }
        n
    }
}

/// The island table, keeping the placements `keep` accepts.
pub(crate) fn table(keep: impl Fn(&Placement) -> bool) -> IslandTable {
    let built = ByAnchor::new(keep, Built::new);
    let select = (0..CELLS)
        .map(|cell| Select::new(cell, built.at(cell)))
        .collect();
    IslandTable {
        placements: built.map(|b| b.entry),
        select,
        windows: Windows::shared(),
    }
}

/// Rows in a window.
const WINDOW_ROWS: usize = 3;
/// Cells in a window.
const WINDOW_CELLS: usize = WINDOW_ROWS * COLS;

/// For the three rows starting at the row of the lowest empty cell (every row
/// above it is covered), which patterns of covered cells enclose a region
/// whose size is not a multiple of five. A region is enclosed unless it
/// reaches the window's last row and the board goes on below. This catches
/// the holes pieces leave between each other, which the per-placement regions
/// miss.
///
/// A pattern is worked out the first time a search meets it and kept: the
/// 2098 solutions of the empty board meet about 7,500 of the 163,840 possible
/// patterns, and flood-filling all of them up front took most of a
/// whole-program run (4.5 ms of 11).
struct Windows {
    /// Two bits per pattern, at `2 * (start + pattern)` where
    /// `(shift, start, _) = at[lowest empty cell]` and `pattern = board >>
    /// shift`, the window's cells: known, and dead. Atomic so that the
    /// threads of `parallel` share what they work out (two threads working
    /// out the same pattern store the same bits).
    states: Box<[AtomicU64]>,
    /// Per lowest empty cell: the shift, the first pattern index of the
    /// window's kind, and the window's first row.
    at: [(u32, u32, u32); CELLS + 1],
}

/// Bit `2 * i` of [`Windows::states`]: pattern `i` is worked out.
const KNOWN: u64 = 1;
/// Bit `2 * i + 1` of [`Windows::states`]: pattern `i` encloses a dead region.
const DEAD: u64 = 2;

impl Windows {
    /// The windows do not depend on which placements a table keeps: one is
    /// shared by every table of the process.
    fn shared() -> &'static Windows {
        static WINDOWS: std::sync::OnceLock<Windows> = std::sync::OnceLock::new();
        WINDOWS.get_or_init(Windows::new)
    }

    fn new() -> Windows {
        // The patterns depend on the first row only through its parity (odd
        // rows are shifted) and on how many rows remain below the window.
        let mut start = [0; 5];
        let mut patterns = 0usize;
        for (kind, row) in (0..ROWS)
            .filter(|&row| row < 2 || row + WINDOW_ROWS >= ROWS)
            .enumerate()
        {
            debug_assert_eq!(Windows::kind(row), kind);
            start[kind] = patterns;
            patterns += 1 << Windows::cells(row);
        }
        let at = std::array::from_fn(|cell| {
            let row = (cell / COLS).min(ROWS - 1);
            (
                (row * COLS).min(cell) as u32,
                start[Windows::kind(row)] as u32,
                row as u32,
            )
        });
        let windows = Windows {
            states: (0..(2 * patterns).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            at,
        };
        debug_assert!(!windows.dead(CELL_MASK));
        windows
    }

    /// Which kind of window starts at `row`.
    const fn kind(row: usize) -> usize {
        if row + WINDOW_ROWS < ROWS {
            row % 2
        } else {
            row + 2 - (ROWS - WINDOW_ROWS)
        }
    }

    /// The cells of a window starting at `row`.
    const fn cells(row: usize) -> usize {
        let left = CELLS - row * COLS;
        if WINDOW_CELLS < left {
            WINDOW_CELLS
        } else {
            left
        }
    }

    #[inline(always)]
    fn dead(&self, board: u64) -> bool {
        // A covered board has "lowest empty cell" CELLS, served by the last
        // row's window with every cell covered: never dead.
        let cell = (!board & CELL_MASK | 1 << CELLS).trailing_zeros() as usize;
        let (shift, start, row) = self.at[cell];
        let pattern = ((board & CELL_MASK) >> shift) as usize % (1 << WINDOW_CELLS);
        let i = 2 * (start as usize + pattern);
        let state = self.states[i / 64].load(Ordering::Relaxed) >> (i % 64);
        if state & KNOWN != 0 {
            state & DEAD != 0
        } else {
            self.work_out(row as usize, pattern, i)
        }
    }

    /// Whether `pattern` of the window starting at `row` encloses a region
    /// whose size is not a multiple of five; kept at state bit `i`.
    #[cold]
    fn work_out(&self, row: usize, pattern: usize, i: usize) -> bool {
        let cells = Windows::cells(row);
        let free = (!pattern as u64 & ((1 << cells) - 1)) << (row * COLS);
        let open_row = (row + WINDOW_ROWS < ROWS)
            .then(|| ((1u64 << COLS) - 1) << ((row + WINDOW_ROWS - 1) * COLS));
        let dead = regions(free)
            .any(|r| open_row.is_none_or(|last| r & last == 0) && r.count_ones() % 5 != 0);
        let state = KNOWN | if dead { DEAD } else { 0 };
        self.states[i / 64].fetch_or(state << (i % 64), Ordering::Relaxed);
        dead
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Boards whose rows above a random cell are covered and whose cells
    /// from there on are covered at random, as the search meets them.
    fn boards(seed: u64, n: usize) -> Vec<u64> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let first = rng.next_u64() as usize % (CELLS + 1);
                let above = (1u64 << first) - 1;
                (above | rng.next_u64() & !above & !(1 << first)) & CELL_MASK
            })
            .collect()
    }

    /// A pattern is worked out once and then read back: two fresh tables
    /// meeting the same boards in opposite orders agree on every one, and
    /// each agrees with itself when asked again.
    #[test]
    fn windows_remember_what_they_work_out() {
        let boards = boards(11, 20_000);
        let (forward, backward) = (Windows::new(), Windows::new());
        let first: Vec<bool> = boards.iter().map(|&b| forward.dead(b)).collect();
        let reversed: Vec<bool> = boards.iter().rev().map(|&b| backward.dead(b)).collect();
        let again: Vec<bool> = boards.iter().map(|&b| forward.dead(b)).collect();
        assert_eq!(first, again);
        assert_eq!(first, reversed.into_iter().rev().collect::<Vec<_>>());
        assert!(first.iter().any(|&d| d) && first.iter().any(|&d| !d));
    }

    /// A single covered cell in the window's first row that leaves an
    /// enclosed hole of one empty cell is dead; the full board is not.
    #[test]
    fn an_enclosed_single_cell_is_dead() {
        let w = Windows::new();
        assert!(!w.dead(CELL_MASK));
        // Everything covered but cell 0 (the top-left corner, enclosed).
        assert!(w.dead(CELL_MASK & !1));
        // Five cells of the top row left empty: a region of five, fine.
        assert!(!w.dead(CELL_MASK & !0b11111));
    }
}
