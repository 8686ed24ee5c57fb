//! The spec's vectors: perft table, OEIS A212693, Kaggle's 5x4k3 game, the
//! cell-to-bit mapping, text formats and input errors.

use std::collections::HashSet;

use bitbench_connectx::{
    Config, MoveError, PerftInput, Position, inputs, kaggle, perft_variants, variants,
};

/// Says that a variant's checks were skipped: this CPU lacks its features.
fn skipped(name: &str, features: &[&str]) {
    let needs = features.join(", ");
    eprintln!("skipped: variant {name} needs {needs}, which this CPU lacks");
}

fn standard() -> Config {
    Config::STANDARD
}

/// perft(d) for 7×6 K=4 from the empty board, d = 0..=10 (the spec's table).
const PERFT_7X6: [u64; 11] = [
    1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572, 268031646,
];

/// The deepest default-run check per variant, so the whole test stays
/// within seconds in release: the list oracle runs at about 30 ns a node
/// (depth 8: 0.2 s), plain bitboards at about 4-13 (depth 9), the
/// threat-mask search at about 1 (depth 10: 268M nodes in a few tenths).
fn max_default_depth(name: &str) -> u32 {
    match name {
        "list" => 8,
        "bitboard-threats" => 10,
        _ => 9,
    }
}

#[test]
fn perft_table_7x6_from_empty() {
    let empty = Position::empty(standard());
    for v in perft_variants() {
        let Some(kernel) = (v.make)() else {
            skipped(v.name, v.features);
            continue;
        };
        for depth in 0..=max_default_depth(v.name) {
            assert_eq!(
                kernel.perft(&empty, depth),
                PERFT_7X6[depth as usize],
                "{} perft({depth})",
                v.name
            );
        }
    }
}

#[test]
#[ignore = "slow: perft(10) is 268M nodes (seconds per variant); run with --ignored"]
fn perft_7x6_depth_10() {
    let empty = Position::empty(standard());
    for v in perft_variants() {
        let kernel = (v.make)().expect("portable variant");
        assert_eq!(kernel.perft(&empty, 10), PERFT_7X6[10], "{}", v.name);
    }
}

/// A212693: distinct 7×6 positions after n plies, games stopping at a win.
const A212693: [usize; 11] = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623,
];

#[test]
fn distinct_positions_match_oeis_a212693() {
    // Breadth first, one hash set per ply: transpositions collapse.
    let mut layer: HashSet<Position> = HashSet::from([Position::empty(standard())]);
    for (n, &expected) in A212693.iter().enumerate() {
        assert_eq!(layer.len(), expected, "distinct positions after {n} plies");
        if n + 1 == A212693.len() {
            break;
        }
        layer = layer
            .iter()
            .filter(|p| !p.is_over())
            .flat_map(|p| {
                p.legal_moves()
                    .into_iter()
                    .map(move |c| p.play(c).expect("legal"))
            })
            .collect();
    }
}

#[test]
fn kaggle_5x4k3_alternating_columns_player_1_wins_on_move_5() {
    let config: Config = "5x4k3".parse().unwrap();
    let moves = [1, 2, 1, 2, 1]; // 0-based, as Kaggle's actions
    let mut board = vec![0u8; config.cells()];
    for (i, &column) in moves.iter().enumerate() {
        let mark = 1 + (i % 2) as u8;
        let row = kaggle::play(&mut board, config, column, mark).expect("room in the column");
        let won = kaggle::is_win(&board, config, row, column, mark);
        assert_eq!(won, i == 4, "Kaggle's is_win after move {}", i + 1);
        let position = Position::from_moves(config, &moves[..=i]).unwrap();
        assert_eq!(position.to_kaggle_list(), board);
        for v in variants() {
            let Some(kernel) = (v.make)() else {
                skipped(v.name, v.features);
                continue;
            };
            assert_eq!(
                kernel.winner(&position),
                if i == 4 { 1 } else { 0 },
                "{}",
                v.name
            );
        }
    }
    let err = "5x4k3:232323".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("player 1 won"), "{err}");
}

#[test]
fn kaggle_cell_maps_to_the_spec_bit() {
    // Every cell gets exactly the bit col*(H+1) + (H-1-row), on boards of
    // both word sizes: fill the board column by column and compare.
    for config in inputs::configs()
        .into_iter()
        .chain(["64x1k4".parse().unwrap()])
    {
        let (w, h) = (config.columns(), config.rows());
        for c in 0..w {
            for r in 0..h {
                assert_eq!(config.bit_index(r, c) as usize, c * (h + 1) + (h - 1 - r));
            }
            // The first stone in column c lands in the bottom row: Kaggle
            // index c + (H-1)*W, bit c*(H+1).
            let one = Position::from_moves(config, &[c]).unwrap();
            let list = one.to_kaggle_list();
            assert_eq!(list.iter().position(|&v| v != 0), Some(c + (h - 1) * w));
            let [p1, p2] = one.stones::<u128>();
            assert_eq!((p1, p2), (1u128 << (c * (h + 1)), 0));
        }
    }
}

#[test]
fn kaggle_list_round_trips() {
    for config in inputs::configs() {
        for position in inputs::random(config, config.cells(), 7, 50) {
            let list = position.to_kaggle_list();
            assert_eq!(Position::from_kaggle_list(config, &list), Ok(position));
        }
    }
}

#[test]
fn kaggle_list_rejects_unreachable_boards() {
    let config: Config = "5x4k3".parse().unwrap();
    let mut floating = vec![0u8; 20];
    floating[0] = 1; // top-left, nothing below
    let mut counts = vec![0u8; 20];
    counts[15] = 2; // player 2 moved first
    // Player 1 has three in a row, player 2 has three in a column: the game
    // would have stopped at the first.
    let mut both_won = vec![0u8; 20];
    for c in 0..3 {
        both_won[15 + c] = 1;
    }
    for r in 1..4 {
        both_won[4 + r * 5] = 2;
    }
    for board in [floating, counts, both_won, vec![3; 20], vec![0; 19]] {
        let err = Position::from_kaggle_list(config, &board).unwrap_err();
        assert!(!err.to_string().contains('\n'));
    }
}

#[test]
fn text_round_trips() {
    for config in inputs::configs() {
        for position in inputs::random(config, 30, 11, 30) {
            let text = position.to_string();
            assert_eq!(text.parse::<Position>(), Ok(position), "{text}");
            let query = PerftInput { position, depth: 3 };
            assert_eq!(query.to_string().parse::<PerftInput>(), Ok(query));
        }
    }
    assert_eq!(
        "7x6k4:".parse::<Position>().unwrap(),
        Position::empty(standard())
    );
    assert_eq!(Position::empty(standard()).to_string(), "7x6k4:");
    let wide: Position = "10x10k5:10,1,10".parse().unwrap();
    assert_eq!(wide.to_string(), "10x10k5:10,1,10");
    let query: PerftInput = "7x6k4: 8".parse().unwrap();
    assert_eq!(
        (query.position, query.depth),
        (Position::empty(standard()), 8)
    );
}

#[test]
fn bad_inputs_are_one_line_errors() {
    let cases = [
        ("7x6k4:8", "not a column"),
        ("7x6k4:0", "not a column"),
        ("7x6k4:4a", "not a column"),
        ("7x6k4:1111111", "column 1 is full"),
        ("7x6k4:12121212", "player 1 won"),
        ("7x6k8:", "impossible"),
        ("7x6k0:", "impossible"),
        ("20x6k4:", "more than 128"),
        ("7x6:", "configuration like"),
        ("7x6k4", "WxHkK:MOVES"),
        ("10x10k5:11", "not a column"),
        ("seven", "WxHkK:MOVES"),
    ];
    for (input, needle) in cases {
        let err = input.parse::<Position>().unwrap_err().to_string();
        assert!(err.contains(needle), "{input}: {err}");
        assert!(err.contains(input), "{input}: {err}");
        assert!(!err.contains('\n'));
    }
    for input in ["7x6k4:", "7x6k4: x", "7x6k4:9 3"] {
        assert!(input.parse::<PerftInput>().is_err(), "{input}");
    }
    let full = Position::from_moves(standard(), &[0; 6]).unwrap();
    assert_eq!(full.play(0), Err(MoveError::ColumnFull(0)));
    assert_eq!(full.play(7), Err(MoveError::OutOfRange(7)));
}

#[test]
fn edge_cases_have_the_expected_winner() {
    let expected = |name: &str| match name {
        n if n.contains("player 2") => 2,
        n if n.contains("win") => 1,
        _ => 0,
    };
    for (name, position) in inputs::edge_cases() {
        for v in variants() {
            let Some(kernel) = (v.make)() else {
                skipped(v.name, v.features);
                continue;
            };
            assert_eq!(
                kernel.winner(&position),
                expected(name),
                "{} on {name}",
                v.name
            );
        }
    }
}

#[test]
fn terminal_positions_have_no_perft_moves() {
    for (name, position) in inputs::edge_cases() {
        if !position.is_over() {
            continue;
        }
        for v in perft_variants() {
            let kernel = (v.make)().expect("portable variant");
            assert_eq!(kernel.perft(&position, 0), 1, "{} on {name}", v.name);
            assert_eq!(kernel.perft(&position, 2), 0, "{} on {name}", v.name);
        }
    }
}

#[test]
fn registries_list_the_oracle_first() {
    assert_eq!(variants()[0].name, "kaggle-list");
    assert_eq!(perft_variants()[0].name, "list");
    let names: HashSet<_> = variants().iter().map(|v| v.name).collect();
    assert_eq!(names.len(), variants().len());
}

/// A single column as tall as the word (1×63 on u64, 1×127 on u128) is a
/// legal configuration: moves land, the column fills, and K in a column wins.
#[test]
fn single_full_word_columns_accept_moves() {
    for (config, height) in [("1x63k5", 63usize), ("1x127k2", 127)] {
        let one = format!("{config}:1").parse::<Position>().unwrap();
        assert_eq!(one.plies(), 1, "{config}");
        let perft = perft_variants()[0].make;
        let oracle = perft().unwrap();
        // Alternating stones in one column never align vertically for K >= 2,
        // so every ply up to a full column is a leaf of its own depth.
        assert_eq!(
            oracle.perft(&Position::empty(one.config()), 1),
            1,
            "{config}"
        );
        let full = format!("{config}:{}", "1".repeat(height)).parse::<Position>();
        assert!(full.is_ok(), "{config}: {full:?}");
        let over = format!("{config}:{}", "1".repeat(height + 1)).parse::<Position>();
        assert!(over.is_err(), "{config}");
    }
}
