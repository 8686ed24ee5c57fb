//! Forward counting that expands each board once, not once per depth.
//!
//! `bfs` keeps one table per depth, so a board met at five depths is expanded
//! five times. Here boards are grouped by what a move does to them: a
//! placement raises the dice sum `r` by one and the dice count `k` by one, a
//! capture keeps `r` and drops `k` by 1 to 3. So `4r - k` rises by 1 to 3 on
//! every move, and sweeping the groups in that order meets every board after
//! all of its parents: each board is expanded once, for all its depths.
//!
//! The depths a board can be met at follow from `(r, k)` too. From a root
//! with `(r0, k0)`, a board has seen `p = r - r0` placements and some `c`
//! captures that removed `R = k0 + p - k` dice net, 1 to 3 each, so its depth
//! `p + c` lies in `p + ceil(R/3) ..= p + min(R, D - p)`. Each board holds a
//! path count per depth in that window ("lanes"); lane 0 is the shallowest.
//! A placement keeps the lane index, a capture shifts it by 0 or 1 — the
//! windows of both groups are known, so a move is a short vector add.
//! When no path is likely to reach the depth limit before its board is
//! full, the lanes are not needed: a first sweep keeps one lane a board and
//! gives up if a group may be reached at the limit after all
//! (`likely_free`).
//!
//! Boards are also merged under the 8 symmetries of the square, one
//! representative an orbit (`Merge`). From a start every symmetry fixes
//! (the empty board) the images are reached by equally many paths, so one
//! count per depth holds the orbit (`stabiliser`): `empty:40` drops from
//! 3.8 M boards to 0.49 M. From any other start a lane holds a count per
//! orientation (`orient`): official test 11 drops from 213 k boards to
//! 98 k, official tests 6-12 from 155 ms to 115 ms in all (Zen 1).
//!
//! A search whose tree has at most a few dozen boards (a nearly full board,
//! a shallow depth) is walked path by path instead: the sweep's tables cost
//! microseconds to set up, the walk tens of nanoseconds a board.
//!
//! Three steps are taken for every child: its move, its canonical form and
//! the move of a parent's lane onto it. Boards are expanded in batches of
//! 256, a vector of boards at a time (`Steps`: 16 with AVX-512, 8 with
//! AVX2): each kind of move builds the children of all of them at once and
//! packs the legal ones into the list of the table they go to (`vecmoves`).
//! Each list is then canonicalised a vector at a time, and looked up and
//! added to one child at a time. Each entry keeps only the lanes that
//! received paths (see `table`). The tables' memory is kept between solves
//! on a thread (`spare`), so a solve does not fault in fresh pages as its
//! tables grow.
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

use crate::dihedral::canonical;
use crate::lists::{Lists, SLACK};
use crate::packed::{HIGH, MAX_GAME, hash, is_full, pack, zero_fields};
use crate::{ANSWER_MASK, Board, Solver, swarmoves};
#[cfg(target_arch = "x86_64")]
use crate::{
    dihedral::vector::canonical_keys,
    vecmoves,
    vector::{Avx2, Avx512, Lanes},
};

mod merge;
mod orient;
mod stabiliser;
mod table;

use merge::{Lane, Merge};
use orient::Orbit;
use stabiliser::{Full, stabiliser};
use table::Table;

/// The sweep over `(dice sum, dice count)` groups.
pub struct Front;

impl Solver for Front {
    fn solve(&self, depth: u32, board: Board) -> u32 {
        let root = pack(board);
        if is_full(root) {
            return hash(root) & ANSWER_MASK;
        }
        if depth == 0 {
            return hash(root) & ANSWER_MASK;
        }
        let depth = depth.min(MAX_GAME);
        // A tiny tree (a nearly full board, a shallow search) costs less to
        // walk path by path than the sweep's tables cost to set up.
        let mut budget = TINY_TREE;
        if let Some(sum) = walk(root, depth, &mut budget) {
            return sum & ANSWER_MASK;
        }
        swept(root, depth)
    }
}

/// The sweep from the packed, non-full `root`: free of depth where that is
/// likely to hold ([`likely_free`]), else or if it gives up with depth
/// lanes.
fn swept(root: u32, depth: u32) -> u32 {
    let (r, k) = rank_and_count(root);
    if likely_free(r, k, depth)
        && let Some(sum) = merged::<true>(root, depth)
    {
        return sum;
    }
    merged::<false>(root, depth).expect("a sweep with depth lanes always finishes")
}

/// [`sweep`] with orbit totals when every symmetry fixes `root`, counts per
/// orientation otherwise.
fn merged<const FREE: bool>(root: u32, depth: u32) -> Option<u32> {
    if stabiliser(root).len() == 8 {
        fastest::<_, FREE>(root, depth, &Full::new())
    } else {
        fastest::<_, FREE>(root, depth, &Orbit)
    }
}

/// [`sweep`] with the widest vectors the CPU has.
fn fastest<M: Merge, const FREE: bool>(root: u32, depth: u32, merge: &M) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = Avx2::new() {
        if let Some(lanes) = Avx512::new() {
            let steps = Vectors { lanes, avx2 };
            // SAFETY: `Avx512::new` found AVX-512 F, AVX2 and POPCNT.
            return unsafe { sweep_avx512::<M, FREE>(root, depth, merge, &steps) };
        }
        let steps = Vectors { lanes: avx2, avx2 };
        // SAFETY: `Avx2::new` found AVX2 and POPCNT.
        return unsafe { sweep_avx2::<M, FREE>(root, depth, merge, &steps) };
    }
    sweep::<M, Portable, FREE>(root, depth, merge, &Portable)
}

/// [`sweep`] compiled for AVX2 throughout.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn sweep_avx2<M: Merge, const FREE: bool>(
    root: u32,
    depth: u32,
    merge: &M,
    steps: &Vectors<Avx2>,
) -> Option<u32> {
    sweep::<M, _, FREE>(root, depth, merge, steps)
}

/// [`sweep`] compiled for AVX-512 throughout.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,popcnt")]
fn sweep_avx512<M: Merge, const FREE: bool>(
    root: u32,
    depth: u32,
    merge: &M,
    steps: &Vectors<Avx512>,
) -> Option<u32> {
    sweep::<M, _, FREE>(root, depth, merge, steps)
}

/// The steps a sweep takes for every child, which vectors shorten: move
/// generation, canonical form, a lane moved from a parent, and the score
/// of a path that ends.
trait Steps {
    /// Boards come to [`Steps::canon_all`] and [`Steps::children`] in
    /// multiples of this many.
    const WIDTH: usize;
    /// Replaces each board of `boards` by its canonical key: the
    /// representative shifted left by 3 above the symmetry that turns the
    /// board into it ([`canonical`]).
    fn canon_all(&self, boards: &mut [u32]);
    /// Lists the children of `boards`, each with its parent's index in
    /// `boards`.
    fn children(&self, boards: &[u32], lists: &mut Lists);
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32);
    /// [`Merge::score`] in these steps' instructions.
    fn score<M: Merge>(&self, merge: &M, lane: M::Lane) -> M::Score;
    /// [`Merge::scored`] in these steps' instructions.
    fn scored<M: Merge>(&self, merge: &M, score: &M::Score, b: u32) -> u64;
}

/// Scalar steps, for any CPU.
struct Portable;

impl Steps for Portable {
    const WIDTH: usize = 8;
    #[inline(always)]
    fn canon_all(&self, boards: &mut [u32]) {
        for b in boards {
            let (key, sym) = canonical(*b);
            *b = key << 3 | sym;
        }
    }
    #[inline(always)]
    fn children(&self, boards: &[u32], lists: &mut Lists) {
        for (parent, &board) in boards.iter().enumerate() {
            swarmoves::for_each_move(board, |child, captured| {
                lists.push(Lists::of(captured), child, parent as u32);
            });
        }
    }
    #[inline(always)]
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32) {
        *dst = dst.add_moved(parent, sym);
    }
    #[inline(always)]
    fn score<M: Merge>(&self, merge: &M, lane: M::Lane) -> M::Score {
        merge.score(lane)
    }
    #[inline(always)]
    fn scored<M: Merge>(&self, merge: &M, score: &M::Score, b: u32) -> u64 {
        merge.scored(score, b)
    }
}

/// Vector steps: a vector of boards' children generated and canonicalised
/// at once (8 boards with AVX2, 16 with AVX-512), a lane moved by
/// [`Lane::add_moved_avx2`].
#[cfg(target_arch = "x86_64")]
struct Vectors<V> {
    lanes: V,
    /// Proof that the CPU has AVX2, for the lane moves.
    avx2: Avx2,
}

#[cfg(target_arch = "x86_64")]
impl<V: Lanes> Steps for Vectors<V> {
    const WIDTH: usize = V::LANES;
    #[inline(always)]
    fn canon_all(&self, boards: &mut [u32]) {
        for chunk in boards.chunks_exact_mut(V::LANES) {
            canonical_keys(self.lanes, chunk);
        }
    }
    #[inline(always)]
    fn children(&self, boards: &[u32], lists: &mut Lists) {
        for (i, chunk) in boards.chunks_exact(V::LANES).enumerate() {
            vecmoves::moves(self.lanes, chunk, (i * V::LANES) as u32, lists);
        }
    }
    #[inline(always)]
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32) {
        *dst = dst.add_moved_avx2(parent, sym, self.avx2);
    }
    #[inline(always)]
    fn score<M: Merge>(&self, merge: &M, lane: M::Lane) -> M::Score {
        merge.score_avx2(lane, self.avx2)
    }
    #[inline(always)]
    fn scored<M: Merge>(&self, merge: &M, score: &M::Score, b: u32) -> u64 {
        merge.scored_avx2(score, b, self.avx2)
    }
}

/// Boards a path-by-path walk may expand before [`Front`] gives it up for
/// the sweep: a few microseconds, next to the milliseconds of a search that
/// needs the sweep.
const TINY_TREE: u32 = 64;

/// The hash sum over every path of at most `depth` moves from the packed,
/// non-full board `board`, walked path by path; `None` once more than
/// `budget` boards would have been expanded.
fn walk(board: u32, depth: u32, budget: &mut u32) -> Option<u32> {
    *budget = budget.checked_sub(1)?;
    let mut sum = 0u32;
    for &child in swarmoves::Children::of(board).as_slice() {
        sum = sum.wrapping_add(if depth == 1 || is_full(child) {
            hash(child)
        } else {
            walk(child, depth - 1, budget)?
        });
    }
    Some(sum)
}

/// The most dice a board holds.
const CELLS: u32 = 9;
/// The largest dice sum.
const MAX_RANK: u32 = 6 * CELLS;

/// Where the boards of one `(r, k)` group sit in depth.
#[derive(Clone, Copy)]
struct Window {
    /// The depth of lane 0.
    first: u32,
    /// Lanes: depths `first .. first + width`, all below `D`.
    width: usize,
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
    fn of(free: bool, root: (u32, u32), depth: u32, r: u32, k: u32) -> Option<Window> {
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
    fn lane_after(self, there: Window, free: bool) -> u32 {
        if free {
            0
        } else {
            self.first + 1 - there.first
        }
    }
}

/// The longest game from the empty board ([`MAX_GAME`] bounds games from
/// any board).
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
fn likely_free(r: u32, k: u32, depth: u32) -> bool {
    LONGEST_FROM_EMPTY + k <= depth + 2 * r
}

/// The dice sum and count of a packed board.
#[inline(always)]
fn rank_and_count(b: u32) -> (u32, u32) {
    // Pairs of neighbouring fields summed into 6-bit fields (at most 12),
    // then all five added into the top field by one multiplication.
    let pairs = (b & 0o707_070_707) + ((b >> 3) & 0o007_070_707);
    let rank = (pairs.wrapping_mul(0x0104_1041) >> 24) & 63;
    (rank, (!zero_fields(b) & HIGH).count_ones())
}

/// The groups a search can meet: dice sums from the root's `r0` to `top`
/// (a move raises the sum by at most 1), every dice count. Per-group arrays
/// cover only these, which keeps a shallow solve's set-up small.
struct Groups {
    r0: u32,
    top: u32,
}

impl Groups {
    fn new(r0: u32, depth: u32) -> Groups {
        Groups {
            r0,
            top: (r0 + depth).min(MAX_RANK),
        }
    }

    /// The index of group `(r, k)`, if the search can meet it.
    #[inline(always)]
    fn index(&self, r: u32, k: u32) -> Option<usize> {
        (self.r0..=self.top)
            .contains(&r)
            .then(|| ((r - self.r0) * (CELLS + 1) + k) as usize)
    }
}

/// Boards expanded together, so that their children are generated and
/// canonicalised in vectors. Official tests, summed in process, with the
/// vector move generation: 17.9-18.1 ms with batches of 32, 17.7-18.3 with
/// 64, 16.4-17.0 with 128, 16.9-17.3 with 256, 16.7-17.2 with 512. With
/// ended paths scored in vectors too: 16.3-16.6 ms with 128, 15.8-16.4
/// with 256, 15.7-16.6 with 512 (four rounds); `empty:40` 30.0-30.1 ms with
/// 128, 29.4 with 256 (Zen 4).
const BATCH: usize = 256;
/// Room for a batch's children in one list (at most 16 a board), and the
/// slack vector stores need.
const ROOM: usize = BATCH * 16 + SLACK;
/// Pads a batch to whole vectors of boards: a full board has no moves.
const NO_MOVES: u32 = 0o111_111_111;

/// The boards of one batch and their children, listed by target (see
/// `Targets`): each target's children are then added in one loop, which
/// keeps its table's fields in registers.
struct Batch<L> {
    boards: [u32; BATCH],
    /// In a sweep free of depth, each board's one lane, so that a child
    /// reads it without a span.
    single: [L; BATCH],
    /// The children, then their canonical keys (`image << 3 | symmetry`).
    lists: Lists,
}

impl<L: Lane> Batch<L> {
    fn new() -> Batch<L> {
        Batch {
            boards: [0; BATCH],
            single: [L::default(); BATCH],
            lists: Lists::new(ROOM),
        }
    }
}

/// The groups one group's moves lead to, by the dice a move captures (0,
/// 2, 3 or 4): a placement to group (r + 1, k + 1), a capture of m dice to
/// (r, k + 1 - m). Their tables are taken out of the sweep's list while the
/// group is expanded, so a child reaches its table without a lookup.
struct Targets<L> {
    /// Per target: its group, if the search can meet it, and the lane
    /// there that lane 0 of the expanded group moves to (one move deeper).
    groups: [Option<(usize, u32)>; 4],
    /// Per target: its table, opened from the pool when its first child
    /// arrives (a target no move reaches takes no memory).
    tables: [Table<L>; 4],
}

impl<L: Lane> Targets<L> {
    /// The targets of group `(r, k)`, whose window is `here`, with their
    /// tables taken from `tables`.
    fn take(
        (r, k): (u32, u32),
        here: Window,
        free: bool,
        groups: &Groups,
        windows: &[Option<Window>],
        tables: &mut [Table<L>],
    ) -> Targets<L> {
        let groups = std::array::from_fn(|to| {
            let (cr, ck) = match to {
                0 => (r + 1, k + 1),
                m => (r, (k + 1).checked_sub(m as u32 + 1)?),
            };
            let g = groups.index(cr, ck)?;
            let there = windows[g]?;
            Some((g, here.lane_after(there, free)))
        });
        let tables = groups.map(|target| match target {
            Some((g, ..)) => std::mem::take(&mut tables[g]),
            None => Table::default(),
        });
        Targets { groups, tables }
    }

    /// Opens target `to`'s table from `pool` if it is not open yet.
    #[inline(always)]
    fn open(&mut self, to: usize, pool: &mut Vec<Table<L>>) {
        if !self.tables[to].is_open() {
            self.tables[to] = Table::new(pool);
        }
    }

    /// Puts the tables back in the sweep's list.
    fn give_back(self, tables: &mut [Table<L>]) {
        for (target, table) in self.groups.into_iter().zip(self.tables) {
            if let Some((g, ..)) = target {
                tables[g] = table;
            }
        }
    }
}

/// The sweep, with a lane per depth or `FREE` of depth ([`likely_free`]);
/// `None` if it is free of depth and a path may reach the limit before its
/// board is full. Inlined into each caller, so that [`sweep_avx2`]'s copy
/// is compiled for AVX2 throughout.
#[inline(always)]
fn sweep<M: Merge, S: Steps, const FREE: bool>(
    root: u32,
    depth: u32,
    merge: &M,
    steps: &S,
) -> Option<u32> {
    let (r0, k0) = rank_and_count(root);
    let groups = Groups::new(r0, depth);
    let windows: Vec<Option<Window>> = (r0..=groups.top)
        .flat_map(|r| (0..=CELLS).map(move |k| Window::of(FREE, (r0, k0), depth, r, k)))
        .collect();
    let mut pool = spare::take();
    // A group's table is taken from the pool when its first board arrives,
    // and goes back as soon as the group is expanded: later groups reuse it.
    let mut tables: Vec<Table<M::Lane>> = (0..windows.len()).map(|_| Table::default()).collect();
    let (key, sym) = canonical(root);
    let g = groups.index(r0, k0).expect("the root's group");
    tables[g] = Table::new(&mut pool);
    let first = &mut tables[g];
    first.reserve(1);
    first.add(key, 0, &[merge.root(sym)], |d, n| *d = d.add(n));
    // Per group, free of depth: the most moves a path to it may have taken.
    let mut deepest = vec![0; if FREE { windows.len() } else { 0 }];

    let mut batch = Batch::new();
    let mut total = 0u64;
    // A move raises `4r - k` by 1 to 3: the sweep ends 3 orders past the
    // last group that received a child (a shallow search meets few groups).
    let mut order = 4 * r0 - k0;
    let mut last = order;
    let mut gave_up = false;
    'sweep: while order <= last {
        for k in 0..CELLS {
            if (order + k) % 4 != 0 {
                continue;
            }
            let r = (order + k) / 4;
            let Some(g) = groups.index(r, k) else {
                continue;
            };
            if tables[g].len() == 0 {
                continue;
            }
            if FREE && deepest[g] >= depth {
                gave_up = true;
                break 'sweep;
            }
            let table = std::mem::take(&mut tables[g]);
            let here = windows[g].expect("a table holds boards only in a reachable group");
            let mut targets = Targets::take((r, k), here, FREE, &groups, &windows, &mut tables);
            let (sum, grew) = expand::<M, S, FREE>(
                &table,
                Expansion::new(k, here, depth, FREE),
                &mut targets,
                &mut pool,
                &mut batch,
                merge,
                steps,
            );
            if FREE {
                for &(to, _) in targets.groups.iter().flatten() {
                    deepest[to] = deepest[to].max(deepest[g] + 1);
                }
            }
            targets.give_back(&mut tables);
            pool.push(table);
            total = total.wrapping_add(sum);
            if grew {
                last = order + 3;
            }
        }
        order += 1;
    }
    pool.extend(tables.into_iter().filter(Table::is_open));
    spare::give_back(pool);
    (!gave_up).then(|| merge.finish(total) & ANSWER_MASK)
}

/// What the expansion of one group needs to know of it.
#[derive(Clone, Copy)]
struct Expansion {
    /// The lane at depth `D - 1`, if the window reaches it: its children
    /// end their paths and go straight into the answer.
    ending: Option<usize>,
    /// The lanes below this one have children that go into tables.
    feeding: usize,
    /// Whether a placement fills the board (the group holds 8 dice).
    fills: bool,
}

impl Expansion {
    fn new(k: u32, here: Window, depth: u32, free: bool) -> Expansion {
        let ending = (!free && here.first + here.width as u32 == depth).then_some(here.width - 1);
        Expansion {
            ending,
            feeding: ending.unwrap_or(here.width),
            fills: k + 1 == CELLS,
        }
    }
}

/// Expands every board of `table` into `targets`, in batches; returns what
/// the paths that end add to the answer, and whether any child went into a
/// table.
#[inline(always)]
fn expand<M: Merge, S: Steps, const FREE: bool>(
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
    // Per target: whether the search meets it, and the lane there that
    // lane 0 here moves to. A placement that fills the board ends its
    // paths there.
    let mut reached = [false; 4];
    let mut shift = [0u8; 4];
    for (to, target) in targets.groups.iter().enumerate() {
        if let Some((_, s)) = *target {
            reached[to] = !(to == 0 && group.fills);
            shift[to] = s as u8;
        }
    }
    // Per parent in the batch: all its lanes, those that feed children, the
    // index of the first, and the scores of the paths its children end.
    let mut all: [&[M::Lane]; BATCH] = [&[]; BATCH];
    let mut feeding: [&[M::Lane]; BATCH] = [&[]; BATCH];
    let mut first = [0u8; BATCH];
    let mut ends: Vec<Option<M::Score>> =
        vec![None; if group.ending.is_some() { BATCH } else { 0 }];
    let mut entries = table.entries();
    let mut singles = table.singles();
    loop {
        let mut count = 0;
        let mut ending = false;
        let mut all_feed = true;
        if FREE {
            // Every board feeds its children from its one lane.
            for (board, lane) in singles.by_ref() {
                batch.boards[count] = board;
                batch.single[count] = lane;
                count += 1;
                if count == BATCH {
                    break;
                }
            }
        } else {
            for (board, (lo, hi), lanes) in entries.by_ref() {
                let feeds = hi.min(group.feeding).saturating_sub(lo);
                let end = group
                    .ending
                    .filter(|e| (lo..hi).contains(e))
                    .map(|e| steps.score(merge, lanes[e - lo]));
                if feeds == 0 && end.is_none() {
                    continue;
                }
                batch.boards[count] = board;
                all[count] = lanes;
                feeding[count] = &lanes[..feeds];
                first[count] = lo as u8;
                all_feed &= feeds != 0;
                if group.ending.is_some() {
                    ending |= end.is_some();
                    ends[count] = end;
                }
                count += 1;
                if count == BATCH {
                    break;
                }
            }
        }
        if count == 0 {
            break;
        }
        let padded = count.next_multiple_of(S::WIDTH);
        batch.boards[count..padded].fill(NO_MOVES);
        let lists = &mut batch.lists;
        lists.len = [0; 4];
        steps.children(&batch.boards[..padded], lists);
        let kids = |to: usize| {
            let n = lists.len[to];
            lists.boards[to][..n]
                .iter()
                .zip(&lists.parents[to][..n])
                .map(|(&child, &parent)| (child, parent as usize))
        };
        // Every path through a board that a placement fills ends there. A
        // board with one empty cell has at most one placement: its paths
        // are scored for that child alone.
        if group.fills {
            for (child, parent) in kids(0) {
                let paths = if FREE {
                    batch.single[parent]
                } else {
                    all[parent]
                        .iter()
                        .fold(M::Lane::default(), |a, &n| a.add(n))
                };
                let score = steps.score(merge, paths);
                total = total.wrapping_add(steps.scored(merge, &score, child));
            }
        }
        if ending {
            for to in usize::from(group.fills)..4 {
                for (child, parent) in kids(to) {
                    if let Some(score) = &ends[parent] {
                        total = total.wrapping_add(steps.scored(merge, score, child));
                    }
                }
            }
        }
        for to in 0..4 {
            let n = lists.len[to];
            if n == 0 || !reached[to] {
                continue;
            }
            targets.open(to, pool);
            let t = &mut targets.tables[to];
            t.reserve(n);
            let keys = &mut lists.boards[to];
            steps.canon_all(&mut keys[..n.next_multiple_of(S::WIDTH)]);
            let parents = &lists.parents[to][..n];
            if FREE {
                // Every board has its one lane, and every child goes in.
                grew = true;
                for (&key, &parent) in keys[..n].iter().zip(parents) {
                    let lane = batch.single[parent as usize];
                    t.add_one(key >> 3, lane, |d, n| steps.add_moved(d, n, key & 7));
                }
                continue;
            }
            for (&key, &parent) in keys[..n].iter().zip(parents) {
                let parent = parent as usize;
                let lanes = feeding[parent];
                if !all_feed && lanes.is_empty() {
                    continue;
                }
                grew = true;
                let lane = usize::from(shift[to] + first[parent]);
                t.add(key >> 3, lane, lanes, |d, n| steps.add_moved(d, n, key & 7));
            }
        }
        if count < BATCH {
            break;
        }
    }
    (total, grew)
}

/// Tables kept between solves on one thread, so a solve reuses the memory
/// of the last one instead of faulting in fresh pages as its tables grow
/// (official test 11 took 1,800 page faults a solve, 15% of its time in the
/// kernel). Only memory is kept: every table is cleared before it is used.
mod spare {
    use super::{Lane, Table};
    use std::any::Any;
    use std::cell::RefCell;

    thread_local! {
        /// One `Vec<Table<L>>` per lane type `L` in use.
        static POOLS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
    }

    /// The tables of lane type `L` left by earlier solves.
    pub(super) fn take<L: Lane>() -> Vec<Table<L>> {
        POOLS.with_borrow_mut(|pools| {
            let at = pools.iter().position(|p| p.is::<Vec<Table<L>>>());
            at.and_then(|at| pools.swap_remove(at).downcast().ok())
                .map_or_else(Vec::new, |pool| *pool)
        })
    }

    /// Keeps `pool` for the next solve on this thread.
    pub(super) fn give_back<L: Lane>(pool: Vec<Table<L>>) {
        POOLS.with_borrow_mut(|pools| pools.push(Box::new(pool)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::Bfs;
    use crate::{Problem, inputs};

    #[test]
    fn rank_and_count_match_the_cells() {
        for text in ["000/000/000", "666/666/666", "123/456/012", "600/000/006"] {
            let board: Board = text.parse().unwrap();
            let cells = board.cells();
            let count = cells.iter().filter(|&&c| c != 0).count() as u32;
            assert_eq!(rank_and_count(pack(board)), (board.rank(), count), "{text}");
        }
    }

    #[test]
    fn windows_hold_the_root_and_stop_at_the_depth() {
        let lanes = |depth, r, k| Window::of(false, (5, 2), depth, r, k);
        let w = lanes(10, 5, 2).unwrap();
        assert_eq!((w.first, w.width), (0, 1));
        // Two placements and one capture removing 2 dice net: depth 3..=4.
        let w = lanes(10, 7, 2).unwrap();
        assert_eq!((w.first, w.width), (3, 2));
        assert!(lanes(2, 7, 2).is_none(), "3 moves do not fit in 2");
        assert!(lanes(10, 4, 2).is_none(), "the dice sum never drops");
        let free = Window::of(true, (5, 2), 10, 7, 2).unwrap();
        assert_eq!((free.first, free.width), (0, 1), "one lane, free of depth");
        assert_eq!(w.lane_after(free, true), 0);
    }

    /// [`merged`] with every kind of steps this CPU can run, each named, and
    /// depth lanes or `FREE` of depth: `swept` itself takes only the widest
    /// vectors, and a sweep free of depth only where it is likely to hold.
    fn every_sweep<const FREE: bool>(root: u32, depth: u32) -> Vec<(&'static str, Option<u32>)> {
        if stabiliser(root).len() == 8 {
            sweeps::<_, FREE>(root, depth, &Full::new())
        } else {
            sweeps::<_, FREE>(root, depth, &Orbit)
        }
    }

    fn sweeps<M: Merge, const FREE: bool>(
        root: u32,
        depth: u32,
        merge: &M,
    ) -> Vec<(&'static str, Option<u32>)> {
        let mut out = vec![(
            "portable",
            sweep::<M, _, FREE>(root, depth, merge, &Portable),
        )];
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Avx2::new() {
            let steps = Vectors { lanes: avx2, avx2 };
            // SAFETY: `Avx2::new` found AVX2 and POPCNT.
            out.push(("avx2", unsafe {
                sweep_avx2::<M, FREE>(root, depth, merge, &steps)
            }));
            if let Some(lanes) = Avx512::new() {
                let steps = Vectors { lanes, avx2 };
                // SAFETY: `Avx512::new` found AVX-512 F, AVX2 and POPCNT.
                out.push(("avx512", unsafe {
                    sweep_avx512::<M, FREE>(root, depth, merge, &steps)
                }));
            }
        }
        out
    }

    /// The walk takes tiny trees, so the sweep is tested on its own too:
    /// on the seeded boards of rank cells 0 to 30, at depths where the walk
    /// answers as well as where it gives up.
    #[test]
    fn sweep_and_walk_agree_with_bfs() {
        let mut walked = 0;
        for problem in (0..=30)
            .step_by(3)
            .flat_map(|r| (1..=7).flat_map(move |d| inputs::rank(r, d, 7, 4)))
        {
            let Problem { depth, board } = problem;
            let want = Bfs.solve(depth, board);
            assert_eq!(swept(pack(board), depth), want, "swept {depth} {board}");
            for (steps, sum) in every_sweep::<false>(pack(board), depth) {
                assert_eq!(sum, Some(want), "{steps} {depth} {board}");
            }
            let mut budget = TINY_TREE;
            if let Some(sum) = walk(pack(board), depth, &mut budget) {
                assert_eq!(sum & ANSWER_MASK, want, "walk {depth} {board}");
                walked += 1;
            }
            assert_eq!(Front.solve(depth, board), want, "{depth} {board}");
        }
        assert!(walked > 20, "the walk answered only {walked} searches");
    }

    /// What a sweep free of depth gives with every kind of steps, which
    /// must agree.
    fn free(root: u32, depth: u32) -> Option<u32> {
        let sums = every_sweep::<true>(root, depth);
        let (_, first) = sums[0];
        for (steps, sum) in sums {
            assert_eq!(sum, first, "{steps} steps, free of depth, {depth} {root:o}");
        }
        first
    }

    /// A sweep free of depth answers right or gives up, and it gives up
    /// whenever a path stops at the depth limit on a board that is not
    /// full; it answers the official tests that never reach their limit.
    #[test]
    fn a_sweep_free_of_depth_answers_right_or_gives_up() {
        let (mut answered, mut gave_up) = (0, 0);
        for problem in (12..=36).step_by(4).flat_map(|r| {
            [6, 10, 14, 18, 24]
                .into_iter()
                .flat_map(move |d| inputs::rank(r, d, 11, 3))
        }) {
            let Problem { depth, board } = problem;
            if board.is_full() {
                continue;
            }
            match free(pack(board), depth) {
                Some(sum) => {
                    assert_eq!(sum, Bfs.solve(depth, board), "{depth} {board}");
                    answered += 1;
                }
                None => gave_up += 1,
            }
        }
        assert!(answered > 20, "answered only {answered} searches");
        assert!(gave_up > 20, "gave up only {gave_up} searches");
        let official = inputs::official();
        for (test, Problem { depth, board }) in (1..).zip(official) {
            // Their longest games take 2, 3, 23, 30, 31 and 35 moves.
            let never_stops = [1, 2, 6, 7, 9, 10].contains(&test);
            let got = free(pack(board), depth);
            assert_eq!(got.is_some(), never_stops, "official test {test}");
            if let Some(sum) = got {
                assert_eq!(sum, Front.solve(depth, board), "official test {test}");
            }
        }
    }

    /// Roots fixed by 8 symmetries take orbit totals (64-bit lanes,
    /// division at the end), roots fixed by 2 or 4 counts per orientation
    /// that several orientations of one board share; all must agree with
    /// plain `bfs`.
    #[test]
    fn symmetric_roots_agree_with_bfs() {
        let mut orders = Vec::new();
        for text in [
            "100/352/100",
            "010/101/010",
            "101/000/101",
            "120/000/021",
            "121/000/121",
            "210/000/012",
            "110/000/011",
            "000/010/000",
            "000/000/000",
        ] {
            let board: Board = text.parse().unwrap();
            let order = stabiliser(pack(board)).len();
            assert!([2, 4, 8].contains(&order), "{text} is symmetric");
            orders.push(order);
            for depth in 0..=12 {
                let want = Bfs.solve(depth, board);
                assert_eq!(Front.solve(depth, board), want, "{depth} {text}");
                if depth > 0 && !board.is_full() {
                    assert_eq!(swept(pack(board), depth), want, "swept {depth} {text}");
                    for (steps, sum) in every_sweep::<false>(pack(board), depth) {
                        assert_eq!(sum, Some(want), "{steps} {depth} {text}");
                    }
                }
            }
        }
        orders.sort_unstable();
        orders.dedup();
        assert_eq!(orders, [2, 4, 8], "every proper stabiliser size is covered");
    }
}
