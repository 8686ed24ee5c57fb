//! The symmetric search with its last four pieces looked up: when four pieces
//! are left, their twenty empty cells are looked up in a cache of every way
//! to tile those cells with distinct pieces, tiled the first time the cells
//! come up. Deep in the tree the same few thousand regions recur under
//! different pieces, so tiling each region once replaces the bottom four
//! levels of the tree, most of its nodes, with one lookup. A region is tiled
//! from the tilings of the smaller regions its first piece leaves, cached too.
//!
//! The cache lives for one search: nothing is carried from one board to the next.

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::geometry::{CELL_MASK, PIECE_SIZE, PIECES};
use crate::islands::IslandTable;
use crate::search::{Collect, Finish, MAX_KIDS, PIECE_BIT, Table, solve_finishing};
use crate::symmetric::Symmetric;

/// Pieces left when the cache takes over. Measured on the empty board: with
/// three the search above does most of the work, with five the regions'
/// tilings (any five of the ten pieces) are many more than the search uses.
pub(crate) const LEFT: usize = 4;

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

/// The tilings of one set of empty cells.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The empty cells; 0 marks a free slot (a board with pieces left has
    /// empty cells).
    free: u64,
    /// Bit `RANK[pieces]` is set when some tiling uses `pieces`.
    sets: [u64; 4],
    /// The tilings, `Cache::tilings[start..end]`: each is the piece bits of
    /// its pieces, then its placements.
    start: u32,
    end: u32,
}

impl Slot {
    fn has(&self, rank: usize) -> bool {
        self.sets[rank / 64] >> (rank % 64) & 1 != 0
    }
}

/// The tilings of the regions met so far, in an open-addressing hash table
/// keyed by the empty cells.
pub(crate) struct Cache<'t> {
    table: &'t IslandTable,
    /// The pieces tilings may use (piece bits): those not on the searched
    /// board, so every tiling fits some node.
    allowed: u64,
    slots: Vec<Slot>,
    filled: usize,
    tilings: Vec<u64>,
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
            // Small at first: most partial boards meet only a few regions.
            slots: vec![Slot::default(); 64],
            filled: 0,
            tilings: Vec::new(),
            nodes: 0,
        }
    }

    fn home(&self, free: u64) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (free.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
    }

    /// The slot of `free`, if it was tiled.
    #[inline(always)]
    fn find(&self, free: u64) -> Option<Slot> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(free);
        loop {
            let slot = self.slots[i];
            if slot.free == free {
                return Some(slot);
            }
            if slot.free == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of `free`, after tiling it when it is new.
    #[inline(always)]
    fn slot(&mut self, free: u64) -> Slot {
        match self.find(free) {
            Some(slot) => slot,
            None => self.add(free),
        }
    }

    /// Tiles `free` with distinct allowed pieces and stores its tilings:
    /// every placement the search would try at its lowest cell (on the board
    /// where everything else is covered or used, so its pruning holds),
    /// followed by every tiling of the cells it leaves.
    #[inline(never)]
    fn add(&mut self, free: u64) -> Slot {
        self.nodes += 1;
        let board = !free & CELL_MASK | !self.allowed & PIECE_BITS;
        let mut kids = [0; MAX_KIDS];
        let cell = free.trailing_zeros() as usize;
        let n = self.table.fits(board, cell, &mut kids).min(MAX_KIDS);
        // Tile what the kids leave first: their tilings go to the end of
        // `tilings`, where this region's own are written next.
        for &m in &kids[..n] {
            let rest = free & !m;
            if rest != 0 {
                self.slot(rest);
            }
        }
        let start = self.tilings.len();
        for &m in &kids[..n] {
            let rest = free & !m;
            if rest == 0 {
                self.tilings.extend([m & PIECE_BITS, m]);
                continue;
            }
            let Some(sub) = self.find(rest) else { continue };
            let size = (rest.count_ones() as usize).div_ceil(PIECE_SIZE) + 1;
            let mut at = sub.start as usize;
            while at < sub.end as usize {
                let pieces = self.tilings[at];
                if pieces & m == 0 {
                    self.tilings.push(pieces | m & PIECE_BITS);
                    self.tilings.push(m);
                    self.tilings.extend_from_within(at + 1..at + size);
                }
                at += size;
            }
        }
        let mut slot = Slot {
            free,
            sets: [0; 4],
            start: start as u32,
            end: self.tilings.len() as u32,
        };
        let size = free.count_ones() as usize / PIECE_SIZE + 1;
        for t in self.tilings[start..].chunks(size) {
            let rank = RANK[(t[0] >> PIECE_BIT) as usize] as usize;
            slot.sets[rank / 64] |= 1 << (rank % 64);
        }
        self.filled += 1;
        if self.filled * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(free);
        while self.slots[i].free != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
        slot
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.free != 0) {
            let mut i = self.home(slot.free);
            while self.slots[i].free != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

impl Finish for Cache<'_> {
    #[inline(always)]
    fn finish(&mut self, board: u64, placed: &[u64], sink: &mut Collect<'_>) -> bool {
        let unused = !board & PIECE_BITS;
        if unused.count_ones() as usize != LEFT {
            return false;
        }
        let slot = self.slot(!board & CELL_MASK);
        if slot.has(RANK[(unused >> PIECE_BIT) as usize] as usize) {
            let mut all = [0; PIECES];
            all[..placed.len()].copy_from_slice(placed);
            let tilings = &self.tilings[slot.start as usize..slot.end as usize];
            for t in tilings.chunks(LEFT + 1).filter(|t| t[0] == unused) {
                if sink.stop() {
                    break;
                }
                all[placed.len()..].copy_from_slice(&t[1..]);
                sink.solution(&all);
            }
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
        solve_finishing(table, board, limit, turned_too, |bits| {
            Cache::new(table, bits)
        })
    }
}
