//! The spec's vectors for every variant: the 12 official tests, the empty
//! board at depths 1..=40, the small cases, edge cases, and the agreement
//! and symmetry properties.

use bitbench_cephalopod::{Board, Problem, Solver, inputs, path_count, variants};
use proptest::prelude::*;

/// The oracle is exponential: it only runs where it has at most this many
/// paths (a few tens of milliseconds in release).
const NAIVE_PATHS: u64 = 3_000_000;

/// The official tests' expected answers, in `inputs::official()` order.
const OFFICIAL: [u32; 12] = [
    322444322, 951223336, 36379286, 264239762, 76092874, 661168294, 350917228, 999653138,
    521112022, 667094338, 738691369, 808014757,
];

/// The empty board at depths 1..=40.
const EMPTY: [u32; 40] = [
    111111111, 704035952, 840352818, 600875666, 50441886, 680243700, 597686656, 584450980,
    55305380, 193520836, 521847116, 1054388152, 518795448, 366207036, 678967952, 476916052,
    1009258340, 592651828, 1063467872, 400415524, 233248832, 230461008, 245411624, 899694236,
    384163740, 888060600, 347933640, 340717612, 73295296, 851289228, 221286388, 375032784,
    723342020, 92414440, 745533092, 331519112, 993643868, 72093236, 422667876, 503115192,
];

fn solvers() -> Vec<(&'static str, Box<dyn Solver>)> {
    variants()
        .into_iter()
        .filter_map(|v| {
            let solver = (v.make)();
            if solver.is_none() {
                let needs = v.features.join(", ");
                eprintln!(
                    "skipped: variant {} needs {needs}, which this CPU lacks",
                    v.name
                );
            }
            Some((v.name, solver?))
        })
        .collect()
}

/// Whether `name` should run `p` within the test budget: the oracle by
/// its path count, the variants without symmetry not on the deepest empty
/// boards (seconds each), the rest always.
fn affordable(name: &str, p: &Problem) -> bool {
    match name {
        "naive" => path_count(p.depth, p.board, NAIVE_PATHS).is_some(),
        "memo" | "bfs" => p.board != Board::EMPTY || p.depth <= 24,
        "swar" => p.board != Board::EMPTY || p.depth <= 32,
        _ => true,
    }
}

#[test]
fn official_tests() {
    let problems = inputs::official();
    for (name, solver) in solvers() {
        let mut ran = 0;
        for (p, &want) in problems.iter().zip(&OFFICIAL) {
            if affordable(name, p) {
                assert_eq!(solver.solve(p.depth, p.board), want, "{name} on {p}");
                ran += 1;
            }
        }
        assert!(ran >= 4, "{name} ran only {ran} official tests");
    }
}

#[test]
fn empty_board_depths_1_to_40() {
    let solvers = solvers();
    let full_range = solvers
        .iter()
        .filter(|(name, _)| affordable(name, &inputs::empty(40)));
    assert!(
        full_range.count() >= 2,
        "at least sym and range reach depth 40"
    );
    for (name, solver) in solvers {
        for (d, &want) in (1..).zip(&EMPTY) {
            let p = inputs::empty(d);
            if affordable(name, &p) {
                assert_eq!(solver.solve(d, Board::EMPTY), want, "{name} on {p}");
            }
        }
    }
}

#[test]
fn small_cases() {
    let cases = [
        ("1 000/000/000", 111111111),
        ("1 666/666/660", 666666661),
        ("1 666/666/101", 666666020),
        ("1 666/656/101", 926126417),
    ];
    for (name, solver) in solvers() {
        for (text, want) in cases {
            let p: Problem = text.parse().unwrap();
            assert_eq!(solver.solve(p.depth, p.board), want, "{name} on {text}");
        }
    }
}

#[test]
fn edge_cases_agree_with_the_oracle() {
    let solvers = solvers();
    let oracle = &solvers[0].1;
    for (what, p) in inputs::edge_cases() {
        assert!(
            path_count(p.depth, p.board, NAIVE_PATHS).is_some(),
            "{what} is cheap"
        );
        let want = oracle.solve(p.depth, p.board);
        for (name, solver) in &solvers {
            assert_eq!(
                solver.solve(p.depth, p.board),
                want,
                "{name} on {what}: {p}"
            );
        }
    }
    // Depth 0 and full boards answer the board's own hash.
    let p: Problem = "0 123/456/012".parse().unwrap();
    assert_eq!(oracle.solve(p.depth, p.board), 123_456_012);
    let p: Problem = "9 123/456/123".parse().unwrap();
    assert_eq!(oracle.solve(p.depth, p.board), 123_456_123);
}

#[test]
fn rank_sweep_agrees_on_small_depths() {
    let solvers = solvers();
    for r in (0..=18).step_by(3) {
        for p in inputs::rank(r, 6, 1, 3) {
            let want = solvers[0].1.solve(p.depth, p.board);
            for (name, solver) in &solvers[1..] {
                assert_eq!(solver.solve(p.depth, p.board), want, "{name} on {p}");
            }
        }
    }
}

#[test]
fn path_count_counts_paths() {
    // Depth 1 from empty: one placement per cell.
    assert_eq!(path_count(1, Board::EMPTY, u64::MAX), Some(9));
    assert_eq!(path_count(2, Board::EMPTY, u64::MAX), Some(72));
    assert_eq!(path_count(2, Board::EMPTY, 71), None);
    // A full board is one path of length 0.
    let full: Board = "123/456/123".parse().unwrap();
    assert_eq!(path_count(30, full, 1), Some(1));
    assert_eq!(path_count(0, Board::EMPTY, 1), Some(1));
}

/// Row-major cell permutations of the 8 symmetries of the square: cell `i`
/// of the image is cell `perm[i]` of the board.
fn symmetries() -> Vec<[usize; 9]> {
    let turn: [usize; 9] = std::array::from_fn(|i| (2 - i % 3) * 3 + i / 3);
    let mirror: [usize; 9] = std::array::from_fn(|i| (i % 3) * 3 + i / 3);
    let compose =
        |a: &[usize; 9], b: &[usize; 9]| -> [usize; 9] { std::array::from_fn(|i| b[a[i]]) };
    let mut out = vec![std::array::from_fn(|i| i)];
    for _ in 0..3 {
        let last = *out.last().unwrap();
        out.push(compose(&turn, &last));
    }
    for i in 0..4 {
        out.push(compose(&out[i], &mirror));
    }
    out
}

fn board_strategy() -> impl Strategy<Value = Board> {
    // Empty cells are common in real positions: weight 0 like the 6 dice.
    proptest::array::uniform9(prop_oneof![2 => Just(0u8), 6 => 1u8..=6])
        .prop_map(|cells| Board::from_cells(cells).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_variant_equals_the_oracle(board in board_strategy(), depth in 0u32..=14) {
        // Shrink the depth until the oracle can afford it.
        let depth = (0..=depth).rev()
            .find(|&d| path_count(d, board, 200_000).is_some())
            .unwrap();
        let solvers = solvers();
        let want = solvers[0].1.solve(depth, board);
        for (name, solver) in &solvers[1..] {
            prop_assert_eq!(solver.solve(depth, board), want, "{} on {} {}", name, depth, board);
        }
    }

    #[test]
    fn cell_sums_follow_every_symmetry(board in board_strategy(), depth in 0u32..=12) {
        let sym = bitbench_cephalopod::sym::Sym;
        let sums = sym.cell_sums(depth, board);
        let weights = [100_000_000u32, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];
        let hash = sums.iter().zip(weights).fold(0u32, |h, (&s, w)| h.wrapping_add(s.wrapping_mul(w)));
        prop_assert_eq!(hash & ((1 << 30) - 1), sym.solve(depth, board));
        let simd = bitbench_cephalopod::simd::Simd::new();
        for perm in symmetries() {
            let image = board.permuted(&perm);
            let image_sums = sym.cell_sums(depth, image);
            let want: [u32; 9] = std::array::from_fn(|i| sums[perm[i]]);
            prop_assert_eq!(image_sums, want, "{} {} under {:?}", depth, board, perm);
            if let Some(simd) = &simd {
                prop_assert_eq!(simd.cell_sums(depth, image), want);
            }
        }
    }
}

#[test]
fn symmetries_are_the_dihedral_group() {
    let mut all = symmetries();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 8);
}
