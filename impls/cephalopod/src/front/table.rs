//! One group's boards in the sweep: an open-addressing index over the
//! boards, and for each board its lanes and the span of lanes that received
//! paths, so a board is expanded without scanning its window for zeros.

use super::Lane;
use crate::table::prefetch;

/// The boards of one group and their lanes, in insertion order.
pub(super) struct Table<L> {
    /// 0 for a free slot, else the entry's index plus one above the board.
    slots: Vec<u64>,
    boards: Vec<u32>,
    /// Per entry, the lanes `lo..hi` that received paths (`lo > hi`: none).
    spans: Vec<[u8; 2]>,
    /// `width` lanes per board.
    lanes: Vec<L>,
    width: usize,
    shift: u32,
}

impl<L> Default for Table<L> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            boards: Vec::new(),
            spans: Vec::new(),
            lanes: Vec::new(),
            width: 0,
            shift: 0,
        }
    }
}

impl<L: Lane> Table<L> {
    /// An empty table of `width` lanes a board, reusing the buffers of a
    /// finished one from `pool` if any.
    pub(super) fn new(width: usize, pool: &mut Vec<Table<L>>) -> Table<L> {
        const SLOTS: usize = 16;
        let mut t = pool.pop().unwrap_or_default();
        t.slots.clear();
        t.slots.resize(SLOTS, 0);
        t.boards.clear();
        t.spans.clear();
        t.lanes.clear();
        t.width = width;
        t.shift = 64 - SLOTS.trailing_zeros();
        t
    }

    /// Whether the table was made by [`Table::new`] (not taken, not default).
    pub(super) fn is_open(&self) -> bool {
        !self.slots.is_empty()
    }

    pub(super) fn len(&self) -> usize {
        self.boards.len()
    }

    pub(super) fn width(&self) -> usize {
        self.width
    }

    /// Every board with the span of its lanes that received paths (as lane
    /// indices `lo..hi`) and all its lanes.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u32, (usize, usize), &[L])> {
        self.boards
            .iter()
            .zip(&self.spans)
            .zip(self.lanes.chunks_exact(self.width))
            .map(|((&board, &[lo, hi]), lanes)| (board, (usize::from(lo), usize::from(hi)), lanes))
    }

    #[inline(always)]
    fn home(&self, board: u32) -> usize {
        (u64::from(board).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Starts loading the slot `board` hashes to.
    #[inline(always)]
    pub(super) fn prefetch(&self, board: u32) {
        prefetch(&self.slots[self.home(board)]);
    }

    /// The entry of `board`, added with zero lanes if new.
    #[inline(always)]
    pub(super) fn entry(&mut self, board: u32) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = self.home(board);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                let entry = self.boards.len() as u32;
                self.slots[i] = u64::from(entry + 1) << 32 | u64::from(board);
                self.boards.push(board);
                self.spans.push([u8::MAX, 0]);
                for _ in 0..self.width {
                    self.lanes.push(L::default());
                }
                if 2 * self.boards.len() > self.slots.len() {
                    self.grow();
                }
                return entry;
            }
            if slot as u32 == board {
                return (slot >> 32) as u32 - 1;
            }
            i = (i + 1) & mask;
        }
    }

    /// Starts loading lane `at` (an entry times the width, plus a lane).
    #[inline(always)]
    pub(super) fn prefetch_lane(&self, at: usize) {
        if let Some(lane) = self.lanes.get(at) {
            prefetch(lane);
        }
    }

    /// Adds `parent`'s lanes, each moved by `add`, to `entry`'s lanes from
    /// lane `first` on.
    #[inline(always)]
    pub(super) fn add(
        &mut self,
        entry: usize,
        first: usize,
        parent: &[L],
        mut add: impl FnMut(&mut L, L),
    ) {
        let at = entry * self.width + first;
        for (d, &n) in self.lanes[at..at + parent.len()].iter_mut().zip(parent) {
            add(d, n);
        }
        let [lo, hi] = &mut self.spans[entry];
        *lo = (*lo).min(first as u8);
        *hi = (*hi).max((first + parent.len()) as u8);
    }

    /// Doubles the index; the entries stay where they are.
    fn grow(&mut self) {
        let slots = 2 * self.slots.len();
        self.slots.clear();
        self.slots.resize(slots, 0);
        self.shift = 64 - slots.trailing_zeros();
        let mask = slots - 1;
        for (index, &board) in self.boards.iter().enumerate() {
            let mut i = self.home(board);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (index as u64 + 1) << 32 | u64::from(board);
        }
    }
}
