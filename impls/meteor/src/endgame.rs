//! The symmetric search with its last four pieces looked up. When four pieces
//! are left, the search asks a cache which sets of four distinct pieces tile
//! the twenty empty cells, and walks the tilings only when the unused pieces
//! are one of them (a thousand times in fifty thousand). Deep in the tree the
//! same few thousand regions recur under different pieces above, so working
//! each region out once replaces the bottom four levels of the tree, most of
//! its nodes. A region's sets come from the sets of the smaller regions its
//! first piece leaves, which the cache keeps too.
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

/// Pieces left when the cache takes over. Measured on the empty board: with
/// three the search above it does most of the work; with five the regions
/// recur less and are much slower to work out.
pub(crate) const LEFT: usize = 4;

/// Boards with more pieces on them are searched without the cache: their
/// searches are small, and tiling regions with every allowed piece costs
/// more than the few lookups save (measured: 2× slower with two pieces).
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

/// An open-addressing hash map keyed by a set of empty cells, never empty.
struct Regions<V> {
    /// `(cells, value)`; cells 0 marks a free slot.
    slots: Vec<(u64, V)>,
    filled: usize,
}

impl<V: Copy + Default> Regions<V> {
    fn new() -> Regions<V> {
        // Small at first: the searches of most boards meet a few regions.
        Regions {
            slots: vec![(0, V::default()); 64],
            filled: 0,
        }
    }

    /// The slot of `free` if it is in the map, else the free slot for it.
    #[inline(always)]
    fn probe(&self, free: u64) -> usize {
        let mask = self.slots.len() - 1;
        let bits = self.slots.len().trailing_zeros();
        let mut i = (free.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize;
        while self.slots[i].0 != free && self.slots[i].0 != 0 {
            i = (i + 1) & mask;
        }
        i
    }

    #[inline(always)]
    fn get(&self, free: u64) -> Option<V> {
        let (cells, value) = self.slots[self.probe(free)];
        (cells == free).then_some(value)
    }

    /// Adds `free` (not in the map yet).
    fn insert(&mut self, free: u64, value: V) {
        let i = self.probe(free);
        self.slots[i] = (free, value);
        self.filled += 1;
        if self.filled * 4 > self.slots.len() * 3 {
            let size = self.slots.len() * 2;
            let old = std::mem::replace(&mut self.slots, vec![(0, V::default()); size]);
            for (cells, value) in old.into_iter().filter(|&(cells, _)| cells != 0) {
                let i = self.probe(cells);
                self.slots[i] = (cells, value);
            }
        }
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

    /// The sets of `size` pieces, as piece bits.
    fn iter(&self, size: usize) -> impl Iterator<Item = u64> {
        self.0
            .into_iter()
            .enumerate()
            .flat_map(move |(word, mut bits)| {
                std::iter::from_fn(move || {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits.wrapping_sub(1);
                    (bit < 64).then(|| u64::from(UNRANK[size][64 * word + bit]) << PIECE_BIT)
                })
            })
    }
}

/// The sets of pieces that tile the regions met so far. The tilings
/// themselves are walked again only for the few lookups that find some.
pub(crate) struct Cache<'t> {
    table: &'t IslandTable,
    /// The pieces tilings may use (piece bits): those not on the searched
    /// board, so every tiling fits some node.
    allowed: u64,
    /// `sets[size]`: the regions of `size` pieces' worth of cells (one
    /// table per size keeps the one the search looks up small).
    sets: [Regions<Sets>; LEFT + 1],
    /// `kids[size]`: the placements tried in a region of `size` pieces.
    /// (Work on a region only ever waits on smaller regions.)
    kids: [Kids; LEFT + 1],
    /// Nodes of the tiling searches.
    nodes: u64,
}

impl<'t> Cache<'t> {
    /// An empty cache for the search of `board` (a bitmask board) with the
    /// placements of `table`.
    pub(crate) fn new(table: &'t IslandTable, board: u64) -> Cache<'t> {
        Cache {
            table,
            allowed: !board & PIECE_BITS,
            sets: std::array::from_fn(|_| Regions::new()),
            kids: [[0; MAX_KIDS]; LEFT + 1],
            nodes: 0,
        }
    }

    /// Which sets of pieces tile `free` (`size` pieces' worth of cells),
    /// after working it out when it is new.
    #[inline(always)]
    fn sets(&mut self, free: u64, size: usize) -> Sets {
        match self.sets[size].get(free) {
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
        self.table
            .fits(board, cell, &mut self.kids[size])
            .min(MAX_KIDS)
    }

    /// Works out which sets of distinct allowed pieces tile `free`: those of
    /// a placement at its lowest cell and a tiling of the cells it leaves.
    #[inline(never)]
    fn tile(&mut self, free: u64, size: usize) -> Sets {
        self.nodes += 1;
        let n = self.kids(free, self.allowed, size);
        let mut sets = Sets::default();
        for i in 0..n {
            let m = self.kids[size][i];
            let piece = m & PIECE_BITS;
            let rest = free & !m;
            if rest == 0 {
                sets.add(piece);
                continue;
            }
            for others in self.sets(rest, size - 1).iter(size - 1) {
                if others & piece == 0 {
                    sets.add(others | piece);
                }
            }
        }
        self.sets[size].insert(free, sets);
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
}

impl Endgame {
    /// Builds the symmetric search's tables.
    pub fn new() -> Endgame {
        Endgame {
            inner: Symmetric::new(),
        }
    }

    /// The table to search `board` with, and whether every solution found
    /// stands for itself and its 180° turn (as [`Symmetric`]).
    pub(crate) fn plan(&self, board: &PartialBoard) -> (&IslandTable, bool) {
        self.inner.plan(board)
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
        if board.pieces().len() > CACHE_UP_TO_PIECES {
            return solve_with(table, board, limit, turned_too);
        }
        solve_finishing(table, board, limit, turned_too, |bits| {
            Cache::new(table, bits)
        })
    }
}
