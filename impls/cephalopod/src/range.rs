//! A variant of the cached DFS that expands each board once per solve for
//! all the remaining depths it is met at, instead of once per (board,
//! depth) pair. The value of a board is a vector over a range of depths.
//!
//! The depths follow from the board's dice sum and count: from the root,
//! `p` placements (the rise in dice sum) and captures that removed `delta`
//! dice net, each capture removing 1 to 3, put the board `p + delta/3 ..=
//! p + delta` moves deep. The range starts at the shallowest such depth and
//! reaches to a likely top (captures removing 2 on average); a deeper
//! request re-expands the board with a longer range. Past the board's
//! longest game the value stops changing, so the range is cut there. It
//! pays off where boards recur at many depths (low ranks, deep searches).

use crate::cellsums::spread;
use crate::dfs::{Flavor, one_move};
use crate::packed::{MAX_GAME, is_full, pack, zero_fields};
use crate::swarmoves::Children;
use crate::sym::Symmetric;
use crate::table::{BoardTable as Table, Entry};
use crate::{ANSWER_MASK, Board, Solver};

/// The average number of dice a capture is assumed to remove when sizing a
/// board's first range (pair captures remove 1, triples 2, quads 3).
const DIV: i32 = 2;

/// The cached DFS over depth ranges, with symmetric per-cell digit sums.
pub struct Range;

impl Solver for Range {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        solve(&Symmetric, depth, board)
    }
}

/// Marks an unknown longest game (some path was cut by the depth).
const CUT: u32 = u32::MAX;

/// A board being expanded: its children are `kids[start..end]`, visited up
/// to `next`.
struct Frame<V> {
    board: u32,
    /// The remaining depths this board is needed at.
    lo: u32,
    hi: u32,
    start: usize,
    next: usize,
    end: usize,
    /// Digits of the full children: their value at every depth.
    leaves: u64,
    /// Digits of the other children: their value with no move left.
    zero: u64,
    /// Children needed with one move left only, summed.
    one: V,
    /// One more than the longest game of any child so far, or `CUT`.
    longest: u32,
    /// The symmetry of the child whose frame sits above this one.
    sym: u32,
}

/// A child that goes through the cache.
#[derive(Clone, Copy)]
struct Kid {
    key: u32,
    sym: u32,
    entry: Option<Entry>,
}

/// Where a search starts, for the depth ranges of its boards.
struct Origin {
    depth: i32,
    sum: i32,
    count: i32,
}

/// The dice sum and dice count of a packed board.
#[inline(always)]
fn sum_count(b: u32) -> (i32, i32) {
    // Multiplying adds the 9 widened fields into the top one (sums < 128).
    let sum = (spread(b).wrapping_mul(0x0102_0408_1020_4081) >> 56) & 127;
    (sum as i32, 9 - zero_fields(b).count_ones() as i32)
}

/// Whether an entry holds the values up to remaining depth `need`.
#[inline(always)]
fn covers(e: &Entry, need: u32) -> bool {
    e.top >= need || e.longest != CUT
}

impl Origin {
    /// The deepest remaining depth `b` is likely needed at: the depth if
    /// captures removed `DIV` dice each on average. Deeper requests extend
    /// the board's values later.
    #[inline(always)]
    fn likely_top(&self, b: u32) -> u32 {
        let (sum, count) = sum_count(b);
        let placed = sum - self.sum;
        let removed = placed - (count - self.count);
        (self.depth - placed - (removed + DIV - 1) / DIV).max(1) as u32
    }

    /// The remaining depths at which `b` can be met (`lo` at least 1).
    #[inline(always)]
    fn range(&self, b: u32) -> (u32, u32) {
        let (sum, count) = sum_count(b);
        let placed = sum - self.sum;
        let removed = placed - (count - self.count);
        let lo = (self.depth - placed - removed).max(1);
        let hi = self.depth - placed - (removed + 2) / 3;
        (lo as u32, hi as u32)
    }
}

impl<V> Frame<V> {
    /// Notes a child's longest game.
    #[inline(always)]
    fn note(&mut self, longest: u32) {
        self.longest = if longest == CUT || self.longest == CUT {
            CUT
        } else {
            self.longest.max(longest + 1)
        };
    }
}

/// Expands `board`: full children and children needed with at most one
/// move left are summed at once; the others go to `kids`, keyed, with their
/// cache slots probed together so the memory accesses overlap.
#[inline(always)]
fn expand<F: Flavor>(
    flavor: &F,
    origin: &Origin,
    cache: &Table,
    kids: &mut Vec<Kid>,
    board: u32,
    need: u32,
) -> Frame<F::Value> {
    let (lo, hi) = origin.range(board);
    let hi = hi.min(need.max(origin.likely_top(board)));
    let start = kids.len();
    let mut frame = Frame {
        board,
        lo,
        hi,
        start,
        next: start,
        end: start,
        leaves: 0,
        zero: 0,
        one: F::ZERO,
        longest: 0,
        sym: 0,
    };
    for &child in Children::of(board).as_slice() {
        if is_full(child) {
            frame.leaves += spread(child);
            frame.note(0);
            continue;
        }
        frame.zero += spread(child);
        if origin.range(child).1 <= 1 {
            let (wide, all_full) = one_move(child);
            flavor.add_leaves(&mut frame.one, wide);
            frame.note(if all_full { 1 } else { CUT });
        } else {
            let (key, sym) = flavor.key(child);
            cache.prefetch(key);
            kids.push(Kid {
                key,
                sym,
                entry: None,
            });
        }
    }
    for kid in &mut kids[start..] {
        kid.entry = cache.find(kid.key).filter(|e| covers(e, hi - 1));
    }
    frame.end = kids.len();
    frame
}

/// Combines a frame whose children are all known into its values, at the
/// end of `values`, and returns its entry.
#[inline(always)]
fn finish<F: Flavor>(
    flavor: &F,
    frame: &Frame<F::Value>,
    kids: &[Kid],
    values: &mut Vec<F::Value>,
) -> Entry {
    let saturated = frame.longest != CUT && frame.longest <= frame.hi;
    let top = if saturated {
        frame.longest.clamp(frame.lo, frame.hi)
    } else {
        frame.hi
    };
    let id = values.len();
    for r in frame.lo..=top {
        let mut v = F::ZERO;
        flavor.add_leaves(&mut v, frame.leaves);
        if r == 1 {
            flavor.add_leaves(&mut v, frame.zero);
        } else {
            if r == 2 {
                flavor.add_value(&mut v, &frame.one, 0);
            }
            for kid in &kids[frame.start..frame.end] {
                let e = kid.entry.expect("children are done before their parent");
                let at = (r - 1).min(e.top) - e.lo;
                flavor.add_value(&mut v, &values[e.id + at as usize], kid.sym);
            }
        }
        values.push(v);
    }
    Entry {
        id,
        lo: frame.lo,
        top,
        longest: if saturated { frame.longest } else { CUT },
    }
}

/// Solves one problem with a cold cache.
#[inline(always)]
pub(crate) fn solve<F: Flavor>(flavor: &F, depth: u32, board: Board) -> u32 {
    flavor.answer(&value(flavor, depth, board)) & ANSWER_MASK
}

/// The value of `board` at `depth`, in the board's own orientation.
#[inline(always)]
fn value<F: Flavor>(flavor: &F, depth: u32, board: Board) -> F::Value {
    let root = pack(board);
    let depth = depth.min(MAX_GAME);
    let mut value = F::ZERO;
    if depth == 0 || is_full(root) {
        flavor.add_leaves(&mut value, spread(root));
        return value;
    }
    if depth == 1 {
        flavor.add_leaves(&mut value, one_move(root).0);
        return value;
    }
    let (sum, count) = sum_count(root);
    let origin = Origin {
        depth: depth as i32,
        sum,
        count,
    };
    let mut cache = Table::new();
    let mut values: Vec<F::Value> = Vec::new();
    let mut kids: Vec<Kid> = Vec::with_capacity(1024);
    let mut frames: Vec<Frame<F::Value>> = Vec::with_capacity(MAX_GAME as usize + 1);
    frames.push(expand(flavor, &origin, &cache, &mut kids, root, depth));
    loop {
        let top = frames.last_mut().expect("the root frame returns");
        if top.next < top.end {
            let kid = &mut kids[top.next];
            top.next += 1;
            let need = top.hi - 1;
            // A sibling's subtree may have cached this child since.
            if kid.entry.is_none() {
                kid.entry = cache.find(kid.key).filter(|e| covers(e, need));
            }
            match kid.entry {
                Some(e) => top.note(e.longest),
                None => {
                    top.sym = kid.sym;
                    let key = kid.key;
                    frames.push(expand(flavor, &origin, &cache, &mut kids, key, need));
                }
            }
        } else {
            let done = frames.pop().expect("non-empty");
            let entry = finish(flavor, &done, &kids, &mut values);
            kids.truncate(done.start);
            let Some(parent) = frames.last_mut() else {
                // The root's range is its depth alone.
                return values[entry.id];
            };
            cache.upsert(done.board, entry);
            kids[parent.next - 1].entry = Some(entry);
            parent.note(entry.longest);
        }
    }
}
