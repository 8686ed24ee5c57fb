//! Pieces shared by the searches: the record of solutions found so far (count,
//! smallest, largest, the limit), the bitmask board representation and the
//! depth-first search the fast variants share (they differ in their tables).

use crate::board::{PartialBoard, Solution, Solutions};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::geometry::{CELL_MASK, CELLS, PIECES, placements};

/// Solutions found so far and when to stop.
#[derive(Clone, Debug)]
pub(crate) struct Recorder {
    pub(crate) limit: usize,
    count: usize,
    min: Option<Solution>,
    max: Option<Solution>,
}

impl Recorder {
    pub(crate) fn new(limit: usize) -> Recorder {
        Recorder {
            limit,
            count: 0,
            min: None,
            max: None,
        }
    }

    pub(crate) fn add(&mut self, s: Solution) {
        self.count += 1;
        self.min = Some(self.min.map_or(s, |m| m.min(s)));
        self.max = Some(self.max.map_or(s, |m| m.max(s)));
    }

    /// Whether the search must stop: the limit is reached.
    pub(crate) fn full(&self) -> bool {
        self.count >= self.limit
    }

    /// Adds the solutions another search found (the limit stays ours).
    pub(crate) fn merge(&mut self, other: &Recorder) {
        // Most subtrees of a parallel search have no solution.
        if other.count == 0 {
            return;
        }
        self.count += other.count;
        self.min = [self.min, other.min].into_iter().flatten().min();
        self.max = [self.max, other.max].into_iter().flatten().max();
    }

    pub(crate) fn finish(self, nodes: u64) -> Solutions {
        Solutions {
            count: self.count,
            min: self.min,
            max: self.max,
            nodes,
        }
    }
}

/// Bit `PIECE_BIT + p` of a bitmask board says piece `p` is used, so one
/// `mask & board == 0` test checks both free cells and an unused piece.
pub(crate) const PIECE_BIT: u32 = CELLS as u32;

/// A placement as a bitmask: its cells plus its piece bit.
pub(crate) fn placement_bits(piece: u8, cells: u64) -> u64 {
    cells | 1 << (PIECE_BIT + piece as u32)
}

/// The bitmask board (cells and piece bits) of a partial board, and the
/// placements on it (for writing solutions out).
pub(crate) fn board_bits(board: &PartialBoard) -> (u64, Vec<u64>) {
    let placed: Vec<u64> = board
        .pieces()
        .into_iter()
        .map(|(p, m)| placement_bits(p, m))
        .collect();
    (placed.iter().fold(0, |b, m| b | m), placed)
}

/// The solution made of these placement bitmasks (which cover the board).
pub(crate) fn solution_of(placed: &[u64]) -> Solution {
    let mut cells = [0; CELLS];
    for &m in placed {
        let piece = (m >> PIECE_BIT).trailing_zeros() as u8;
        let mut bits = m & CELL_MASK;
        while bits != 0 {
            cells[bits.trailing_zeros() as usize] = piece;
            bits &= bits - 1;
        }
    }
    Solution(cells)
}

/// Placement bitmasks grouped by (anchor cell, piece): `of(cell, piece)` is
/// every placement whose lowest cell is `cell`, the only placements that can
/// cover the lowest empty cell. `keep` filters placements (the symmetric
/// search drops half the orientations of one piece); `T` is what a variant
/// stores per placement.
pub(crate) struct ByAnchor<T> {
    items: Vec<T>,
    start: Vec<u32>,
}

impl<T> ByAnchor<T> {
    pub(crate) fn new(
        keep: impl Fn(&crate::geometry::Placement) -> bool,
        item: impl Fn(&crate::geometry::Placement) -> T,
    ) -> ByAnchor<T> {
        let mut all: Vec<_> = placements().into_iter().filter(|p| keep(p)).collect();
        all.sort_by_key(|p| (p.anchor(), p.piece));
        let mut start = vec![0u32; CELLS * PIECES + 1];
        for p in &all {
            start[p.anchor() * PIECES + p.piece as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        ByAnchor {
            items: all.iter().map(item).collect(),
            start,
        }
    }

    /// The items of `piece` anchored at `cell`.
    #[inline(always)]
    pub(crate) fn of(&self, cell: usize, piece: usize) -> &[T] {
        let i = cell * PIECES + piece;
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The same index over `f` of each item.
    pub(crate) fn map<U>(self, f: impl FnMut(T) -> U) -> ByAnchor<U> {
        ByAnchor {
            items: self.items.into_iter().map(f).collect(),
            start: self.start,
        }
    }

    /// The items anchored at `cell`, ordered by piece.
    pub(crate) fn at(&self, cell: usize) -> &[T] {
        &self.items[self.start[cell * PIECES] as usize..self.start[(cell + 1) * PIECES] as usize]
    }
}

/// What the depth-first search reads: the placements that fit at the lowest
/// empty cell, and a test that ends the search of a board early.
pub(crate) trait Table: Sync {
    /// Whether `board` surely has no completion.
    fn dead(&self, board: u64) -> bool;
    /// Writes to `out` every placement (bitmask with piece bit) of an unused
    /// piece that covers `cell`, the lowest empty cell of `board`, fits and
    /// is worth searching (in particular, does not leave a [`Table::dead`]
    /// board), in a fixed order; returns how many. Candidates are written
    /// then kept or overwritten, without a branch per candidate, because
    /// whether one fits is a coin toss for the branch predictor.
    fn fits(&self, board: u64, cell: usize, out: &mut Kids) -> usize;
}

/// Room for the placements sharing an anchor (10 pieces × 12 orientations).
pub(crate) const MAX_KIDS: usize = 128;

/// The children of one search node, as placements.
pub(crate) type Kids = [u64; MAX_KIDS];

/// The plain table: try every placement of every unused piece.
impl Table for ByAnchor<u64> {
    #[inline(always)]
    fn dead(&self, _: u64) -> bool {
        false
    }

    #[inline(always)]
    fn fits(&self, board: u64, cell: usize, out: &mut Kids) -> usize {
        let mut n = 0;
        let mut unused = !(board >> PIECE_BIT) & ((1 << PIECES) - 1);
        while unused != 0 {
            let piece = unused.trailing_zeros() as usize;
            unused &= unused - 1;
            for &m in self.of(cell, piece) {
                out[n % MAX_KIDS] = m;
                n += usize::from(m & board == 0);
            }
        }
        n
    }
}

/// The solutions found by all threads of a parallel search, and whether
/// they reached the limit. Every node asks whether to stop, so that answer
/// is a flag written once, on a cache line of its own: were it read from the
/// counter, every solution a thread counts would evict the line from the
/// other threads' caches, and their next node would wait for it.
pub(crate) struct Found {
    count: AtomicUsize,
    done: Done,
}

/// [`Found::done`], alone on its cache line.
#[repr(align(64))]
struct Done(AtomicBool);

impl Found {
    pub(crate) fn new() -> Found {
        Found {
            count: AtomicUsize::new(0),
            done: Done(AtomicBool::new(false)),
        }
    }

    /// Counts `n` more solutions against `limit`.
    fn add(&self, n: usize, limit: usize) {
        if self.count.fetch_add(n, Ordering::Relaxed) + n >= limit {
            self.done.0.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the threads together found `limit` solutions.
    #[inline(always)]
    fn done(&self) -> bool {
        self.done.0.load(Ordering::Relaxed)
    }
}

/// Where a search puts its solutions, and whether it should stop.
pub(crate) struct Collect<'a> {
    /// The solutions found by this search.
    pub(crate) rec: Recorder,
    /// Record each solution turned by 180° as well (the symmetric search).
    turned_too: bool,
    /// Solutions found by all threads of a parallel search, for the limit.
    shared: Option<&'a Found>,
}

impl<'a> Collect<'a> {
    pub(crate) fn new(limit: usize, turned_too: bool, shared: Option<&'a Found>) -> Self {
        Collect {
            rec: Recorder::new(limit),
            turned_too,
            shared,
        }
    }

    /// Whether the search must stop now.
    #[inline(always)]
    pub(crate) fn stop(&self) -> bool {
        match self.shared {
            Some(found) => found.done(),
            None => self.rec.full(),
        }
    }

    /// `placed` covers the board.
    pub(crate) fn solution(&mut self, placed: &[u64]) {
        let s = solution_of(placed);
        self.rec.add(s);
        if self.turned_too {
            self.rec.add(s.rotated());
        }
        if let Some(found) = self.shared {
            found.add(1 + self.turned_too as usize, self.rec.limit);
        }
    }
}

/// A way to search some nodes completely without expanding them (the
/// endgame cache); `()` leaves every node to the depth-first search.
pub(crate) trait Finish {
    /// Either finds every completion of node `board` (on which the pieces
    /// `placed` lie), puts them in `sink` and returns true, or returns false
    /// to have the node expanded.
    fn finish(&mut self, board: u64, placed: &[u64], sink: &mut Collect<'_>) -> bool;

    /// Search nodes of its own work, not counted by the depth-first search
    /// (which counts every node it hands over as one).
    fn nodes(&self) -> u64;
}

impl Finish for () {
    #[inline(always)]
    fn finish(&mut self, _: u64, _: &[u64], _: &mut Collect<'_>) -> bool {
        false
    }

    fn nodes(&self) -> u64 {
        0
    }
}

/// Depth-first search over bitmask boards: fill the lowest empty cell with
/// every fitting placement anchored there, of every unused piece. One can run
/// several searches in turn (the parallel search runs one per subtree).
pub(crate) struct Dfs<'a, T, F = ()> {
    table: &'a T,
    /// The children of the node at each depth, being searched.
    kids: [Kids; PIECES],
    placed: [u64; PIECES],
    depth: usize,
    /// Search nodes visited so far.
    nodes: u64,
    /// The solutions found so far.
    sink: Collect<'a>,
    /// Finishes nodes without expanding them.
    finish: F,
}

impl<'a, T: Table, F: Finish> Dfs<'a, T, F> {
    /// A search with `table` that lets `finish` search the nodes it can.
    pub(crate) fn new(table: &'a T, finish: F) -> Self {
        Dfs {
            table,
            kids: [[0; MAX_KIDS]; PIECES],
            placed: [0; PIECES],
            depth: 0,
            nodes: 0,
            sink: Collect::new(0, false, None),
            finish,
        }
    }

    /// Searches every completion of `board`, the union of the pieces
    /// `placed`, into `sink`; returns `sink` and the search nodes visited
    /// (those of the [`Finish`] included).
    pub(crate) fn search(
        &mut self,
        board: u64,
        placed: &[u64],
        sink: Collect<'a>,
    ) -> (Collect<'a>, u64) {
        self.placed[..placed.len()].copy_from_slice(placed);
        self.depth = placed.len();
        self.nodes = 0;
        self.sink = sink;
        let before = self.finish.nodes();
        self.run(board);
        let nodes = self.nodes + self.finish.nodes() - before;
        (
            std::mem::replace(&mut self.sink, Collect::new(0, false, None)),
            nodes,
        )
    }

    fn run(&mut self, board: u64) {
        if self.sink.stop() {
            return;
        }
        if self.table.dead(board) {
            self.nodes += 1;
            return;
        }
        self.visit(board);
    }

    /// A node: `board` is not known to be dead. (Inlined into the loop over
    /// the children, so that nodes the [`Finish`] takes cost no call.)
    #[inline(always)]
    fn visit(&mut self, board: u64) {
        self.nodes += 1;
        if !self
            .finish
            .finish(board, &self.placed[..self.depth], &mut self.sink)
        {
            self.expand(board);
        }
    }

    /// Searches the children of node `board`.
    fn expand(&mut self, board: u64) {
        let free = !board & CELL_MASK;
        if free == 0 {
            self.sink.solution(&self.placed[..self.depth]);
            return;
        }
        let d = self.depth;
        let n = live_kids(self.table, board, &mut self.kids[d]);
        for i in 0..n {
            if self.sink.stop() {
                break;
            }
            let m = self.kids[d][i];
            self.placed[d] = m;
            self.depth = d + 1;
            self.visit(board | m);
        }
        self.depth = d;
    }
}

/// Fills `kids` with the children of node `board` (not a solution) and
/// returns how many.
#[inline(always)]
fn live_kids<T: Table>(table: &T, board: u64, kids: &mut Kids) -> usize {
    table
        .fits(board, (!board & CELL_MASK).trailing_zeros() as usize, kids)
        .min(MAX_KIDS)
}

/// The children of search node `board` (not a solution) that [`Dfs::run`]
/// would visit, in its order: the placements it would try.
pub(crate) fn children<T: Table>(table: &T, board: u64) -> Vec<u64> {
    let mut kids = [0; MAX_KIDS];
    let n = live_kids(table, board, &mut kids);
    kids[..n].to_vec()
}

/// Runs a single-threaded search of `board` with `table`.
pub(crate) fn solve_with<T: Table>(
    table: &T,
    board: &PartialBoard,
    limit: usize,
    turned_too: bool,
) -> Solutions {
    solve_finishing(table, board, limit, turned_too, ())
}

/// Runs a single-threaded search of `board` with `table`, letting `finish`
/// take the nodes it can.
pub(crate) fn solve_finishing<T: Table, F: Finish>(
    table: &T,
    board: &PartialBoard,
    limit: usize,
    turned_too: bool,
    finish: F,
) -> Solutions {
    let (bits, placed) = board_bits(board);
    let sink = Collect::new(limit, turned_too, None);
    let (sink, nodes) = Dfs::new(table, finish).search(bits, &placed, sink);
    sink.rec.finish(nodes)
}
