//! The endgame search split over threads: the top levels of the search tree
//! are expanded breadth-first until there are enough subtrees to balance, and
//! rayon searches the subtrees. Threads share one solution counter so that the
//! limit stops all of them, and one endgame cache (lock-free) so that each
//! region is worked out once, not once per thread. Small searches (boards
//! with several pieces on them) stay on the calling thread.

use rayon::prelude::*;

use crate::Solver;
use crate::board::{PartialBoard, Solutions};
use crate::endgame::{Cache, Endgame};
use crate::geometry::CELL_MASK;
use crate::islands::IslandTable;
use crate::search::{Collect, Dfs, Finish, Found, Recorder, Table, board_bits, children};

/// Subtrees to hand to rayon: many more than threads, so that stealing
/// evens out their very different sizes.
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

/// Searches `board` with `table` on rayon's threads, each with a [`Finish`]
/// made by `finish`.
fn split<F: Finish>(
    table: &IslandTable,
    board: &PartialBoard,
    limit: usize,
    turned_too: bool,
    finish: impl Fn() -> F + Sync + Send,
) -> Solutions {
    let found = Found::new();
    let (bits, placed) = board_bits(board);
    // The top of the tree, searched here: a node is counted when expanded,
    // exactly as the depth-first search would count it.
    let mut top = Collect::new(limit, turned_too, Some(&found));
    let mut nodes = 0;
    let mut frontier = vec![(bits, placed)];
    if table.dead(bits) || limit == 0 {
        // As the depth-first search: a dead root is one node.
        return Recorder::new(limit).finish(u64::from(limit > 0));
    }
    for _ in 0..LEVELS {
        if frontier.is_empty() || frontier.len() >= SUBTREES {
            break;
        }
        let mut next = Vec::new();
        for (b, placed) in frontier {
            if top.stop() {
                break;
            }
            nodes += 1;
            if b & CELL_MASK == CELL_MASK {
                top.solution(&placed);
                continue;
            }
            for m in children(table, b) {
                let mut p = placed.clone();
                p.push(m);
                next.push((b | m, p));
            }
        }
        frontier = next;
    }
    let (rec, sub_nodes) = frontier
        .into_par_iter()
        .map_init(
            || Dfs::new(table, finish()),
            |dfs, (b, placed)| {
                let sink = Collect::new(limit, turned_too, Some(&found));
                let (sink, nodes) = dfs.search(b, &placed, sink);
                (sink.rec, nodes)
            },
        )
        .reduce(
            || (Recorder::new(limit), 0),
            |(mut a, na), (b, nb)| {
                a.merge(&b);
                (a, na + nb)
            },
        );
    let mut all = top.rec;
    all.merge(&rec);
    all.finish(nodes + sub_nodes)
}
