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
//! Two steps are taken for every child: its canonical form and the move of
//! a parent's lane onto it. On a CPU with AVX2 the whole sweep is compiled
//! for it (`Steps`): the 8 images are compared in one vector and the 8
//! counts of a lane permuted in one `vpermd`, which with the moves listed
//! before the per-child loop cut official test 11 from 145 M to 113 M
//! instructions. The tables' memory is kept between solves on a thread
//! (`spare`), so a solve does not fault in fresh pages as its tables grow.

#[cfg(target_arch = "x86_64")]
use crate::avx2;
use crate::orient::Orbit;
use crate::packed::{HIGH, MAX_GAME, hash, is_full, pack, zero_fields};
use crate::stabiliser::{Full, stabiliser};
use crate::symmetry::canonical;
use crate::table::prefetch;
use crate::{ANSWER_MASK, Board, Solver, swarmoves};

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

/// The sweep from the packed, non-full `root`: orbit totals when every
/// symmetry fixes it, counts per orientation otherwise.
fn swept(root: u32, depth: u32) -> u32 {
    if stabiliser(root).len() == 8 {
        fastest(root, depth, &Full::new())
    } else {
        fastest(root, depth, &Orbit)
    }
}

/// [`sweep`] with the AVX2 steps where the CPU has AVX2.
fn fastest<M: Merge>(root: u32, depth: u32, merge: &M) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = Avx2::new() {
        // SAFETY: `Avx2::new` found AVX2 on this CPU.
        return unsafe { sweep_avx2(root, depth, merge, &avx2) };
    }
    sweep(root, depth, merge, &Portable)
}

/// [`sweep`] compiled for AVX2 throughout.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn sweep_avx2<M: Merge>(root: u32, depth: u32, merge: &M, steps: &Avx2) -> u32 {
    sweep(root, depth, merge, steps)
}

/// The two steps a sweep takes for every child, which AVX2 shortens:
/// canonical form, and a lane moved from a parent.
trait Steps {
    /// The representative of `b` and a symmetry `s` with `apply(b, s)`
    /// equal to it.
    fn canon(&self, b: u32) -> (u32, u32);
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32);
}

/// Scalar steps, for any CPU.
struct Portable;

impl Steps for Portable {
    #[inline(always)]
    fn canon(&self, b: u32) -> (u32, u32) {
        canonical(b)
    }
    #[inline(always)]
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32) {
        *dst = dst.add_moved(parent, sym);
    }
}

/// AVX2 steps: the 8 images of a child turned and compared in one vector,
/// a lane moved by [`Lane::add_moved_avx2`]. Exists only on a CPU with AVX2.
#[cfg(target_arch = "x86_64")]
struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    fn new() -> Option<Avx2> {
        is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Steps for Avx2 {
    #[inline(always)]
    fn canon(&self, b: u32) -> (u32, u32) {
        // SAFETY: an `Avx2` exists only on a CPU with AVX2 (`new`).
        unsafe { avx2::canonical(b) }
    }
    #[inline(always)]
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32) {
        // SAFETY: as in `canon`.
        *dst = unsafe { dst.add_moved_avx2(parent, sym) };
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
    fn of(root_rank: u32, root_count: u32, depth: u32, r: u32, k: u32) -> Option<Window> {
        let p = r.checked_sub(root_rank)?;
        let removed = (root_count + p).checked_sub(k)?;
        let first = p + removed.div_ceil(3);
        let last = (p + removed).min(depth - 1);
        (first <= last).then(|| Window {
            first,
            width: (last - first + 1) as usize,
        })
    }
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

    /// The number of groups.
    fn len(&self) -> usize {
        ((self.top - self.r0 + 1) * (CELLS + 1)) as usize
    }

    /// The index of group `(r, k)`, if the search can meet it.
    #[inline(always)]
    fn index(&self, r: u32, k: u32) -> Option<usize> {
        (self.r0..=self.top)
            .contains(&r)
            .then(|| ((r - self.r0) * (CELLS + 1) + k) as usize)
    }
}

/// The path counts of one lane (one depth) of a merged board.
pub(crate) trait Lane: Copy + Default + Send + 'static {
    fn add(self, other: Self) -> Self;
    /// `self` plus a parent lane's paths, moved to a child whose
    /// representative is `apply(child, sym)`.
    fn add_moved(self, parent: Self, sym: u32) -> Self;
    /// [`Lane::add_moved`], for code compiled with AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn add_moved_avx2(self, parent: Self, sym: u32) -> Self {
        self.add_moved(parent, sym)
    }
    fn is_zero(self) -> bool;
}

/// How the sweep merges symmetric boards into one representative, and what
/// the paths it counts add to the answer.
pub(crate) trait Merge {
    type Lane: Lane;
    /// A lane's paths, prepared once to score each board they end on.
    type Score;
    /// One path at the start, whose representative is `apply(start, sym)`.
    fn root(&self, sym: u32) -> Self::Lane;
    fn score(&self, lane: Self::Lane) -> Self::Score;
    /// What the scored paths add to the answer when they end on `b`
    /// (before [`Merge::finish`]).
    fn scored(&self, score: &Self::Score, b: u32) -> u64;
    /// The answer from the sum of the scored shares.
    fn finish(&self, total: u64) -> u32;
}

/// Inlined into each caller, so that [`sweep_avx2`]'s copy is compiled for
/// AVX2 throughout.
#[inline(always)]
fn sweep<M: Merge, S: Steps>(root: u32, depth: u32, merge: &M, steps: &S) -> u32 {
    let (r0, k0) = rank_and_count(root);
    let groups = Groups::new(r0, depth);
    let windows: Vec<Option<Window>> = (r0..=groups.top)
        .flat_map(|r| (0..=CELLS).map(move |k| Window::of(r0, k0, depth, r, k)))
        .collect();
    let mut tables: Vec<Option<Table<M::Lane>>> = (0..groups.len()).map(|_| None).collect();
    let mut pool = spare::take();
    let mut first = Table::new(1, &mut pool);
    let (key, sym) = steps.canon(root);
    let entry = first.entry(key);
    first.lanes_at(entry)[0] = merge.root(sym);
    tables[groups.index(r0, k0).expect("the root's group")] = Some(first);

    let mut total = 0u64;
    // A move raises `4r - k` by 1 to 3: the sweep ends 3 orders past the
    // last group that received a child (a shallow search meets few groups).
    let mut order = 4 * r0 - k0;
    let mut last = order;
    while order <= last {
        for k in 0..CELLS {
            if (order + k) % 4 != 0 {
                continue;
            }
            let r = (order + k) / 4;
            let Some(g) = groups.index(r, k) else {
                continue;
            };
            let Some(table) = tables[g].take() else {
                continue;
            };
            let here = windows[g].expect("a table exists only for a reachable group");
            // The lane at depth `D - 1`, if the window reaches it: its
            // children end their paths and go straight into the answer.
            let ending = (here.first + here.width as u32 == depth).then_some(here.width - 1);
            let feeding = ending.unwrap_or(here.width);
            // Where a move leads depends only on how many dice it captures:
            // a placement to group (r + 1, k + 1), a capture of m dice to
            // (r, k + 1 - m). Each target: its group and window (lane `i`
            // here is depth `here.first + i`, one move deeper is lane
            // `i + here.first + 1 - there.first` there).
            let targets: [Option<(usize, Window)>; 5] = std::array::from_fn(|captured| {
                let (cr, ck) = match captured {
                    0 => (r + 1, k + 1),
                    1 => return None,
                    m => (r, (k + 1).checked_sub(m as u32)?),
                };
                let g = groups.index(cr, ck)?;
                Some((g, windows[g]?))
            });
            // A three-stage pipeline over the boards, so the cache misses
            // of neighbouring boards overlap: find a board's children and
            // prefetch their slots; a board later, look the children up
            // and prefetch their lanes; a board later still, add the lanes.
            // The stages rotate through `stages` (nothing is copied).
            let mut stages: [Stage<M::Lane>; 3] = Default::default();
            let mut now = 0;
            for (board, lanes) in table.entries() {
                let stage = &mut stages[now];
                stage.kids.clear();
                // Most lanes of a window are zero: only the nonzero run
                // is moved.
                let lo = lanes
                    .iter()
                    .position(|n| !n.is_zero())
                    .unwrap_or(lanes.len());
                let hi = lanes
                    .iter()
                    .rposition(|n| !n.is_zero())
                    .map_or(lo, |i| i + 1);
                let feeds = lo < feeding;
                let ends = ending
                    .map(|i| lanes[i])
                    .filter(|n| !n.is_zero())
                    .map(|n| merge.score(n));
                stage.lanes = &lanes[lo..hi.min(feeding).max(lo)];
                if feeds || ends.is_some() {
                    // Every path through a board that a move fills ends
                    // there: scored when a move does (few boards have one).
                    let mut moving = None;
                    let kids = &mut stage.kids;
                    // The moves are listed first, so this loop is compiled once, not
                    // at each of the places a move is found.
                    for (child, captured) in swarmoves::Children::of(board).moves() {
                        // Only a placement can fill the board.
                        if captured == 0 && is_full(child) {
                            let moving = moving.get_or_insert_with(|| {
                                merge.score(
                                    lanes[lo..hi]
                                        .iter()
                                        .fold(M::Lane::default(), |a, &n| a.add(n)),
                                )
                            });
                            total = total.wrapping_add(merge.scored(moving, child));
                            continue;
                        }
                        if let Some(ends) = &ends {
                            total = total.wrapping_add(merge.scored(ends, child));
                        }
                        if !feeds {
                            continue;
                        }
                        let Some((g, there)) = targets[captured] else {
                            continue;
                        };
                        let (child, sym) = steps.canon(child);
                        tables[g]
                            .get_or_insert_with(|| Table::new(there.width, &mut pool))
                            .prefetch(child);
                        kids.push(child, sym, g, here.first + 1 - there.first + lo as u32);
                        last = order + 3;
                    }
                }
                let [prev, older] = [(now + 2) % 3, (now + 1) % 3];
                look_up(&mut tables, &mut stages[prev].kids);
                add_lanes(steps, &mut tables, &stages[older]);
                now = (now + 1) % 3;
            }
            let [prev, older] = [(now + 2) % 3, (now + 1) % 3];
            look_up(&mut tables, &mut stages[prev].kids);
            add_lanes(steps, &mut tables, &stages[older]);
            add_lanes(steps, &mut tables, &stages[prev]);
            pool.push(table);
        }
        order += 1;
    }
    pool.extend(tables.into_iter().flatten());
    spare::give_back(pool);
    merge.finish(total) & ANSWER_MASK
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

/// The children of one board still to receive its lanes. No board has more
/// than 16 moves.
#[derive(Default)]
struct Kids {
    items: [Kid; 16],
    len: usize,
}

/// A child: its (canonical) board, group index, and where the parent's
/// first nonzero lane goes: the lane of its entry, then once looked up, that
/// lane's place in its table's lanes.
#[derive(Clone, Copy, Default)]
struct Kid {
    board: u32,
    group: u16,
    /// The symmetry from the child to its representative `board`.
    sym: u8,
    at: u32,
}

impl Kids {
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, board: u32, sym: u32, group: usize, lane: u32) {
        self.items[self.len] = Kid {
            board,
            group: group as u16,
            sym: sym as u8,
            at: lane,
        };
        self.len += 1;
    }
}

/// One board in the pipeline: its nonzero lanes and its children.
struct Stage<'a, L> {
    lanes: &'a [L],
    kids: Kids,
}

impl<L> Default for Stage<'_, L> {
    fn default() -> Self {
        Stage {
            lanes: &[],
            kids: Kids::default(),
        }
    }
}

/// Finds (or adds) each kid's entry, turns its lane into that lane's place
/// in the table's lanes, and prefetches it.
#[inline(always)]
fn look_up<L: Lane>(tables: &mut [Option<Table<L>>], kids: &mut Kids) {
    for kid in &mut kids.items[..kids.len] {
        let table = tables[usize::from(kid.group)]
            .as_mut()
            .expect("created when the child was found");
        kid.at += table.entry(kid.board) * table.width as u32;
        table.prefetch_lane(kid.at);
    }
}

/// Adds a board's nonzero lanes to each of its looked-up kids.
#[inline(always)]
fn add_lanes<L: Lane, S: Steps>(steps: &S, tables: &mut [Option<Table<L>>], stage: &Stage<L>) {
    for kid in &stage.kids.items[..stage.kids.len] {
        let table = tables[usize::from(kid.group)]
            .as_mut()
            .expect("created when the child was found");
        for (d, &n) in table.lanes[kid.at as usize..].iter_mut().zip(stage.lanes) {
            steps.add_moved(d, n, u32::from(kid.sym));
        }
    }
}

/// The boards of one group and their lanes, in insertion order, with an
/// open-addressing index (linear probing, at most half full).
struct Table<L> {
    /// 0 for a free slot, else the entry's index above the board.
    slots: Vec<u64>,
    boards: Vec<u32>,
    /// `width` lanes per board.
    lanes: Vec<L>,
    width: usize,
    shift: u32,
}

impl<L: Lane> Table<L> {
    /// An empty table, reusing the buffers of a finished one if any.
    fn new(width: usize, pool: &mut Vec<Table<L>>) -> Table<L> {
        const SLOTS: usize = 16;
        let mut t = pool.pop().unwrap_or_else(|| Table {
            slots: Vec::new(),
            boards: Vec::new(),
            lanes: Vec::new(),
            width,
            shift: 0,
        });
        t.slots.clear();
        t.slots.resize(SLOTS, 0);
        t.boards.clear();
        t.lanes.clear();
        t.width = width;
        t.shift = 64 - SLOTS.trailing_zeros();
        t
    }

    /// Every board with its lanes.
    fn entries(&self) -> impl Iterator<Item = (u32, &[L])> {
        self.boards
            .iter()
            .copied()
            .zip(self.lanes.chunks_exact(self.width))
    }

    #[inline(always)]
    fn home(&self, board: u32) -> usize {
        (u64::from(board).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Starts loading the slot `board` hashes to.
    #[inline(always)]
    fn prefetch(&self, board: u32) {
        prefetch(&self.slots[self.home(board)]);
    }

    /// The entry of `board`, added with zero lanes if new.
    #[inline(always)]
    fn entry(&mut self, board: u32) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = self.home(board);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                let entry = self.boards.len() as u32;
                self.slots[i] = u64::from(entry + 1) << 32 | u64::from(board);
                self.boards.push(board);
                self.lanes
                    .resize(self.lanes.len() + self.width, L::default());
                if 2 * self.boards.len() > self.slots.len() {
                    self.grow();
                }
                return entry;
            }
            if slot as u32 == board {
                return (slot >> 32) as u32 - 1;
            }
            i = (i + 1) & mask;
        }
    }

    /// The lanes of an entry.
    #[inline(always)]
    fn lanes_at(&mut self, entry: u32) -> &mut [L] {
        let start = entry as usize * self.width;
        &mut self.lanes[start..start + self.width]
    }

    /// Starts loading the lane at `at` (entry times width plus lane), the
    /// first a parent adds to.
    #[inline(always)]
    fn prefetch_lane(&self, at: u32) {
        if let Some(lane) = self.lanes.get(at as usize) {
            prefetch(lane);
        }
    }

    /// Doubles the index; the entries stay where they are.
    fn grow(&mut self) {
        let slots = 2 * self.slots.len();
        self.slots.clear();
        self.slots.resize(slots, 0);
        self.shift = 64 - slots.trailing_zeros();
        let mask = slots - 1;
        for (index, &board) in self.boards.iter().enumerate() {
            let mut i = self.home(board);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (index as u64 + 1) << 32 | u64::from(board);
        }
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
        let w = Window::of(5, 2, 10, 5, 2).unwrap();
        assert_eq!((w.first, w.width), (0, 1));
        // Two placements and one capture removing 2 dice net: depth 3..=4.
        let w = Window::of(5, 2, 10, 7, 2).unwrap();
        assert_eq!((w.first, w.width), (3, 2));
        assert!(
            Window::of(5, 2, 2, 7, 2).is_none(),
            "3 moves do not fit in 2"
        );
        assert!(
            Window::of(5, 2, 10, 4, 2).is_none(),
            "the dice sum never drops"
        );
    }

    /// [`swept`] with the portable steps, which it takes only on a CPU
    /// without AVX2.
    fn portable(root: u32, depth: u32) -> u32 {
        if stabiliser(root).len() == 8 {
            sweep(root, depth, &Full::new(), &Portable)
        } else {
            sweep(root, depth, &Orbit, &Portable)
        }
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
            assert_eq!(
                portable(pack(board), depth),
                want,
                "portable {depth} {board}"
            );
            let mut budget = TINY_TREE;
            if let Some(sum) = walk(pack(board), depth, &mut budget) {
                assert_eq!(sum & ANSWER_MASK, want, "walk {depth} {board}");
                walked += 1;
            }
            assert_eq!(Front.solve(depth, board), want, "{depth} {board}");
        }
        assert!(walked > 20, "the walk answered only {walked} searches");
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
                    assert_eq!(
                        portable(pack(board), depth),
                        want,
                        "portable {depth} {text}"
                    );
                }
            }
        }
        orders.sort_unstable();
        orders.dedup();
        assert_eq!(orders, [2, 4, 8], "every proper stabiliser size is covered");
    }
}
