//! The expansion of one group of the sweep: its boards taken in batches,
//! each batch's children generated, the paths that end on them scored, and
//! the rest added to the tables of the groups they belong to. This is the
//! sweep's hot loop: [`expand`] and the stages it is split into are
//! `#[inline(always)]`, so that each vector copy of the sweep compiles them
//! for its instructions, as one function.
//!
//! The lookups and adds wait on memory and on the branch that tells a new
//! board from a known one, and neither prefetching nor removing the branch
//! pays. Passes over a batch that prefetched every child's slot, then every
//! lane, made the official tests take 26.0 ms in all against 22.1 ms for a
//! single pass: finding where a board's lanes are, to prefetch them, cost a
//! load of its own. Prefetching only the slot of the child 8 ahead changed
//! nothing (19.4-19.6 ms against 19.4-19.5). Prefetching slot, entry and
//! lanes 16, 8 and 4 children ahead made them 24.5-25.1 ms against
//! 16.9-17.4; a lookup without the branch (new boards' lanes zeroed in
//! advance, the entry picked by a conditional move) 20.1-20.4 ms against
//! 17.1-17.6: each lookup then waited for the one before it (Zen 4).
//! Neither does the lookup pay for leaving out the branch in other ways: a
//! first pass that entered every child's board without one (an entry
//! written in any case, counted if new), then a second that added the
//! lanes, made them 19.9-20.1 ms against 16.6-16.7; looking up a vector of
//! children with AVX-512 gathers (slot, entry, span), only new boards and
//! collisions taken one by one, 19.2-19.9 against 16.6-16.9, the gathers
//! waiting on each other. The time per child hardly depends on the size of
//! the tables (16.4-19.4 ns a child on official tests 6 to 12, whose
//! largest tables hold 1 k to 8 k boards), so the lookup waits less on
//! memory than on its own instructions and branches.
//!
//! Of one add, the costliest part is the read and write of a known board's
//! lanes: leaving it out (a wrong answer, to measure) made official tests
//! 8, 11 and 12 take 1.58-1.61, 3.88-3.96 and 2.54-2.65 ms against
//! 1.86-1.88, 4.65-4.80 and 2.90-2.94. Their wait for the entry is not
//! what costs: slots of a `u64` that also held where a board's lane 0 is,
//! so that its lanes could load beside its entry, changed nothing on those
//! tests and made official test 10 2-9 % and `empty:40` 2-3 % slower (Zen
//! 4).
//!
//! Nor does it pay to skip the table of a child whose only move fills the
//! board (one empty cell, no capture on there; 7 % of test 10's children,
//! 9 % of test 8's): scoring its fill from the parent's lanes made official
//! tests 8, 9 and 10 7-18 % slower, since scoring a path from a lane of 8
//! counts costs about as much as a table add, and every child with one
//! empty cell pays for the check (Zen 4).
//!
//! Nor do the order of the adds or the loop over a parent's lanes pay.
//! Adding each target's children in the order of their home slots (a
//! counting sort on the index's top 8 bits) made official test 11 take
//! 6.1 ms against 5.2 unsorted, with batches of 2048 boards so that a
//! slot's neighbourhood meets several children; batches of 256 took 4.6.
//! Adding up to 4 of a known board's lanes at once with AVX-512 masked
//! loads and stores, in place of a loop as long as the parent's lanes,
//! made official tests 11, 8 and 12 6-9 % slower (Zen 4).

use super::groups::{CELLS, Window};
use super::merge::{Lane, Merge};
use super::steps::Steps;
use super::table::Table;
use super::targets::Targets;
use crate::lists::{Lists, SLACK};

/// Boards expanded together, so that their children are generated and
/// canonicalised in vectors. Official tests, summed in process, with the
/// vector move generation: 17.9-18.1 ms with batches of 32, 17.7-18.3 with
/// 64, 16.4-17.0 with 128, 16.9-17.3 with 256, 16.7-17.2 with 512. With
/// ended paths scored in vectors too: 16.3-16.6 ms with 128, 15.8-16.4
/// with 256, 15.7-16.6 with 512 (four rounds); `empty:40` 30.0-30.1 ms with
/// 128, 29.4 with 256 (Zen 4).
pub(super) const BATCH: usize = 256;
/// Room for a batch's children in one list (at most 16 a board), and the
/// slack vector stores need.
const ROOM: usize = BATCH * 16 + SLACK;
/// Pads a batch to whole vectors of boards: a full board has no moves.
const NO_MOVES: u32 = 0o111_111_111;

/// The boards of one batch and their children, listed by target (see
/// `Targets`): each target's children are then added in one loop, which
/// keeps its table's fields in registers.
pub(super) struct Batch<L> {
    boards: [u32; BATCH],
    /// In a sweep free of depth, each board's one lane, so that a child
    /// reads it without a span.
    single: [L; BATCH],
    /// The children, then their canonical keys (`image << 3 | symmetry`).
    lists: Lists,
}

impl<L: Lane> Batch<L> {
    pub(super) fn new() -> Batch<L> {
        Batch {
            boards: [0; BATCH],
            single: [L::default(); BATCH],
            lists: Lists::new(ROOM),
        }
    }
}

/// What the expansion of one group needs to know of it.
#[derive(Clone, Copy)]
pub(super) struct Expansion {
    /// The lane at depth `D - 1`, if the window reaches it: its children
    /// end their paths and go straight into the answer.
    ending: Option<usize>,
    /// The lanes below this one have children that go into tables.
    feeding: usize,
    /// Whether a placement fills the board (the group holds 8 dice).
    fills: bool,
}

impl Expansion {
    pub(super) fn new(k: u32, here: Window, depth: u32, free: bool) -> Expansion {
        let ending = (!free && here.first + here.width as u32 == depth).then_some(here.width - 1);
        Expansion {
            ending,
            feeding: ending.unwrap_or(here.width),
            fills: k + 1 == CELLS,
        }
    }
}

/// Per target: whether its children go into its table, and the lane there
/// that lane 0 here moves to.
#[derive(Clone, Copy)]
struct Reach {
    /// Whether the search meets the target. A placement that fills the
    /// board ends its paths there, so its children go into no table.
    reached: [bool; 4],
    /// The target's lane that lane 0 here moves to.
    shift: [u8; 4],
}

impl Reach {
    #[inline(always)]
    fn of<L>(targets: &Targets<L>, group: Expansion) -> Reach {
        let mut reach = Reach {
            reached: [false; 4],
            shift: [0; 4],
        };
        for (to, target) in targets.groups.iter().enumerate() {
            if let Some((_, s)) = *target {
                reach.reached[to] = !(to == 0 && group.fills);
                reach.shift[to] = s as u8;
            }
        }
        reach
    }
}

/// Per parent in the batch, with a lane per depth: all its lanes, those
/// that feed children, the index of the first, and the scores of the paths
/// its children end.
struct Parents<'t, M: Merge> {
    all: [&'t [M::Lane]; BATCH],
    feeding: [&'t [M::Lane]; BATCH],
    first: [u8; BATCH],
    ends: Vec<Option<M::Score>>,
    /// Whether any parent of the batch has paths that its children end.
    ending: bool,
    /// Whether every parent of the batch feeds children.
    all_feed: bool,
}

impl<'t, M: Merge> Parents<'t, M> {
    fn new(group: Expansion) -> Self {
        Parents {
            all: [&[]; BATCH],
            feeding: [&[]; BATCH],
            first: [0; BATCH],
            ends: vec![None; if group.ending.is_some() { BATCH } else { 0 }],
            ending: false,
            all_feed: true,
        }
    }

    /// Fills `boards` with the next boards of `entries` that feed children
    /// or end paths, up to a batch, noting their lanes; returns how many.
    #[inline(always)]
    fn fill<S: Steps>(
        &mut self,
        boards: &mut [u32; BATCH],
        entries: &mut impl Iterator<Item = (u32, (usize, usize), &'t [M::Lane])>,
        group: Expansion,
        merge: &M,
        steps: &S,
    ) -> usize {
        let mut count = 0;
        self.ending = false;
        self.all_feed = true;
        for (board, (lo, hi), lanes) in entries.by_ref() {
            let feeds = hi.min(group.feeding).saturating_sub(lo);
            let end = group
                .ending
                .filter(|e| (lo..hi).contains(e))
                .map(|e| steps.score(merge, lanes[e - lo]));
            if feeds == 0 && end.is_none() {
                continue;
            }
            boards[count] = board;
            self.all[count] = lanes;
            self.feeding[count] = &lanes[..feeds];
            self.first[count] = lo as u8;
            self.all_feed &= feeds != 0;
            if group.ending.is_some() {
                self.ending |= end.is_some();
                self.ends[count] = end;
            }
            count += 1;
            if count == BATCH {
                break;
            }
        }
        count
    }
}

/// In a sweep free of depth: fills the batch with the next boards of
/// `singles` and their one lanes, from which they all feed their children;
/// returns how many.
#[inline(always)]
fn fill_singles<L: Lane>(
    batch: &mut Batch<L>,
    singles: &mut impl Iterator<Item = (u32, L)>,
) -> usize {
    let mut count = 0;
    for (board, lane) in singles.by_ref() {
        batch.boards[count] = board;
        batch.single[count] = lane;
        count += 1;
        if count == BATCH {
            break;
        }
    }
    count
}

/// Expands every board of `table` into `targets`, in batches; returns what
/// the paths that end add to the answer, and whether any child went into a
/// table.
#[inline(always)]
pub(super) fn expand<M: Merge, S: Steps, const FREE: bool>(
    table: &Table<M::Lane>,
    group: Expansion,
    targets: &mut Targets<M::Lane>,
    pool: &mut Vec<Table<M::Lane>>,
    batch: &mut Batch<M::Lane>,
    merge: &M,
    steps: &S,
) -> (u64, bool) {
    let mut total = 0u64;
    let mut grew = false;
    let reach = Reach::of(targets, group);
    let mut parents = Parents::<M>::new(group);
    let mut entries = table.entries();
    let mut singles = table.singles();
    loop {
        let count = if FREE {
            fill_singles(batch, &mut singles)
        } else {
            parents.fill(&mut batch.boards, &mut entries, group, merge, steps)
        };
        if count == 0 {
            break;
        }
        let padded = count.next_multiple_of(S::WIDTH);
        batch.boards[count..padded].fill(NO_MOVES);
        batch.lists.len = [0; 4];
        steps.children(&batch.boards[..padded], &mut batch.lists);
        let ended = score_ends::<M, S, FREE>(batch, &parents, group, merge, steps);
        total = total.wrapping_add(ended);
        grew |= add_children::<M, S, FREE>(batch, &parents, reach, targets, pool, steps);
        if count < BATCH {
            break;
        }
    }
    (total, grew)
}

/// The children in list `to`, each with its parent's index in the batch.
#[inline(always)]
fn kids(lists: &Lists, to: usize) -> impl Iterator<Item = (u32, usize)> {
    let n = lists.len[to];
    lists.boards[to][..n]
        .iter()
        .zip(&lists.parents[to][..n])
        .map(|(&child, &parent)| (child, parent as usize))
}

/// What the paths that end on the batch's children add to the answer.
#[inline(always)]
fn score_ends<M: Merge, S: Steps, const FREE: bool>(
    batch: &Batch<M::Lane>,
    parents: &Parents<'_, M>,
    group: Expansion,
    merge: &M,
    steps: &S,
) -> u64 {
    let mut total = 0u64;
    // Every path through a board that a placement fills ends there. A
    // board with one empty cell has at most one placement: its paths are
    // scored for that child alone.
    if group.fills {
        for (child, parent) in kids(&batch.lists, 0) {
            let paths = if FREE {
                batch.single[parent]
            } else {
                parents.all[parent]
                    .iter()
                    .fold(M::Lane::default(), |a, &n| a.add(n))
            };
            let score = steps.score(merge, paths);
            total = total.wrapping_add(steps.scored(merge, &score, child));
        }
    }
    if parents.ending {
        for to in usize::from(group.fills)..4 {
            for (child, parent) in kids(&batch.lists, to) {
                if let Some(score) = &parents.ends[parent] {
                    total = total.wrapping_add(steps.scored(merge, score, child));
                }
            }
        }
    }
    total
}

/// Adds the batch's children to their targets' tables, each target's list
/// canonicalised first and then added in one loop; returns whether any
/// child went into a table.
#[inline(always)]
fn add_children<M: Merge, S: Steps, const FREE: bool>(
    batch: &mut Batch<M::Lane>,
    parents: &Parents<'_, M>,
    reach: Reach,
    targets: &mut Targets<M::Lane>,
    pool: &mut Vec<Table<M::Lane>>,
    steps: &S,
) -> bool {
    let mut grew = false;
    let lists = &mut batch.lists;
    for to in 0..4 {
        let n = lists.len[to];
        if n == 0 || !reach.reached[to] {
            continue;
        }
        targets.open(to, pool);
        let t = &mut targets.tables[to];
        t.reserve(n);
        let keys = &mut lists.boards[to];
        steps.canon_all(&mut keys[..n.next_multiple_of(S::WIDTH)]);
        let parent_of = &lists.parents[to][..n];
        if FREE {
            // Every board has its one lane, and every child goes in.
            grew = true;
            for (&key, &parent) in keys[..n].iter().zip(parent_of) {
                let lane = batch.single[parent as usize];
                t.add_one(key >> 3, lane, |d, n| steps.add_moved(d, n, key & 7));
            }
            continue;
        }
        for (&key, &parent) in keys[..n].iter().zip(parent_of) {
            let parent = parent as usize;
            let lanes = parents.feeding[parent];
            if !parents.all_feed && lanes.is_empty() {
                continue;
            }
            grew = true;
            let lane = usize::from(reach.shift[to] + parents.first[parent]);
            t.add(key >> 3, lane, lanes, |d, n| steps.add_moved(d, n, key & 7));
        }
    }
    grew
}
