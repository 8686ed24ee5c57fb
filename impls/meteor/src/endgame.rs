//! The symmetric search with its last five pieces looked up. When five pieces
//! are left, the search asks a cache which sets of five distinct pieces tile
//! the twenty-five empty cells, and walks the tilings only for the few
//! lookups where the unused pieces are one of them.
//! Deep in the tree the same few thousand regions recur under different
//! pieces above, so working each region out once replaces the bottom five
//! levels of the tree, most of its nodes. A region's sets come from the sets
//! of the smaller regions its first piece leaves, which the cache keeps too.
//! The nodes counted are the search's (a lookup is one) plus the calls that
//! work a region out or walk its tilings.
//!
//! The cache lives for one search: nothing is carried from one board to the next.

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::geometry::{CELL_MASK, PIECES};
use crate::islands::IslandTable;
use crate::search::{
    Collect, Finish, Kids, MAX_KIDS, PIECE_BIT, Table, solve_finishing, solve_with,
};
use crate::symmetric::Symmetric;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Pieces left when the cache takes over. Measured on the empty board when
/// chosen: 3.3 ms with four, 2.8 ms with five, 3.6 ms with six (fewer
/// lookups, but bigger regions, slower to work out and recurring less).
const LEFT: usize = 5;

/// Boards with more pieces on them are searched without the cache: their
/// searches are small, and working regions out with every allowed piece
/// costs more than the few lookups save (measured: 1.5× slower with two
/// pieces, 3× with three).
const CACHE_UP_TO_PIECES: usize = 1;

/// The piece bits of a bitmask board.
const PIECE_BITS: u64 = ((1 << PIECES) - 1) << PIECE_BIT;

/// `RANK[set]` numbers the sets of pieces (as piece numbers' bits) of one
/// size, so that a cache slot notes which sets tile its cells in 256 bits.
const RANK: [u8; 1 << PIECES] = {
    let mut rank = [0; 1 << PIECES];
    let mut next = [0usize; PIECES + 1];
    let mut set = 0;
    while set < rank.len() {
        let size = (set as u32).count_ones() as usize;
        assert!(next[size] < 256, "the sets must fit a slot's 256 bits");
        rank[set] = next[size] as u8;
        next[size] += 1;
        set += 1;
    }
    rank
};

/// `UNRANK[size][RANK[set]] == set` for the sets of `size` pieces.
const UNRANK: [[u16; 256]; PIECES + 1] = {
    let mut unrank = [[0; 256]; PIECES + 1];
    let mut set = 0;
    while set < RANK.len() {
        unrank[(set as u32).count_ones() as usize][RANK[set] as usize] = set as u16;
        set += 1;
    }
    unrank
};

/// Slots of each of the cache's tables. Fixed, so that threads can share a
/// table without locks; the empty board meets at most 2,961 regions of one
/// size, boards with one piece about as many (measured).
const SLOTS: usize = 1 << 13;

/// Slots looked at for a region before giving up: a region that finds no
/// free slot within them is not kept, and worked out at every lookup. (A
/// bound rather than a count of the regions kept, which every thread would
/// write.)
const PROBES: usize = 32;

/// Marks a slot being written (see [`Regions::insert`]).
const BUSY: u64 = 1 << 63;

/// An open-addressing hash map from regions to the sets of pieces that tile
/// them, shared by the threads of a search. The regions are apart from their
/// sets, so that the slots searched for a region are few cache lines.
struct Regions {
    /// A region's cells; 0 for a free slot (a region is never empty), with
    /// [`BUSY`] while its sets are being written.
    cells: Box<[AtomicU64]>,
    /// The sets of pieces that tile the region in the same slot.
    sets: Box<[[AtomicU64; 4]]>,
}

impl Regions {
    fn new() -> Regions {
        Regions {
            cells: std::iter::repeat_with(AtomicU64::default)
                .take(SLOTS)
                .collect(),
            sets: std::iter::repeat_with(Default::default)
                .take(SLOTS)
                .collect(),
        }
    }

    /// Empties the map (the sets are written before they are read).
    fn clear(&mut self) {
        self.cells.iter_mut().for_each(|c| *c.get_mut() = 0);
    }

    /// The slots to look at for `free`, in order.
    #[inline(always)]
    fn slots(free: u64) -> impl Iterator<Item = usize> {
        let home =
            (free.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SLOTS.trailing_zeros())) as usize;
        (home..home + PROBES).map(|i| i % SLOTS)
    }

    /// The sets of `free`, if they are in the map.
    #[inline(always)]
    fn get(&self, free: u64) -> Option<Sets> {
        for i in Regions::slots(free) {
            // Acquire: the sets were written before the cells were.
            match self.cells[i].load(Ordering::Acquire) {
                cells if cells == free => {
                    return Some(Sets(
                        self.sets[i].each_ref().map(|w| w.load(Ordering::Relaxed)),
                    ));
                }
                // Missing, or still being written by another thread.
                0 => return None,
                cells if cells == free | BUSY => return None,
                _ => {}
            }
        }
        None
    }

    /// Adds the sets of `free`, unless another thread did or there is no
    /// room for it.
    fn insert(&self, free: u64, sets: Sets) {
        for i in Regions::slots(free) {
            // Claim a free slot, write the sets, then publish the cells.
            match self.cells[i].compare_exchange(
                0,
                free | BUSY,
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    for (word, value) in self.sets[i].iter().zip(sets.0) {
                        word.store(value, Ordering::Relaxed);
                    }
                    self.cells[i].store(free, Ordering::Release);
                    return;
                }
                Err(cells) if cells & !BUSY == free => return,
                Err(_) => {}
            }
        }
    }
}

/// The cache's tables, one per region size, kept between searches so that
/// their memory is not mapped afresh each time (they are emptied first).
#[derive(Default)]
struct Spare(Mutex<Vec<[Regions; LEFT]>>);

impl Spare {
    /// Runs `f` with empty tables.
    fn with<R>(&self, f: impl FnOnce(&[Regions; LEFT]) -> R) -> R {
        let spare = self.0.lock().map(|mut spare| spare.pop());
        let tables = match spare {
            Ok(Some(mut tables)) => {
                tables.iter_mut().for_each(Regions::clear);
                tables
            }
            _ => std::array::from_fn(|_| Regions::new()),
        };
        let result = f(&tables);
        if let Ok(mut spare) = self.0.lock() {
            spare.push(tables);
        }
        result
    }
}

/// Bit `RANK[pieces]` is set when `pieces` (all of the same size) tile a
/// region.
#[derive(Clone, Copy, Default)]
struct Sets([u64; 4]);

impl Sets {
    fn has(&self, pieces: u64) -> bool {
        let rank = RANK[(pieces >> PIECE_BIT) as usize] as usize;
        self.0[rank / 64] >> (rank % 64) & 1 != 0
    }

    fn add(&mut self, pieces: u64) {
        let rank = RANK[(pieces >> PIECE_BIT) as usize] as usize;
        self.0[rank / 64] |= 1 << (rank % 64);
    }

    /// Adds the sets of `others` (sets of `size` pieces) joined with `piece`
    /// (piece bits), when they do not hold it already.
    fn add_joined(&mut self, others: Sets, size: usize, piece: u64) {
        for (word, mut bits) in others.0.into_iter().enumerate() {
            while bits != 0 {
                let set = u64::from(UNRANK[size][64 * word + bits.trailing_zeros() as usize]);
                bits &= bits - 1;
                if set << PIECE_BIT & piece == 0 {
                    self.add(set << PIECE_BIT | piece);
                }
            }
        }
    }
}

/// The sets of pieces that tile the regions met so far, shared by the
/// threads of a search. The tilings themselves are walked again only for the
/// few lookups that find some.
pub(crate) struct Shared<'t> {
    table: &'t IslandTable,
    /// The pieces tilings may use (piece bits): those not on the searched
    /// board, so every tiling fits some node.
    allowed: u64,
    /// `sets[size - 1]`: the regions of `size` pieces' worth of cells (one
    /// table per size keeps the one the search looks up small).
    sets: &'t [Regions; LEFT],
}

impl<'t> Shared<'t> {
    /// A cache for the search of `board` with the placements of `table`,
    /// in the empty tables `sets`.
    fn new(table: &'t IslandTable, board: &PartialBoard, sets: &'t [Regions; LEFT]) -> Shared<'t> {
        let used = board.pieces().iter().fold(0, |b, &(p, _)| b | 1 << p);
        Shared {
            table,
            allowed: !(used << PIECE_BIT) & PIECE_BITS,
            sets,
        }
    }
}

/// One thread's use of a [`Shared`] cache.
pub(crate) struct Cache<'a> {
    shared: &'a Shared<'a>,
    /// `kids[size]`: the placements tried in a region of `size` pieces.
    /// (Work on a region only ever waits on smaller regions.)
    kids: [Kids; LEFT + 1],
    /// Nodes of this thread's tiling searches.
    nodes: u64,
}

impl<'a> Cache<'a> {
    /// A thread's use of `shared`.
    pub(crate) fn new(shared: &'a Shared<'a>) -> Cache<'a> {
        Cache {
            shared,
            kids: [[0; MAX_KIDS]; LEFT + 1],
            nodes: 0,
        }
    }

    /// Which sets of pieces tile `free` (`size` pieces' worth of cells),
    /// after working it out when it is new.
    #[inline(always)]
    fn sets(&mut self, free: u64, size: usize) -> Sets {
        match self.shared.sets[size - 1].get(free) {
            Some(sets) => sets,
            None => self.tile(free, size),
        }
    }

    /// Puts in `kids[size]` the placements the search would try at the
    /// lowest cell of `free` (`size` pieces' worth of cells) on the board
    /// where everything else is covered and only `pieces` are unused (so its
    /// pruning holds); returns how many.
    fn kids(&mut self, free: u64, pieces: u64, size: usize) -> usize {
        let board = !free & CELL_MASK | !pieces & PIECE_BITS;
        let cell = free.trailing_zeros() as usize;
        let table = self.shared.table;
        table.fits(board, cell, &mut self.kids[size]).min(MAX_KIDS)
    }

    /// Works out which sets of distinct allowed pieces tile `free`: those of
    /// a placement at its lowest cell and a tiling of the cells it leaves.
    #[inline(never)]
    fn tile(&mut self, free: u64, size: usize) -> Sets {
        self.nodes += 1;
        let n = self.kids(free, self.shared.allowed, size);
        let mut sets = Sets::default();
        for i in 0..n {
            let m = self.kids[size][i];
            let piece = m & PIECE_BITS;
            let rest = free & !m;
            if rest == 0 {
                sets.add(piece);
                continue;
            }
            sets.add_joined(self.sets(rest, size - 1), size - 1, piece);
        }
        self.shared.sets[size - 1].insert(free, sets);
        sets
    }

    /// Puts in `sink` every solution made of `placed` (up to `depth`) and a
    /// tiling of `free` with exactly `pieces`, walking the tilings again.
    fn walk(
        &mut self,
        free: u64,
        pieces: u64,
        placed: &mut [u64; PIECES],
        depth: usize,
        sink: &mut Collect<'_>,
    ) {
        self.nodes += 1;
        let size = PIECES - depth;
        let n = self.kids(free, pieces, size);
        for i in 0..n {
            let m = self.kids[size][i];
            let (rest, others) = (free & !m, pieces & !m);
            if sink.stop() {
                return;
            }
            placed[depth] = m;
            if rest == 0 {
                sink.solution(placed);
            } else if self.sets(rest, size - 1).has(others) {
                self.walk(rest, others, placed, depth + 1, sink);
            }
        }
    }
}

impl Finish for Cache<'_> {
    #[inline(always)]
    fn finish(&mut self, board: u64, placed: &[u64], sink: &mut Collect<'_>) -> bool {
        if placed.len() != PIECES - LEFT {
            return false;
        }
        let (free, unused) = (!board & CELL_MASK, !board & PIECE_BITS);
        if self.sets(free, LEFT).has(unused) {
            let mut all = [0; PIECES];
            all[..placed.len()].copy_from_slice(placed);
            self.walk(free, unused, &mut all, placed.len(), sink);
        }
        true
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The symmetric search with the endgame cache.
pub struct Endgame {
    inner: Symmetric,
    spare: Spare,
}

impl Endgame {
    /// Builds the symmetric search's tables.
    pub fn new() -> Endgame {
        Endgame {
            inner: Symmetric::new(),
            spare: Spare::default(),
        }
    }

    /// The table to search `board` with, and whether every solution found
    /// stands for itself and its 180° turn (as [`Symmetric`]).
    pub(crate) fn plan(&self, board: &PartialBoard) -> (&IslandTable, bool) {
        self.inner.plan(board)
    }

    /// Whether the search of `board` uses the cache.
    pub(crate) fn caches(&self, board: &PartialBoard) -> bool {
        board.pieces().len() <= CACHE_UP_TO_PIECES
    }

    /// Runs `f` with an empty cache for the search of `board` with `table`.
    pub(crate) fn with_cache<R>(
        &self,
        table: &IslandTable,
        board: &PartialBoard,
        f: impl FnOnce(&Shared<'_>) -> R,
    ) -> R {
        self.spare.with(|sets| f(&Shared::new(table, board, sets)))
    }
}

impl Default for Endgame {
    fn default() -> Self {
        Endgame::new()
    }
}

impl Solver for Endgame {
    fn solve(&self, board: &PartialBoard, limit: usize) -> Solutions {
        let (table, turned_too) = self.plan(board);
        if !self.caches(board) {
            return solve_with(table, board, limit, turned_too);
        }
        self.with_cache(table, board, |shared| {
            solve_finishing(table, board, limit, turned_too, Cache::new(shared))
        })
    }
}
