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
//! added to one child at a time (`expand`). Each entry keeps only the lanes
//! that received paths (see `table`). The tables' memory is kept between
//! solves on a thread (`spare`), so a solve does not fault in fresh pages
//! as its tables grow.
//!
//! This module picks the walk or the sweep, the merge and the widest
//! vectors the CPU has; the sweep's stages are the modules below it:
//! `groups` (the `(r, k)` groups and their depth windows), `sweep` (the
//! order of the groups), `targets` (the tables a group's children go to),
//! `expand` (one group's boards, in batches), `steps` (the per-child steps
//! in scalar or vector instructions), `table`, `spare`, and `merge` with
//! its two kinds, `orient` and `stabiliser`.

use crate::packed::{MAX_GAME, hash, is_full, pack};
#[cfg(target_arch = "x86_64")]
use crate::vector::{Avx2, Avx512};
use crate::{ANSWER_MASK, Board, Solver, swarmoves};

mod expand;
mod groups;
mod merge;
mod orient;
mod spare;
mod stabiliser;
mod steps;
mod sweep;
mod table;
mod targets;

use groups::{likely_free, rank_and_count};
use merge::Merge;
use orient::Orbit;
use stabiliser::{Full, stabiliser};
use steps::Portable;
#[cfg(target_arch = "x86_64")]
use steps::Vectors;
use sweep::sweep;

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

/// [`sweep()`] with orbit totals when every symmetry fixes `root`, counts per
/// orientation otherwise.
fn merged<const FREE: bool>(root: u32, depth: u32) -> Option<u32> {
    if stabiliser(root).len() == 8 {
        fastest::<_, FREE>(root, depth, &Full::new())
    } else {
        fastest::<_, FREE>(root, depth, &Orbit)
    }
}

/// [`sweep()`] with the widest vectors the CPU has.
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

/// [`sweep()`] compiled for AVX2 throughout.
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

/// [`sweep()`] compiled for AVX-512 throughout.
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

#[cfg(test)]
mod tests {
    use super::groups::Window;
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
