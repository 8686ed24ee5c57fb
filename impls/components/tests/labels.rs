//! Correctness of every variant: the spec's vectors with hand-written answers, parse errors,
//! a proptest against the oracle, and an independent cross-check with petgraph's union-find.

use bitbench_components::{
    Board, Components, Labeler, Variant, groups4_variants, inputs, variants,
};
use petgraph::unionfind::UnionFind;
use proptest::prelude::*;

/// Every variant this CPU can run, built once; the others are named on
/// stderr as skipped.
fn available(list: Vec<Variant>) -> Vec<(&'static str, Box<dyn Labeler>)> {
    list.into_iter()
        .filter_map(|v| {
            let labeler = (v.make)();
            if labeler.is_none() {
                let needs = v.features.join(", ");
                eprintln!(
                    "skipped: variant {} needs {needs}, which this CPU lacks",
                    v.name
                );
            }
            labeler.map(|l| (v.name, l))
        })
        .collect()
}

fn label(l: &dyn Labeler, b: Board) -> Components {
    // Start from garbage so a labeler that forgets to clear is caught.
    let mut out = Components::new();
    out.push(0xdead);
    l.label(b, &mut out);
    out
}

fn board(s: &str) -> Board {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The edge cases from `inputs::edge_cases`, each with its answer worked out by hand.
const EXPECTED: &[(&str, &str)] = &[
    ("empty", ""),
    ("full", "0xffffffffffffffffff"),
    ("corner-top-left", "0x1"),
    ("corner-top-right", "0x20"),
    ("corner-bottom-left", "0x40000000000000000"),
    ("corner-bottom-right", "0x800000000000000000"),
    (
        "all-corners",
        "0x1 0x20 0x40000000000000000 0x800000000000000000",
    ),
    ("row-top", "0x3f"),
    ("row-bottom", "0xfc0000000000000000"),
    ("column-left", "0x41041041041041041"),
    ("column-right", "0x820820820820820820"),
    ("snake-rows", "0x7f83f07f83f07f83f"),
    ("snake-columns", "0xdd555555555555555d"),
    ("staircase", "0x83060c183 0x83060c183000000000"),
    ("seed-merge", "0x104147"),
    ("l-and-dot", "0x3041 0x10000"),
    ("comb", "0xfd5555555555555555"),
    (
        "stripes-columns",
        "0x41041041041041041 0x104104104104104104 0x410410410410410410",
    ),
    (
        "stripes-rows",
        "0x3f 0x3f000 0x3f000000 0x3f000000000 0x3f000000000000 0x3f000000000000000",
    ),
    ("ring-with-center", "0x3f86186187f000 0x100000000"),
];

#[test]
fn edge_cases_match_hand_answers() {
    let cases = inputs::edge_cases();
    for &(name, want) in EXPECTED {
        let b = cases
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no case {name}"));
        for (v, l) in available(variants()) {
            assert_eq!(
                label(&*l, b.1).to_string(),
                want,
                "variant {v}, case {name}"
            );
        }
    }
}

#[test]
fn checkerboards_are_36_single_cells() {
    for (name, pattern) in [
        ("checkerboard-even", 0xa95a95a95a95a95a95u128),
        ("checkerboard-odd", 0x56a56a56a56a56a56a),
    ] {
        let b = inputs::edge_cases()
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap()
            .1;
        assert_eq!(b.bits(), pattern, "{name}");
        for (v, l) in available(variants()) {
            let c = label(&*l, b);
            assert_eq!(c.len(), 36, "{v} {name}");
            let mut bits = pattern;
            for &m in c.as_slice() {
                // Each component is exactly the next lowest cell, in order.
                assert_eq!(m, bits & bits.wrapping_neg(), "{v} {name}");
                bits &= bits - 1;
            }
        }
    }
}

#[test]
fn every_edge_case_has_a_hand_answer() {
    let cases = inputs::edge_cases();
    for (name, _) in &cases {
        assert!(
            name.starts_with("checkerboard") || EXPECTED.iter().any(|(n, _)| n == name),
            "edge case {name} has no hand-written answer"
        );
    }
}

#[test]
fn spec_example_parses_in_both_forms() {
    let pic = "#...../#...../##..#./....../....../....../....../....../....../....../....../......";
    let b = board(pic);
    assert_eq!(b, board("0x13041"));
    assert_eq!(
        b,
        board(
            "1...../1...../11..1./000000/....../....../....../....../....../....../....../......"
        )
    );
    assert_eq!(b.to_string(), pic);
    assert_eq!(board(&b.to_string()), b);
    assert_eq!(b.picture().lines().count(), 12);
    assert_eq!(b.picture().lines().next(), Some("#....."));
    assert_eq!(board("  0X0000FF \n").bits(), 0xff);
    assert_eq!(board("0xffffffffffffffffff").bits(), Board::FULL);
}

#[test]
fn parse_errors_name_the_problem() {
    let cases: &[(&str, &str)] = &[
        ("", "empty"),
        ("0x", "bad hex"),
        ("0x+12", "bad hex"),
        ("0xg", "bad hex"),
        ("0x1000000000000000000", "bits above 71"),
        (
            "0x00000000000000000000000000000000001000000000000000000",
            "bits above 71",
        ),
        ("....../......", "found 2 rows"),
        (
            "...../....../....../....../....../....../....../....../....../....../....../......",
            "row 1 has 5 cells",
        ),
        (
            "....../....../x...../....../....../....../....../....../....../....../....../......",
            "bad character 'x' in row 3",
        ),
        (
            "....../....../....../....../....../....../....../....../....../....../....../.....é",
            "bad character 'é' in row 12",
        ),
        ("hello", "found 1 rows"),
    ];
    for &(input, want) in cases {
        let err = input.parse::<Board>().expect_err(input).to_string();
        assert!(
            err.contains(want),
            "{input:?}: {err:?} should contain {want:?}"
        );
        assert!(!err.contains('\n'), "{input:?}: message is one line");
    }
    assert_eq!(Board::new(1 << 72), None);
    assert_eq!(Board::new(Board::FULL).map(Board::bits), Some(Board::FULL));
}

#[test]
fn components_display_and_order() {
    let mut c = Components::new();
    assert_eq!(c.to_string(), "");
    assert!(c.is_empty());
    c.push(0x10000);
    c.push(0x3041);
    c.sort_canonical();
    assert_eq!(c.to_string(), "0x3041 0x10000");
    assert_eq!(c.len(), 2);
    let mut d = Components::new();
    d.push(0x3041);
    d.push(0x10000);
    d.push(0x5);
    d.clear();
    d.push(0x3041);
    d.push(0x10000);
    // Stale masks past the length do not affect equality.
    assert_eq!(c, d);
}

#[test]
fn registries_start_with_their_oracles() {
    let v = variants();
    let names: Vec<_> = v.iter().map(|v| v.name).collect();
    assert_eq!(
        &names[..5],
        ["naive-bfs", "bit-bfs", "row-table", "flood", "swar"]
    );
    assert_eq!(groups4_variants()[0].name, "groups4-naive-bfs");
    for v in v.iter().chain(groups4_variants().iter()) {
        if v.features.is_empty() {
            assert!(
                (v.make)().is_some(),
                "{} is portable but unavailable",
                v.name
            );
        }
    }
}

/// Labels by union-find over 4-neighbour edges (petgraph), then orders labels by first cell.
fn union_find_components(b: Board) -> Vec<u128> {
    let bits = b.bits();
    let mut uf = UnionFind::<usize>::new(Board::CELLS);
    for i in 0..Board::CELLS {
        if bits >> i & 1 == 0 {
            continue;
        }
        if i % Board::WIDTH + 1 < Board::WIDTH && bits >> (i + 1) & 1 == 1 {
            uf.union(i, i + 1);
        }
        if i + Board::WIDTH < Board::CELLS && bits >> (i + Board::WIDTH) & 1 == 1 {
            uf.union(i, i + Board::WIDTH);
        }
    }
    let mut out: Vec<(usize, u128)> = Vec::new();
    for i in 0..Board::CELLS {
        if bits >> i & 1 == 1 {
            let root = uf.find(i);
            match out.iter_mut().find(|(r, _)| *r == root) {
                Some((_, m)) => *m |= 1 << i,
                None => out.push((root, 1 << i)),
            }
        }
    }
    out.into_iter().map(|(_, m)| m).collect()
}

#[test]
fn petgraph_union_find_agrees() {
    let labelers = available(variants());
    let mut boards = Vec::new();
    for (k, p) in (1..=19).map(|k| (k, k as f64 * 0.05)) {
        boards.extend(inputs::density(p, k, 300));
    }
    boards.extend(inputs::game(7, 500));
    boards.extend(inputs::seed_set(8, 300));
    boards.extend(inputs::edge_cases().into_iter().map(|(_, b)| b));
    let mut out = vec![Components::new(); boards.len()];
    for (name, l) in &labelers {
        l.label_batch(&boards, &mut out);
        for (b, got) in boards.iter().zip(&out) {
            assert_eq!(
                got.as_slice(),
                union_find_components(*b),
                "{name} on\n{}",
                b.picture()
            );
        }
    }
}

#[test]
fn groups4_agree_with_filtered_union_find() {
    let labelers = available(groups4_variants());
    let mut boards = inputs::game(11, 1000);
    for (k, p) in (1..=19).map(|k| (k, k as f64 * 0.05)) {
        boards.extend(inputs::density(p, 100 + k, 100));
    }
    boards.extend(inputs::edge_cases().into_iter().map(|(_, b)| b));
    for (name, l) in &labelers {
        for b in &boards {
            let want: Vec<u128> = union_find_components(*b)
                .into_iter()
                .filter(|m| m.count_ones() >= 4)
                .collect();
            assert_eq!(
                label(&**l, *b).as_slice(),
                want,
                "{name} on\n{}",
                b.picture()
            );
        }
    }
}

#[test]
fn batches_of_odd_lengths_match_single_labels() {
    let oracle = &variants()[0];
    let oracle = (oracle.make)().unwrap();
    let mut mixed = Vec::new();
    for k in 0..40u64 {
        let p = [0.05, 0.5, 0.95, 0.25, 0.75][k as usize % 5];
        mixed.extend(inputs::density(p, 1000 + k, 1));
    }
    for list in [variants(), groups4_variants()] {
        let g4 = list[0].name.starts_with("groups4");
        let reference = (list[0].make)().unwrap();
        for (name, l) in available(list) {
            for len in [0usize, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 33] {
                for start in [0usize, 3] {
                    let boards = &mixed[start..start + len];
                    let mut out = vec![Components::new(); len];
                    for o in &mut out {
                        o.push(0xbad);
                    }
                    l.label_batch(boards, &mut out);
                    for (b, got) in boards.iter().zip(&out) {
                        let want = label(&*reference, *b);
                        assert_eq!(*got, want, "{name} batch len {len}");
                        if !g4 {
                            assert_eq!(*got, label(&*oracle, *b));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn inputs_are_deterministic_and_plausible() {
    assert_eq!(inputs::density(0.5, 1, 10), inputs::density(0.5, 1, 10));
    assert_ne!(inputs::density(0.5, 1, 10), inputs::density(0.5, 2, 10));
    let cells =
        |v: &[Board]| v.iter().map(|b| b.bits().count_ones() as f64).sum::<f64>() / v.len() as f64;
    let d = cells(&inputs::density(0.25, 3, 2000));
    assert!((16.0..20.0).contains(&d), "density 0.25 gave {d} cells");
    let s = cells(&inputs::seed_set(3, 2000));
    assert!((8.0..10.0).contains(&s), "seed set gave {s} cells");
    let g = inputs::game(5, 1003);
    assert_eq!(g.len(), 1003);
    assert_eq!(g, inputs::game(5, 1003));
    for b in &g {
        assert!(Board::new(b.bits()).is_some());
    }
    // The colours of one game board never share a cell.
    for game in g.chunks(5) {
        let mut seen = 0u128;
        for b in game {
            assert_eq!(seen & b.bits(), 0);
            seen |= b.bits();
        }
    }
    let b = board("0x13041");
    let smaller: Vec<Board> = inputs::shrink(b).collect();
    assert_eq!(smaller.len(), 5);
    assert!(
        smaller
            .iter()
            .all(|s| s.bits().count_ones() == 4 && s.bits() & !b.bits() == 0)
    );
}

fn oracle() -> Box<dyn Labeler> {
    (variants()[0].make)().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_variant_equals_the_oracle(bits in proptest::bits::u128::masked(Board::FULL)) {
        let b = Board::new(bits).unwrap();
        let want = label(&*oracle(), b);
        for (name, l) in available(variants()) {
            prop_assert_eq!(label(&*l, b), want, "{} on\n{}", name, b.picture());
        }
        let g4 = available(groups4_variants());
        let want4 = label(&*g4[0].1, b);
        for (name, l) in &g4 {
            prop_assert_eq!(label(&**l, b), want4, "{} on\n{}", name, b.picture());
        }
    }

    #[test]
    fn parse_never_panics_and_display_round_trips(s in "\\PC{0,100}", bits in proptest::bits::u128::masked(Board::FULL)) {
        let _ = s.parse::<Board>();
        let b = Board::new(bits).unwrap();
        prop_assert_eq!(b.to_string().parse::<Board>(), Ok(b));
        prop_assert_eq!(format!("{:#x}", bits).parse::<Board>(), Ok(b));
    }
}
