//! The children of a batch of boards, listed by the number of dice their
//! move captured: each list goes to one group of the sweep in `front`, and
//! a list can be canonicalised and looked up in one loop.

/// Children listed by the dice their move captured: list 0 placements,
/// lists 1, 2 and 3 captures of 2, 3 and 4 dice. Each child comes with the
/// index of its parent.
pub(crate) struct Lists {
    pub(crate) boards: [Vec<u32>; 4],
    pub(crate) parents: [Vec<u32>; 4],
    pub(crate) len: [usize; 4],
}

/// The most children a vector of boards (16 at most) has for one list,
/// plus the lanes a vector store writes past the last one.
pub(crate) const SLACK: usize = 16 * 16 + 16;

impl Lists {
    /// Empty lists with room for `room` children each, of which the last
    /// [`SLACK`] are only ever written by whole-vector stores.
    pub(crate) fn new(room: usize) -> Lists {
        Lists {
            boards: std::array::from_fn(|_| vec![0; room]),
            parents: std::array::from_fn(|_| vec![0; room]),
            len: [0; 4],
        }
    }

    /// The list of a move that captured `captured` dice (0, 2, 3 or 4).
    #[inline(always)]
    pub(crate) fn of(captured: usize) -> usize {
        captured.saturating_sub(1) & 3
    }

    /// Appends `child` of parent `parent` to list `to`.
    #[inline(always)]
    pub(crate) fn push(&mut self, to: usize, child: u32, parent: u32) {
        let i = self.len[to];
        self.boards[to][i] = child;
        self.parents[to][i] = parent;
        self.len[to] = i + 1;
    }
}
