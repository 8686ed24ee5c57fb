//! The endgame search split over threads: the top levels of the search tree
//! are expanded breadth-first until there are enough subtrees to balance, and
//! the calling thread and rayon's search the subtrees, taking them from
//! opposite ends of the list. Threads share one solution counter so that the
//! limit stops all of them, and one endgame cache (lock-free) so that each
//! region is worked out once, not once per thread. Small searches (boards
//! with several pieces on them) stay on the calling thread.
//!
//! Measured on two cores (Zen 5): handing the subtrees to rayon's parallel
//! iterator gave 1.65–1.77× over `endgame`. The threads were idle for 18–30 µs
//! each at the start (being woken) and up to 70 µs at the end, of a 1 ms
//! search; with the caller searching at once and the helpers woken before the
//! top of the tree is expanded, 1.82–1.92×; with the top expanded without
//! allocating (15 → 5 µs before the helpers can start), 1.88–1.89× in three
//! runs where the previous code gave 1.84–1.86×.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::endgame::{Cache, Endgame};
use crate::geometry::{CELL_MASK, PIECES};
use crate::islands::IslandTable;
use crate::search::{Collect, Dfs, Finish, Found, Recorder, Table, board_bits, children};

/// Subtrees to hand out: many more than threads, so that taking the next
/// one when done evens out their very different sizes.
const SUBTREES: usize = 128;

/// Boards with more pieces on them have searches of a few hundred nodes,
/// quicker done than handed to other threads: they are searched in the
/// calling thread.
const SPLIT_UP_TO_PIECES: usize = 2;

/// Levels expanded at most before handing out subtrees: a small search
/// (a board with many pieces on it) is not worth splitting further.
const LEVELS: usize = 3;

/// The parallel search.
pub struct Parallel {
    inner: Endgame,
}

impl Parallel {
    /// Builds the endgame search's tables.
    pub fn new() -> Parallel {
        Parallel {
            inner: Endgame::new(),
        }
    }
}

impl Default for Parallel {
    fn default() -> Self {
        Parallel::new()
    }
}

impl Solver for Parallel {
    fn solve(&self, board: &PartialBoard, limit: usize) -> Solutions {
        if board.pieces().len() > SPLIT_UP_TO_PIECES {
            return self.inner.solve(board, limit);
        }
        let (table, turned_too) = self.inner.plan(board);
        if self.inner.caches(board) {
            // One cache for all threads: each region is worked out once.
            self.inner.with_cache(table, board, |shared| {
                split(table, board, limit, turned_too, || Cache::new(shared))
            })
        } else {
            split(table, board, limit, turned_too, || ())
        }
    }
}

/// A subtree handed out: its board and the placements on it. Kept in place
/// rather than in a `Vec` each: the calling thread expands the top of the
/// tree while the helpers wait, and allocating (then freeing) every
/// subtree's placements took most of that (10 of 15 µs, measured).
#[derive(Clone, Copy)]
struct Subtree {
    board: u64,
    placed: [u64; PIECES],
    depth: usize,
}

impl Subtree {
    /// The root: `board`, with `placed` on it.
    fn root(board: u64, placed: &[u64]) -> Subtree {
        let mut root = Subtree {
            board,
            placed: [0; PIECES],
            depth: placed.len(),
        };
        root.placed[..placed.len()].copy_from_slice(placed);
        root
    }

    /// The placements on the board.
    fn placed(&self) -> &[u64] {
        &self.placed[..self.depth]
    }

    /// The subtree of placing `m` (on a board not yet covered).
    fn child(&self, m: u64) -> Subtree {
        let mut child = *self;
        child.board |= m;
        child.placed[self.depth] = m;
        child.depth += 1;
        child
    }
}

/// Searches `board` with `table` on this thread and rayon's, each with a
/// [`Finish`] made by `finish`.
///
/// The helpers are asked for before anything else, and this thread expands
/// the top of the tree while they wake (waking a sleeping thread took
/// 18–30 µs of a 1 ms search, measured). Then every thread takes the next
/// subtree, this one from the front of the list and the helpers from the
/// back ([`Ends`]), until none is left: this thread searches from the start
/// instead of waiting to be woken at the end.
fn split<F: Finish>(
    table: &IslandTable,
    board: &PartialBoard,
    limit: usize,
    turned_too: bool,
    finish: impl Fn() -> F + Sync,
) -> Solutions {
    let (bits, placed) = board_bits(board);
    if table.dead(bits) || limit == 0 {
        // As the depth-first search: a dead root is one node.
        return Recorder::new(limit).finish(u64::from(limit > 0));
    }
    let found = Found::new();
    let frontier: OnceLock<Vec<Subtree>> = OnceLock::new();
    let left = Ends::new();
    let busy = AtomicUsize::new(0);
    let search = |frontier: &[Subtree], from_back: bool| {
        let mut dfs = Dfs::new(table, finish());
        let (mut rec, mut nodes) = (Recorder::new(limit), 0);
        while let Some(t) = left.take(frontier.len(), from_back).map(|i| &frontier[i]) {
            let sink = Collect::new(limit, turned_too, Some(&found));
            let (sink, n) = dfs.search(t.board, t.placed(), sink);
            rec.merge(&sink.rec);
            nodes += n;
        }
        (rec, nodes)
    };
    let helpers: Vec<OnceLock<(Recorder, u64)>> = (1..rayon::current_num_threads())
        .map(|_| OnceLock::new())
        .collect();
    let (mut all, mut nodes) = rayon::in_place_scope(|scope| {
        for out in &helpers {
            scope.spawn(|_| {
                let frontier = loop {
                    match frontier.get() {
                        Some(f) => break f,
                        None => std::hint::spin_loop(),
                    }
                };
                busy.fetch_add(1, Ordering::Relaxed);
                let _ = out.set(search(frontier, true));
                busy.fetch_sub(1, Ordering::Release);
            });
        }
        let root = Subtree::root(bits, &placed);
        let (top, top_nodes) = expand_top(table, root, limit, turned_too, &found, &frontier);
        let (mut rec, nodes) = search(frontier.get().expect("expand_top sets the frontier"), false);
        // The helpers still searching are in their last subtree: wait for
        // them awake, rather than be put to sleep by the scope and woken
        // (tens of µs here). A helper not yet started finds nothing left.
        while busy.load(Ordering::Acquire) > 0 {
            std::hint::spin_loop();
        }
        rec.merge(&top);
        (rec, nodes + top_nodes)
    });
    for out in helpers {
        if let Some((rec, n)) = out.into_inner() {
            all.merge(&rec);
            nodes += n;
        }
    }
    all.finish(nodes)
}

/// The subtrees not yet taken, `taken_front..len - taken_back`: this thread
/// takes them from the front, the helpers from the back. Neighbouring
/// subtrees need many of the same regions, so threads working at opposite
/// ends rarely work the same region out at once (which both would).
struct Ends(AtomicU64);

impl Ends {
    fn new() -> Ends {
        Ends(AtomicU64::new(0))
    }

    /// The index of the next subtree of `len` from the front or the back,
    /// or `None` when all are taken.
    fn take(&self, len: usize, from_back: bool) -> Option<usize> {
        // Taken from the front in the low half, from the back in the high.
        let step = if from_back { 1 << 32 } else { 1 };
        let taken = self.0.fetch_add(step, Ordering::Relaxed) + step;
        let (front, back) = ((taken & 0xffff_ffff) as usize, (taken >> 32) as usize);
        if front + back > len {
            return None;
        }
        Some(if from_back { len - back } else { front - 1 })
    }
}

/// Expands the top levels of the tree of `root` breadth-first until there
/// are enough subtrees to balance, and sets `frontier` to them; returns the
/// solutions met on the way and the nodes expanded (counted as the
/// depth-first search would count them).
fn expand_top(
    table: &IslandTable,
    root: Subtree,
    limit: usize,
    turned_too: bool,
    found: &Found,
    frontier: &OnceLock<Vec<Subtree>>,
) -> (Recorder, u64) {
    let mut top = Collect::new(limit, turned_too, Some(found));
    let mut nodes = 0;
    let mut level = vec![root];
    for _ in 0..LEVELS {
        if level.is_empty() || level.len() >= SUBTREES {
            break;
        }
        let mut next = Vec::new();
        for t in level {
            if top.stop() {
                break;
            }
            nodes += 1;
            if t.board & CELL_MASK == CELL_MASK {
                top.solution(t.placed());
                continue;
            }
            next.extend(children(table, t.board).into_iter().map(|m| t.child(m)));
        }
        level = next;
    }
    let _ = frontier.set(level);
    (top.rec, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads taking from both ends get every subtree exactly once, also
    /// when several take from the back.
    #[test]
    fn every_subtree_is_taken_once() {
        for (len, helpers) in [(0, 1), (1, 1), (2, 1), (337, 1), (337, 3)] {
            let ends = Ends::new();
            let taken: Vec<Vec<usize>> = std::thread::scope(|scope| {
                let backs: Vec<_> = (0..helpers)
                    .map(|_| scope.spawn(|| std::iter::from_fn(|| ends.take(len, true)).collect()))
                    .collect();
                let front: Vec<usize> = std::iter::from_fn(|| ends.take(len, false)).collect();
                let mut all = vec![front];
                all.extend(backs.into_iter().map(|h| h.join().unwrap()));
                all
            });
            let mut all: Vec<usize> = taken.concat();
            all.sort_unstable();
            assert_eq!(
                all,
                (0..len).collect::<Vec<_>>(),
                "{len} subtrees, {helpers} helpers"
            );
            // The front only ever moves forward.
            assert!(taken[0].windows(2).all(|w| w[0] < w[1]));
        }
    }
}
