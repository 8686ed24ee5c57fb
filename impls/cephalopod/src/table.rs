//! The caches of the explicit-stack DFS: open-addressing hash tables with
//! linear probing from (packed board, remaining depth) to a value
//! ([`Table`]), or from a board to a range of depths' values
//! ([`BoardTable`], for `range`).
//!
//! An entry is either exact — valid for one remaining depth — or saturated:
//! no path from the board was cut short, so the value holds for every depth
//! at least the board's longest game, which the entry records instead. Both
//! kinds hash on the board alone, so one probe sequence finds either.

/// Bits of the board in a key.
const BOARD_BITS: u32 = 27;
/// Bits of the depth (exact) or longest game (saturated) in a key.
const DEPTH_BITS: u32 = 7;
/// Bits of the value index in a slot.
const ID_BITS: u32 = 29;
const ID_MASK: u64 = (1 << ID_BITS) - 1;
const SATURATED: u64 = 1 << (BOARD_BITS + DEPTH_BITS);

/// What a lookup found: the value's index and, for a saturated entry, the
/// length of the board's longest game.
#[derive(Clone, Copy)]
pub(crate) struct Hit {
    pub(crate) id: usize,
    pub(crate) longest: Option<u32>,
}

/// The cache. Values live in insertion order in their own vector, so growing
/// the slot array moves 8-byte slots, never values.
pub(crate) struct Table<V> {
    /// 0 for an empty slot, else `key << ID_BITS | value index`.
    slots: Vec<u64>,
    values: Vec<V>,
    shift: u32,
}

impl<V: Copy> Table<V> {
    /// An empty table; it grows as needed.
    pub(crate) fn new() -> Table<V> {
        let bits = 12;
        Table {
            slots: vec![0; 1 << bits],
            values: Vec::new(),
            shift: 64 - bits,
        }
    }

    #[inline(always)]
    fn home(&self, board: u32) -> usize {
        (u64::from(board).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Finds the value of `board` at remaining depth `depth`: an exact entry
    /// for that depth or a saturated entry whose longest game fits in it.
    #[inline(always)]
    pub(crate) fn find(&self, board: u32, depth: u32) -> Option<Hit> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(board);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            let key = slot >> ID_BITS;
            if key as u32 & ((1 << BOARD_BITS) - 1) == board {
                let d = (key >> BOARD_BITS) as u32 & ((1 << DEPTH_BITS) - 1);
                let id = (slot & ID_MASK) as usize;
                if key & SATURATED != 0 {
                    if d <= depth {
                        return Some(Hit {
                            id,
                            longest: Some(d),
                        });
                    }
                } else if d == depth {
                    return Some(Hit { id, longest: None });
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Starts loading the slot where `board` would be found.
    #[inline(always)]
    pub(crate) fn prefetch(&self, board: u32) {
        prefetch(&self.slots[self.home(board)]);
    }

    /// Starts loading a value.
    #[inline(always)]
    pub(crate) fn prefetch_value(&self, id: usize) {
        prefetch(&self.values[id]);
    }

    /// The value of a hit.
    #[inline(always)]
    pub(crate) fn value(&self, id: usize) -> &V {
        &self.values[id]
    }

    /// Records the value of `board` at remaining depth `depth`, or for every
    /// depth from `longest` on when `longest` is given (saturated).
    pub(crate) fn insert(&mut self, board: u32, depth: u32, longest: Option<u32>, value: V) {
        debug_assert!(board < 1 << BOARD_BITS && depth < 1 << DEPTH_BITS);
        if 2 * (self.values.len() + 1) > self.slots.len() {
            self.grow();
        }
        let id = self.values.len() as u64;
        assert!(id <= ID_MASK, "cache overflow");
        self.values.push(value);
        let key = match longest {
            Some(l) => SATURATED | u64::from(l) << BOARD_BITS | u64::from(board),
            None => u64::from(depth) << BOARD_BITS | u64::from(board),
        };
        self.place(key << ID_BITS | id);
    }

    fn place(&mut self, slot: u64) {
        let mask = self.slots.len() - 1;
        let board = (slot >> ID_BITS) as u32 & ((1 << BOARD_BITS) - 1);
        let mut i = self.home(board);
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            self.place(slot);
        }
    }
}

/// Where a board's values are: `values[id..]` for remaining depths
/// `lo..=top`, and the board's longest game when it is at most `top` — then
/// the value at `top` also holds for every deeper search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) id: usize,
    pub(crate) lo: u32,
    pub(crate) top: u32,
    /// `u32::MAX` when some path is longer than `top`.
    pub(crate) longest: u32,
}

/// One slot: a board (plus 1, so 0 marks an empty slot) and its entry.
#[derive(Clone, Copy)]
struct Slot {
    key: u32,
    id: u32,
    lo: u8,
    top: u8,
    longest: u8,
}

const EMPTY: Slot = Slot {
    key: 0,
    id: 0,
    lo: 0,
    top: 0,
    longest: 0,
};

/// The cache of `range`: one entry per board.
pub(crate) struct BoardTable {
    slots: Vec<Slot>,
    len: usize,
    shift: u32,
}

impl BoardTable {
    /// An empty table; it grows as needed.
    pub(crate) fn new() -> BoardTable {
        let bits = 12;
        BoardTable {
            slots: vec![EMPTY; 1 << bits],
            len: 0,
            shift: 64 - bits,
        }
    }

    #[inline(always)]
    fn home(&self, board: u32) -> usize {
        (u64::from(board).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The entry of `board`, if cached.
    #[inline(always)]
    pub(crate) fn find(&self, board: u32) -> Option<Entry> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(board);
        loop {
            let slot = self.slots[i];
            if slot.key == board + 1 {
                return Some(Entry {
                    id: slot.id as usize,
                    lo: u32::from(slot.lo),
                    top: u32::from(slot.top),
                    longest: if slot.longest == u8::MAX {
                        u32::MAX
                    } else {
                        u32::from(slot.longest)
                    },
                });
            }
            if slot.key == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Starts loading the slot where `board` would be found.
    #[inline(always)]
    pub(crate) fn prefetch(&self, board: u32) {
        prefetch(&self.slots[self.home(board)]);
    }

    /// Records the entry of a board, replacing any older one.
    pub(crate) fn upsert(&mut self, board: u32, e: Entry) {
        // Depths stay below MAX_GAME < 255, so they fit in a byte.
        let byte = |d: u32| u8::try_from(d.min(255)).expect("clamped");
        let slot = Slot {
            key: board + 1,
            id: u32::try_from(e.id).expect("fewer than 2^32 values"),
            lo: byte(e.lo),
            top: byte(e.top),
            longest: byte(e.longest),
        };
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        if self.place(slot) {
            self.len += 1;
        }
    }

    /// Puts `slot` in its board's slot or the first free one; returns
    /// whether the board is new.
    fn place(&mut self, slot: Slot) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot.key - 1);
        while self.slots[i].key != 0 && self.slots[i].key != slot.key {
            i = (i + 1) & mask;
        }
        let new = self.slots[i].key == 0;
        self.slots[i] = slot;
        new
    }

    fn grow(&mut self) {
        let doubled = vec![EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        for slot in old.into_iter().filter(|s| s.key != 0) {
            self.place(slot);
        }
    }
}

/// Asks the CPU to start loading `x`'s cache line (a hint: it has no
/// effect on results).
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86_64 baseline, and a prefetch is a hint
    // that never faults nor changes memory.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            (x as *const T).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// A multiplicative hasher for the std `HashMap`s of `memo` and `bfs`: their
/// keys are small integers, for which SipHash is needlessly slow.
#[derive(Clone, Copy, Default)]
pub(crate) struct MulHash;

/// The state of [`MulHash`].
#[derive(Default)]
pub(crate) struct MulHasher(u64);

impl std::hash::BuildHasher for MulHash {
    type Hasher = MulHasher;
    fn build_hasher(&self) -> MulHasher {
        MulHasher(0)
    }
}

impl std::hash::Hasher for MulHasher {
    fn finish(&self) -> u64 {
        // The table takes the top bits for small maps too, so fold them down.
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(n)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_saturated_entries() {
        let mut t = Table::new();
        t.insert(5, 3, None, 'a');
        t.insert(5, 9, Some(4), 'b');
        assert!(t.find(6, 3).is_none());
        let h = t.find(5, 3).unwrap();
        assert_eq!((*t.value(h.id), h.longest), ('a', None));
        assert!(t.find(5, 2).is_none(), "saturated from 4 on only");
        for d in 4..20 {
            let h = t.find(5, d).unwrap();
            assert_eq!((*t.value(h.id), h.longest), ('b', Some(4)));
        }
        for b in 0..100_000u32 {
            t.insert(b << 7, 2, None, 'c');
        }
        assert_eq!(*t.value(t.find(5, 3).unwrap().id), 'a');
        assert_eq!(*t.value(t.find(99_999 << 7, 2).unwrap().id), 'c');
    }

    #[test]
    fn insert_then_find() {
        let mut t = BoardTable::new();
        let e = |id| Entry {
            id,
            lo: 2,
            top: 5,
            longest: u32::MAX,
        };
        t.upsert(0, e(7));
        t.upsert(5, Entry { longest: 4, ..e(9) });
        assert_eq!(t.find(0), Some(e(7)));
        assert_eq!(t.find(5).unwrap().longest, 4);
        assert_eq!(t.find(6), None);
        for b in 0..100_000u32 {
            t.upsert((b + 1) << 7, e(b as usize));
        }
        assert_eq!(t.find(0), Some(e(7)));
        assert_eq!(t.find(100_000 << 7), Some(e(99_999)));
        t.upsert(0, e(3));
        assert_eq!(t.find(0), Some(e(3)));
        assert_eq!(t.len, 100_002);
    }
}
