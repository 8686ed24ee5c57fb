//! The explicit-stack DFS with a cache shared by `swar`, `sym` and `simd`.
//! A [`Flavor`] decides what a value is (one hash sum, or 9 per-cell digit
//! sums that can follow a symmetry), how a board is keyed in the cache and
//! how a cached value is added back; the search itself is written once.
//!
//! Two shortcuts keep the cache small: a child with one move left is summed
//! directly from its own moves (cheaper than a probe), and a value whose
//! subtree was never cut short by the depth is stored as saturated, valid
//! for every deeper search of that board.

use crate::cellsums::spread;
use crate::packed::{MAX_GAME, is_full, pack};
use crate::swarmoves::{self, Children};
use crate::table::{Hit, Table};
use crate::{ANSWER_MASK, Board};

/// What varies between the cached DFS variants.
pub(crate) trait Flavor {
    /// The value of a board: what a frame accumulates and the cache stores.
    type Value: Copy;
    /// The value of no paths.
    const ZERO: Self::Value;
    /// The cache key of a child, and the symmetry that maps the key's board
    /// back to the child.
    fn key(&self, child: u32) -> (u32, u32);
    /// Adds the leaves summed in a spread digit sum.
    fn add_leaves(&self, acc: &mut Self::Value, wide: u64);
    /// Adds the value of a key board, mapped back through `sym`.
    fn add_value(&self, acc: &mut Self::Value, value: &Self::Value, sym: u32);
    /// The hash sum of a value (before the final mod 2^30).
    fn answer(&self, value: &Self::Value) -> u32;
}

/// A board being expanded.
struct Frame<V> {
    board: u32,
    /// Remaining depth, at least 2.
    depth: u32,
    value: V,
    /// Leaf children, summed spread.
    leaves: u64,
    /// This frame's children still to visit are `kids[next..end]`; they
    /// start at `start`.
    start: usize,
    next: usize,
    end: usize,
    /// One more than the longest game among the children seen so far.
    longest: u32,
    /// Whether some path below was cut short by the depth.
    cut: bool,
    /// The symmetry of the child whose frame sits above this one.
    sym: u32,
}

/// A child that needs the cache: its key, the symmetry back to the child,
/// and what the cache held when its parent was expanded.
#[derive(Clone, Copy)]
struct Kid {
    key: u32,
    sym: u32,
    hit: Option<Hit>,
}

/// The spread digit sum of the children of `x` and whether all are full:
/// the value of `x` with one move left.
#[inline(always)]
pub(crate) fn one_move(x: u32) -> (u64, bool) {
    let mut wide = 0;
    let mut all_full = true;
    swarmoves::for_each_child(x, |c| {
        wide += spread(c);
        all_full &= is_full(c);
    });
    (wide, all_full)
}

impl<V> Frame<V> {
    /// Notes a child's longest game (`None`: cut short by the depth).
    #[inline(always)]
    fn note(&mut self, longest: Option<u32>) {
        match longest {
            Some(l) => self.longest = self.longest.max(l + 1),
            None => self.cut = true,
        }
    }
}

/// Expands `board` at remaining depth `depth` (at least 2): leaf children
/// and children with one move left are summed at once; the others go to
/// `kids`, keyed, with their cache slots probed together so the memory
/// accesses overlap instead of queueing behind each other.
#[inline(always)]
fn expand<F: Flavor>(
    flavor: &F,
    cache: &Table<F::Value>,
    kids: &mut Vec<Kid>,
    board: u32,
    depth: u32,
) -> Frame<F::Value> {
    let start = kids.len();
    let mut frame = Frame {
        board,
        depth,
        value: F::ZERO,
        leaves: 0,
        start,
        next: start,
        end: start,
        longest: 0,
        cut: false,
        sym: 0,
    };
    for &child in Children::of(board).as_slice() {
        if is_full(child) {
            frame.leaves += spread(child);
            frame.note(Some(0));
        } else if depth == 2 {
            let (wide, all_full) = one_move(child);
            flavor.add_leaves(&mut frame.value, wide);
            frame.note(all_full.then_some(1));
        } else {
            let (key, sym) = flavor.key(child);
            cache.prefetch(key);
            kids.push(Kid {
                key,
                sym,
                hit: None,
            });
        }
    }
    for kid in &mut kids[start..] {
        kid.hit = cache.find(kid.key, depth - 1);
        if let Some(hit) = kid.hit {
            cache.prefetch_value(hit.id);
        }
    }
    frame.end = kids.len();
    frame
}

/// Solves one problem with a cold cache.
#[inline(always)]
pub(crate) fn solve<F: Flavor>(flavor: &F, depth: u32, board: Board) -> u32 {
    flavor.answer(&value(flavor, depth, board)) & ANSWER_MASK
}

/// The value of `board` at `depth`, in the board's own orientation.
#[inline(always)]
pub(crate) fn value<F: Flavor>(flavor: &F, depth: u32, board: Board) -> F::Value {
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
    let mut cache = Table::<F::Value>::new();
    let mut kids: Vec<Kid> = Vec::with_capacity(1024);
    let mut frames: Vec<Frame<F::Value>> = Vec::with_capacity(MAX_GAME as usize + 1);
    frames.push(expand(flavor, &cache, &mut kids, root, depth));
    loop {
        let top = frames.last_mut().expect("the root frame returns");
        if top.next < top.end {
            let kid = kids[top.next];
            top.next += 1;
            // A sibling's subtree may have cached this child since.
            match kid.hit.or_else(|| cache.find(kid.key, top.depth - 1)) {
                Some(hit) => {
                    flavor.add_value(&mut top.value, cache.value(hit.id), kid.sym);
                    top.note(hit.longest);
                }
                None => {
                    top.sym = kid.sym;
                    let depth = top.depth - 1;
                    frames.push(expand(flavor, &cache, &mut kids, kid.key, depth));
                }
            }
        } else {
            let mut done = frames.pop().expect("non-empty");
            flavor.add_leaves(&mut done.value, done.leaves);
            kids.truncate(done.start);
            let Some(parent) = frames.last_mut() else {
                return done.value;
            };
            let longest = (!done.cut).then_some(done.longest);
            cache.insert(done.board, done.depth, longest, done.value);
            flavor.add_value(&mut parent.value, &done.value, parent.sym);
            parent.note(longest);
        }
    }
}
