//! One group's boards in the sweep: an open-addressing index over the
//! boards, and for each board only the lanes that received paths.
//!
//! A group's window spans every depth its boards could be met at, but a
//! board receives paths at few of them (official test 10: 138 k lanes
//! received paths, of 476 k in the boards' windows), and the span a board's
//! first parent gives it almost never grows (886 of 208 k moves). So a
//! board's lanes are laid out in an arena exactly as its first move needs
//! them; the rare move that reaches past them copies them to the arena's
//! end, leaving the old ones unused. In a sweep free of depth every board
//! holds one lane, in the entries' order, and a move adds to it without
//! reading a span ([`Table::add_one`]).
//!
//! A table's buffers grow by doubling and are kept for later tables and
//! solves. Official test 11 then touches 2.7 MB, of which 2.1 MB are in use
//! at its peak. Three ways to touch less were measured and dropped (Zen 4,
//! the official tests as one process, 61 to 100 alternating pairs):
//! - one arena of 16 KB chunks of lanes for all tables, each chunk given
//!   back as soon as its group's expansion has read it: 759 page faults
//!   against 962, the whole process 2-3 % faster, but official tests 8 and
//!   10 and `empty:40` 1-5 % slower in process. A parent's and a child's
//!   lanes then lie in one buffer and are added lane by lane. With the two
//!   split by `get_disjoint_mut` the arena was 8-10 % slower in process;
//!   with each parent's lanes copied out of it first, it ran 8-10 % more
//!   instructions;
//! - chunks held by each table: an indirection a lane, 2-12 % slower in
//!   process and 2 % slower as a whole process;
//! - buffers grown by half instead of doubled: 776 page faults, but the
//!   whole process 1.5 % slower, from the extra copies.
//!
//! Nor does faulting the pages in ahead pay: every allocation of 64 KB or
//! more populated at once (`madvise(MADV_POPULATE_WRITE)` in a global
//! allocator) took the official run from 960 page faults to 543, but the
//! whole process ran 1.4 % longer (80 alternating pairs, Zen 4). On this
//! VM a fresh page costs its time however it is faulted in.

use super::merge::Lane;

/// Where one board's lanes are.
#[derive(Clone, Copy)]
struct Span {
    /// The arena index of lane `lo`.
    at: u32,
    /// The lanes `lo..hi` that received paths (none while `lo == hi`).
    lo: u8,
    hi: u8,
}

impl Span {
    fn len(self) -> usize {
        usize::from(self.hi - self.lo)
    }
}

/// A board and where its lanes are.
#[derive(Clone, Copy)]
struct Entry {
    board: u32,
    span: Span,
}

/// The boards of one group and their lanes, in insertion order.
pub(super) struct Table<L> {
    /// 0 for a free slot, else the entry's index plus one; a probe compares
    /// the entry's board. Slots that also held the board took twice the
    /// memory for no gain in process, and a whole process of the official
    /// tests, faulting in 0.7 MB more, ran 1.037 times as long (median of 21
    /// alternating pairs, Zen 4).
    slots: Vec<u32>,
    /// Each board with its span, side by side: a lookup that finds the
    /// board has its span in the same cache line.
    entries: Vec<Entry>,
    /// Every board's lanes, the entries' spans saying whose are where.
    lanes: Vec<L>,
    shift: u32,
}

impl<L> Default for Table<L> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            entries: Vec::new(),
            lanes: Vec::new(),
            shift: 0,
        }
    }
}

impl<L: Lane> Table<L> {
    /// An empty table, reusing the buffers of a finished one from `pool` if
    /// any.
    pub(super) fn new(pool: &mut Vec<Table<L>>) -> Table<L> {
        const SLOTS: usize = 16;
        let mut t = pool.pop().unwrap_or_default();
        t.slots.clear();
        t.slots.resize(SLOTS, 0);
        t.entries.clear();
        t.lanes.clear();
        t.shift = 64 - SLOTS.trailing_zeros();
        t
    }

    /// Whether the table was made by [`Table::new`] (not taken, not default).
    pub(super) fn is_open(&self) -> bool {
        !self.slots.is_empty()
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Every board with the span of its lanes that received paths (as lane
    /// indices `lo..hi`) and those lanes.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u32, (usize, usize), &[L])> {
        self.entries.iter().map(|&Entry { board, span }| {
            let at = span.at as usize;
            let lanes = &self.lanes[at..at + span.len()];
            (board, (usize::from(span.lo), usize::from(span.hi)), lanes)
        })
    }

    /// Every board with its one lane, in a table whose boards all hold lane
    /// 0 alone ([`Table::add_one`]).
    pub(super) fn singles(&self) -> impl Iterator<Item = (u32, L)> {
        let boards = self.entries.iter().map(|e| e.board);
        boards.zip(self.lanes.iter().copied())
    }

    #[inline(always)]
    fn home(&self, board: u32) -> usize {
        (u64::from(board).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Makes room for `more` boards without the index growing past a
    /// quarter full: boards are added without a check each.
    ///
    /// A sparse index finds most boards at their home slot. Official tests
    /// summed, in process: 23.9 ms up to half full, 22.2 up to a quarter,
    /// 21.7 up to an eighth (with slots of a `u64` each). With `u32` slots
    /// an eighth was still 2 % faster in process, but 2 % slower as a whole
    /// process, from faulting in the larger index (Zen 4).
    pub(super) fn reserve(&mut self, more: usize) {
        while 4 * (self.entries.len() + more) > self.slots.len() {
            self.grow();
        }
    }

    /// Adds `parent`'s lanes, each moved by `add`, to `board`'s lanes from
    /// lane `first` on; a new board takes them as its own. The index must
    /// have room ([`Table::reserve`]).
    #[inline(always)]
    pub(super) fn add(
        &mut self,
        board: u32,
        first: usize,
        parent: &[L],
        mut add: impl FnMut(&mut L, L),
    ) {
        let (lo, hi) = (first as u8, (first + parent.len()) as u8);
        let i = match self.find(board) {
            Ok(entry) => {
                let mut span = self.entries[entry].span;
                if span.lo > lo || span.hi < hi {
                    span = self.widen(span, lo, hi);
                    self.entries[entry].span = span;
                }
                let at = span.at as usize + usize::from(lo - span.lo);
                for (d, &n) in self.lanes[at..at + parent.len()].iter_mut().zip(parent) {
                    add(d, n);
                }
                return;
            }
            Err(free) => free,
        };
        // A new board: its lanes are the parent's, moved.
        self.slots[i] = self.entries.len() as u32 + 1;
        let at = self.lanes.len() as u32;
        self.entries.push(Entry {
            board,
            span: Span { at, lo, hi },
        });
        self.lanes.extend(parent.iter().map(|&n| {
            let mut d = L::default();
            add(&mut d, n);
            d
        }));
    }

    /// [`Table::add`] for a table whose boards all hold lane 0 alone: the
    /// lanes are then in the entries' order, and no span is read. With the
    /// parent's lane read from the batch too, official tests 7, 9 and 10
    /// took 0.65-0.66, 1.32-1.34 and 2.54-2.59 ms against 0.71-0.75,
    /// 1.48-1.55 and 2.92-2.95 through [`Table::add`] (three alternating
    /// rounds, Zen 4); test 10 ran 34.2 M instructions against 40.3 M.
    #[inline(always)]
    pub(super) fn add_one(&mut self, board: u32, parent: L, mut add: impl FnMut(&mut L, L)) {
        match self.find(board) {
            Ok(entry) => add(&mut self.lanes[entry], parent),
            Err(i) => {
                debug_assert_eq!(self.lanes.len(), self.entries.len(), "one lane a board");
                self.slots[i] = self.entries.len() as u32 + 1;
                let at = self.lanes.len() as u32;
                self.entries.push(Entry {
                    board,
                    span: Span { at, lo: 0, hi: 1 },
                });
                let mut d = L::default();
                add(&mut d, parent);
                self.lanes.push(d);
            }
        }
    }

    /// The entry of `board`, or the free slot where it would go.
    #[inline(always)]
    fn find(&self, board: u32) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(board);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return Err(i);
            }
            let entry = slot as usize - 1;
            if self.entries[entry].board == board {
                return Ok(entry);
            }
            i = (i + 1) & mask;
        }
    }

    /// `span`'s lanes copied to the arena's end, widened to take lanes
    /// `lo..hi` too.
    #[cold]
    fn widen(&mut self, span: Span, lo: u8, hi: u8) -> Span {
        let (lo, hi) = (lo.min(span.lo), hi.max(span.hi));
        let at = self.lanes.len();
        self.lanes.resize(at + usize::from(hi - lo), L::default());
        let old = span.at as usize;
        let to = at + usize::from(span.lo - lo);
        self.lanes.copy_within(old..old + span.len(), to);
        Span {
            at: at as u32,
            lo,
            hi,
        }
    }

    /// Doubles the index; the entries stay where they are.
    fn grow(&mut self) {
        let slots = 2 * self.slots.len();
        self.slots.clear();
        self.slots.resize(slots, 0);
        self.shift = 64 - slots.trailing_zeros();
        let mask = slots - 1;
        for (index, &Entry { board, .. }) in self.entries.iter().enumerate() {
            let mut i = self.home(board);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = index as u32 + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of `table` with its span and a copy of its lanes.
    fn listed(table: &Table<u64>) -> Vec<(u32, (usize, usize), Vec<u64>)> {
        let entries = table.entries();
        entries
            .map(|(board, span, lanes)| (board, span, lanes.to_vec()))
            .collect()
    }

    /// With one lane a board, a board met again adds to its own lane and a
    /// new board takes the next one, in the entries' order, which
    /// `singles` reads back.
    #[test]
    fn one_lane_a_board_adds_in_place() {
        let mut table = Table::<u64>::new(&mut Vec::new());
        let add = |d: &mut u64, n: u64| *d += 2 * n;
        for (board, paths) in [
            (0o123, 1),
            (0o456, 10),
            (0o123, 100),
            (0o777, 5),
            (0o456, 7),
        ] {
            table.reserve(1);
            table.add_one(board, paths, add);
        }
        let entries = listed(&table);
        assert_eq!(
            entries,
            [
                (0o123, (0, 1), vec![202]),
                (0o456, (0, 1), vec![34]),
                (0o777, (0, 1), vec![10])
            ]
        );
        let singles: Vec<_> = table.singles().collect();
        assert_eq!(singles, [(0o123, 202), (0o456, 34), (0o777, 10)]);
    }

    /// A board's lanes start where its first move puts them and widen, on
    /// either side, when a later move reaches past them; other boards'
    /// lanes stay as they were.
    #[test]
    fn lanes_widen_to_take_later_moves() {
        let mut table = Table::<u64>::new(&mut Vec::new());
        table.reserve(2);
        let add = |d: &mut u64, n: u64| *d += n;
        table.add(0o123, 2, &[1], add);
        table.add(0o456, 0, &[7, 8], add);
        table.add(0o123, 2, &[10], add);
        table.add(0o123, 1, &[100, 1000], add);
        table.add(0o123, 3, &[5, 6], add);
        assert_eq!(table.len(), 2, "a board has one entry");
        let entries = listed(&table);
        assert_eq!(
            entries,
            [
                (0o123, (1, 5), vec![100, 1011, 5, 6]),
                (0o456, (0, 2), vec![7, 8])
            ]
        );
    }
}
