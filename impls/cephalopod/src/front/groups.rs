//! The groups the sweep orders boards by, and where each sits in depth.
//!
//! A group holds the boards of one dice sum `r` and dice count `k`: a move
//! raises `4r - k` by 1 to 3, so sweeping the groups in that order meets
//! every board after its parents. From `(r, k)` alone follow the depths at
//! which a group's boards can be met ([`Window`]), and whether a sweep
//! with one lane a board is likely to hold ([`likely_free`]).

use crate::packed::{HIGH, zero_fields};

/// The most dice a board holds.
pub(super) const CELLS: u32 = 9;
/// The largest dice sum.
const MAX_RANK: u32 = 6 * CELLS;

/// Where the boards of one `(r, k)` group sit in depth.
#[derive(Clone, Copy)]
pub(super) struct Window {
    /// The depth of lane 0.
    pub(super) first: u32,
    /// Lanes: depths `first .. first + width`, all below `D`.
    pub(super) width: usize,
}

impl Window {
    /// The window of the boards with dice sum `r` and count `k`, or `None`
    /// when they cannot be reached in fewer than `depth` moves. Boards at
    /// depth `D` itself get no lanes: their parents add them to the answer
    /// directly, which spares the table the largest layer.
    ///
    /// A sweep free of depth gives every group it can reach one lane,
    /// whatever its depths: a board that only paths of `D` moves or more
    /// reach must go into a table too, for the sweep to see that it has to
    /// give up.
    pub(super) fn of(free: bool, root: (u32, u32), depth: u32, r: u32, k: u32) -> Option<Window> {
        let (root_rank, root_count) = root;
        let p = r.checked_sub(root_rank)?;
        let removed = (root_count + p).checked_sub(k)?;
        if free {
            return Some(Window { first: 0, width: 1 });
        }
        let first = p + removed.div_ceil(3);
        let last = (p + removed).min(depth - 1);
        (first <= last).then(|| Window {
            first,
            width: (last - first + 1) as usize,
        })
    }

    /// The lane of `there`, a group one move on, that this window's lane 0
    /// moves to.
    pub(super) fn lane_after(self, there: Window, free: bool) -> u32 {
        if free {
            0
        } else {
            self.first + 1 - there.first
        }
    }
}

/// The longest game from the empty board
/// ([`MAX_GAME`](crate::packed::MAX_GAME) bounds games from any board).
const LONGEST_FROM_EMPTY: u32 = 61;

/// Whether a sweep free of depth is likely to hold from a root of dice sum
/// `r` and count `k`: whether no path reaches the depth limit before its
/// board is full.
///
/// Such a sweep keeps one lane a board, not one a depth, and follows every
/// path until it fills the board. It gives up if a path may reach the
/// limit first: each group keeps the most moves a path to it may have
/// taken (one more than in any group with boards a move leads from), and
/// the sweep gives up before it expands a group that paths may reach at
/// the limit. On the official tests that bound is exact: 29, 30 and 34
/// moves on tests 7, 9 and 10 (limits 36, 40 and 40), as the lanes show.
/// One lane instead of a lane per depth made them take 0.71-0.77,
/// 1.49-1.55 and 2.92-3.02 ms against 0.95-0.96, 1.80-1.83 and 3.33-3.37
/// (three alternating rounds, Zen 4).
///
/// The guess: each placement raises the dice sum by one and each capture
/// takes back a die, and a search of all 7^9 boards finds the longest game
/// from most boards without sixes (4.70 M of 4.96 M) to be `61 - 2r + k`
/// moves exactly. Sixes, which never move again, add about 2 moves each,
/// and a few boards go up to 12 moves past it. On the boards of the
/// rank-by-depth sweep (seed 1) the guess tried 126 searches free of
/// depth, of which 4 gave up, and missed 40 small ones that would have
/// held; counting sixes would have missed 14 more to spare 2 of the 4. A
/// wrong guess costs the free sweep's time, never a wrong answer.
pub(super) fn likely_free(r: u32, k: u32, depth: u32) -> bool {
    LONGEST_FROM_EMPTY + k <= depth + 2 * r
}

/// The dice sum and count of a packed board.
#[inline(always)]
pub(super) fn rank_and_count(b: u32) -> (u32, u32) {
    // Pairs of neighbouring fields summed into 6-bit fields (at most 12),
    // then all five added into the top field by one multiplication.
    let pairs = (b & 0o707_070_707) + ((b >> 3) & 0o007_070_707);
    let rank = (pairs.wrapping_mul(0x0104_1041) >> 24) & 63;
    (rank, (!zero_fields(b) & HIGH).count_ones())
}

/// The groups a search can meet: dice sums from the root's `r0` to `top`
/// (a move raises the sum by at most 1), every dice count. Per-group arrays
/// cover only these, which keeps a shallow solve's set-up small.
pub(super) struct Groups {
    r0: u32,
    pub(super) top: u32,
}

impl Groups {
    pub(super) fn new(r0: u32, depth: u32) -> Groups {
        Groups {
            r0,
            top: (r0 + depth).min(MAX_RANK),
        }
    }

    /// The index of group `(r, k)`, if the search can meet it.
    #[inline(always)]
    pub(super) fn index(&self, r: u32, k: u32) -> Option<usize> {
        (self.r0..=self.top)
            .contains(&r)
            .then(|| ((r - self.r0) * (CELLS + 1) + k) as usize)
    }
}
