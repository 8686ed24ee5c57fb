//! The spec's vectors, the geometry, the text formats, and every variant
//! against the naive oracle (full board, partial boards, limits).

use bitbench_meteor::geometry::{self, CELLS, ORIENTATIONS, PIECES};
use bitbench_meteor::inputs::{self, ALL};
use bitbench_meteor::{PartialBoard, Puzzle, Solution, Solutions, Solver, variants};
use proptest::prelude::*;

const SMALLEST: &str = "00001222012661126155865558633348893448934747977799";
const LARGEST: &str = "99998966856688568255777257472014220144031400311333";

/// The spec's reference output (254 bytes, md5 9a65bb4b0a735ace1eaa4f2628f01026).
const BENCHMARK_TEXT: &str = include_str!("data/benchmark.txt");

/// Every available variant, built once for all tests (the tables take a
/// moment to build).
fn solvers() -> &'static [(&'static str, Box<dyn Solver>)] {
    static SOLVERS: std::sync::OnceLock<Vec<(&'static str, Box<dyn Solver>)>> =
        std::sync::OnceLock::new();
    SOLVERS.get_or_init(|| {
        variants()
            .into_iter()
            .filter_map(|v| Some((v.name, (v.make)()?)))
            .collect()
    })
}

fn oracle() -> &'static dyn Solver {
    let (name, solver) = &solvers()[0];
    assert_eq!(*name, "naive", "the oracle comes first");
    solver.as_ref()
}

/// What every variant must agree on: count, smallest and largest.
fn answer(s: &Solutions) -> String {
    s.to_string()
}

#[test]
fn registry_lists_the_spec_variants_oracle_first() {
    let names: Vec<_> = variants().iter().map(|v| v.name).collect();
    assert_eq!(
        names,
        [
            "naive",
            "bitmask",
            "islands",
            "symmetric",
            "endgame",
            "parallel"
        ]
    );
    assert!(
        variants()
            .iter()
            .all(|v| v.features.is_empty() && (v.make)().is_some())
    );
}

#[test]
fn every_piece_has_twelve_distinct_orientations() {
    for piece in 0..PIECES {
        let shapes = geometry::orientations(piece);
        for (i, a) in shapes.iter().enumerate() {
            assert_eq!(
                a.offsets[0],
                (0, 0),
                "piece {piece} orientation {i} starts at its anchor"
            );
            for b in &shapes[i + 1..] {
                assert_ne!(a, b, "piece {piece} repeats an orientation");
            }
        }
        // Turning by 180° twice is the identity, and maps onto the listed twin.
        for o in 0..ORIENTATIONS {
            assert_eq!(geometry::rotated_180(geometry::rotated_180(o)), o);
            let turned = shapes[geometry::rotated_180(o)];
            let cells = shapes[o]
                .place(0)
                .or_else(|| (0..CELLS).find_map(|a| shapes[o].place(a)));
            let cells = cells.expect("every orientation fits somewhere");
            let mut back: Vec<usize> = cells
                .iter()
                .map(|&c| geometry::rotate_cell(c as usize))
                .collect();
            back.sort();
            assert_eq!(
                turned.place(back[0]).map(|c| c.map(usize::from).to_vec()),
                Some(back)
            );
        }
    }
}

#[test]
fn the_empty_board_has_2596_placements() {
    let all = geometry::placements();
    assert_eq!(all.len(), 2596);
    // No placement is listed twice.
    let mut masks: Vec<_> = all.iter().map(|p| (p.piece, p.mask())).collect();
    masks.sort();
    masks.dedup();
    assert_eq!(masks.len(), 2596);
}

#[test]
fn neighbours_are_symmetric_and_match_the_spec() {
    for cell in 0..CELLS {
        for n in geometry::neighbours(cell) {
            assert!(geometry::neighbours(n).any(|m| m == cell), "{cell} and {n}");
        }
    }
    let sorted = |c: usize| {
        let mut v: Vec<_> = geometry::neighbours(c).collect();
        v.sort();
        v
    };
    // Even row 2, col 2 (cell 12): NW 6, NE 7, W 11, E 13, SW 16, SE 17.
    assert_eq!(sorted(12), [6, 7, 11, 13, 16, 17]);
    // Odd row 1, col 2 (cell 7): NW 2, NE 3, W 6, E 8, SW 12, SE 13.
    assert_eq!(sorted(7), [2, 3, 6, 8, 12, 13]);
    assert_eq!(sorted(0), [1, 5]);
}

#[test]
fn every_variant_prints_the_reference_output() {
    for (name, solver) in solvers() {
        let found = solver.solve(&PartialBoard::empty(), ALL);
        assert_eq!(found.benchmark_text(), BENCHMARK_TEXT, "{name}");
        assert_eq!(found.benchmark_text().len(), 254, "{name}");
        assert_eq!(
            found.to_string(),
            format!("2098 {SMALLEST} {LARGEST}"),
            "{name}"
        );
    }
}

#[test]
fn search_nodes_are_the_same_tree_where_they_should_be() {
    let empty = PartialBoard::empty();
    let nodes = |name: &str| {
        let v = variants()
            .into_iter()
            .find(|v| v.name == name)
            .expect("listed");
        (v.make)()
            .expect("available")
            .solve(&empty, usize::MAX)
            .nodes
    };
    // bitmask walks the oracle's tree.
    assert_eq!(nodes("naive"), nodes("bitmask"));
    // Pruning prunes, and the endgame cache saves most of what is left.
    assert!(nodes("islands") < nodes("bitmask") && nodes("symmetric") < nodes("islands"));
    assert!(nodes("endgame") * 2 < nodes("symmetric"));
    // parallel walks endgame's tree; its threads share the cache, but two
    // may work out the same region at once.
    let (endgame, parallel) = (nodes("endgame"), nodes("parallel"));
    assert!(
        endgame <= parallel && parallel < nodes("symmetric"),
        "{endgame} vs {parallel}"
    );
}

#[test]
fn solutions_parse_and_turn() {
    let min: Solution = SMALLEST.parse().expect("the smallest solution is a board");
    let max: Solution = LARGEST.parse().expect("the largest solution is a board");
    assert!(min < max);
    assert_eq!(min.to_string(), SMALLEST);
    assert_eq!(min.rotated().rotated(), min);
    // Its 180° turn is a valid solution too (parsing checks every piece).
    assert!(min.rotated().to_string().parse::<Solution>().is_ok());
}

#[test]
fn parse_errors_are_one_line_and_name_the_problem() {
    let bad = [
        ("0000", "50 cells"),
        (&"x".repeat(50)[..], "unknown character 'x'"),
        // Piece 0 with a fifth cell far away.
        (
            &format!("0000.{}0", ".".repeat(44))[..],
            "not a placement of that piece",
        ),
        // No piece is a straight line.
        (
            &format!("11111{}", ".".repeat(45))[..],
            "the cells of piece 1 are not a placement",
        ),
        (
            &format!("0000{}", ".".repeat(46))[..],
            "piece 0 covers 4 cells",
        ),
        (
            &format!("000000{}", ".".repeat(44))[..],
            "piece 0 covers 6 cells",
        ),
    ];
    for (input, problem) in bad {
        let err = input.parse::<PartialBoard>().expect_err(input).to_string();
        assert!(err.contains(problem), "{err:?} should mention {problem:?}");
        assert!(!err.contains('\n'), "{err:?} is one line");
    }
    // A piece in another piece's shape is not a placement of that piece.
    let piece0_as_1 = SMALLEST
        .replace('0', "x")
        .replace('1', "0")
        .replace('x', "1");
    let err = piece0_as_1
        .parse::<PartialBoard>()
        .expect_err("pieces 0 and 1 differ")
        .to_string();
    assert!(err.contains("not a placement"), "{err}");
    for input in [
        "",
        "x",
        "-1",
        "5 ..",
        "5 . extra",
        &format!("3 {SMALLEST} more"),
    ] {
        let err = input.parse::<Puzzle>().expect_err(input).to_string();
        assert!(!err.contains('\n'), "{err:?}");
    }
    let long = "9".repeat(10_000);
    assert!(
        long.parse::<PartialBoard>()
            .expect_err("too long")
            .to_string()
            .len()
            < 200
    );
}

#[test]
fn puzzles_round_trip() {
    for text in [
        "2098",
        "0",
        &format!("1 {SMALLEST}"),
        &format!("7 {}", inputs::partial(3, 9, 1)[0].board),
    ] {
        let puzzle: Puzzle = text.parse().expect(text);
        assert_eq!(puzzle.to_string(), text);
    }
    let full: Puzzle = "2098".parse().expect("plain N");
    assert_eq!(full, inputs::full());
}

#[test]
fn edge_cases_agree_with_the_oracle() {
    let oracle = oracle();
    let mut exhaustive = std::collections::HashMap::new();
    for (case, puzzle) in inputs::edge_cases() {
        let want = *exhaustive
            .entry(puzzle.board)
            .or_insert_with(|| oracle.solve(&puzzle.board, usize::MAX));
        for (name, solver) in solvers() {
            let got = solver.solve(&puzzle.board, puzzle.limit);
            check_limit(&want, &got, puzzle.limit, &format!("{case}/{name}"));
        }
    }
    let cases: std::collections::HashMap<_, _> = inputs::edge_cases().into_iter().collect();
    let solved = oracle.solve(&cases["solved"].board, ALL);
    assert_eq!((solved.count, solved.nodes), (1, 1));
    assert_eq!(
        oracle
            .solve(&cases["corner-cut-off"].board, ALL)
            .to_string(),
        "0 - -"
    );
    assert!(oracle.solve(&cases["one-missing"].board, ALL).count >= 1);
}

/// `got` found with `limit` is consistent with the exhaustive `want`.
fn check_limit(want: &Solutions, got: &Solutions, limit: usize, what: &str) {
    if limit > want.count {
        assert_eq!(
            answer(got),
            answer(want),
            "{what}: an exhaustive search finds everything"
        );
        return;
    }
    assert!(
        got.count >= limit && got.count <= want.count,
        "{what}: {} found, limit {limit}",
        got.count
    );
    if limit == 0 {
        assert_eq!(
            (got.count, got.nodes),
            (0, 0),
            "{what}: limit 0 searches nothing"
        );
        return;
    }
    let (min, max) = (got.min.expect(what), got.max.expect(what));
    assert!(
        want.min.expect(what) <= min && min <= max && max <= want.max.expect(what),
        "{what}"
    );
    if got.count < limit {
        assert_eq!(
            answer(got),
            answer(want),
            "{what}: count below the limit means exhaustive"
        );
    }
}

#[test]
fn limits_mean_at_least_n_found() {
    let oracle = oracle();
    let empty = PartialBoard::empty();
    let all = oracle.solve(&empty, usize::MAX);
    assert_eq!(all.count, ALL);
    for limit in [0, 1, 2, 3, 100, 2097, 2098, 2099] {
        for (name, solver) in solvers() {
            if *name == "naive" && limit > 3 {
                continue; // already covered by `all`; keeps the test fast
            }
            let got = solver.solve(&empty, limit);
            check_limit(&all, &got, limit, &format!("{name} limit {limit}"));
        }
    }
    // Found in pairs: the symmetric search may pass the limit by one.
    let symmetric = variants()
        .into_iter()
        .find(|v| v.name == "symmetric")
        .and_then(|v| (v.make)());
    assert_eq!(symmetric.expect("available").solve(&empty, 1).count, 2);
}

/// Boards with one piece are the partial boards the endgame cache searches
/// (with more pieces it stands aside): every fast variant agrees with the
/// island search on them, completable or not.
#[test]
fn one_piece_boards_agree_across_variants() {
    let islands = bitbench_meteor::Islands::new();
    let boards = (0..6).flat_map(|seed| {
        [
            inputs::partial(1, seed, 1)[0].board,
            inputs::scattered(1, seed, 1)[0].board,
        ]
    });
    for board in boards {
        let want = islands.solve(&board, usize::MAX);
        for (name, solver) in solvers().iter().skip(1) {
            assert_eq!(
                answer(&solver.solve(&board, ALL)),
                answer(&want),
                "{name} on {board}"
            );
        }
    }
}

#[test]
fn partial_inputs_are_deterministic_and_completable() {
    assert_eq!(inputs::partial(3, 5, 4), inputs::partial(3, 5, 4));
    assert_ne!(inputs::partial(3, 5, 1), inputs::partial(3, 6, 1));
    let islands = bitbench_meteor::Islands::new();
    for k in 0..=PIECES {
        for puzzle in inputs::partial(k, k as u64, 3) {
            assert_eq!(puzzle.board.pieces().len(), k);
            assert!(islands.solve(&puzzle.board, ALL).count >= 1, "{puzzle}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random partial boards, completable or not: every variant finds the
    /// oracle's count, smallest and largest solution.
    #[test]
    fn every_variant_equals_the_oracle(k in 2usize..=9, seed in any::<u64>(), completable in any::<bool>()) {
        let board = if completable { inputs::partial(k, seed, 1)[0].board } else { inputs::scattered(k, seed, 1)[0].board };
        let want = oracle().solve(&board, ALL);
        for (name, solver) in solvers().iter().skip(1) {
            let got = solver.solve(&board, ALL);
            prop_assert_eq!(answer(&got), answer(&want), "{} on {}", name, board);
        }
    }

    /// With a limit, every variant stops with a consistent subset.
    #[test]
    fn limits_on_partial_boards(k in 1usize..=4, seed in any::<u64>(), limit in 0usize..6) {
        let board = inputs::partial(k, seed, 1)[0].board;
        let want = bitbench_meteor::Islands::new().solve(&board, usize::MAX);
        for (name, solver) in solvers().iter().skip(1) {
            check_limit(&want, &solver.solve(&board, limit), limit, &format!("{name} on {board}"));
        }
    }
}
