//! End-to-end tests of the `bitbench` binary on the `meteor` workload: the
//! spec's answer and reference output through `solve`, partial boards, a
//! small `check`, a `bench` that reports search nodes, and one-line,
//! exit-code-2 errors for bad boards.

mod common;
use common::{bitbench, stderr, stdout};

const SMALLEST: &str = "00001222012661126155865558633348893448934747977799";
const LARGEST: &str = "99998966856688568255777257472014220144031400311333";

/// The spec's reference output (254 bytes, md5 9a65bb4b0a735ace1eaa4f2628f01026),
/// shared with the meteor crate's own tests.
const BENCHMARK_TEXT: &str = include_str!("../../impls/meteor/tests/data/benchmark.txt");

#[test]
fn solve_prints_count_smallest_and_largest() {
    let out = bitbench(&["solve", "meteor", "2098"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("2098 {SMALLEST} {LARGEST}\n"));
}

#[test]
fn solve_prints_the_benchmarks_game_text_with_every_fast_variant() {
    for variant in ["bitmask", "islands", "symmetric", "endgame", "parallel"] {
        let out = bitbench(&[
            "solve",
            "meteor",
            "--variant",
            variant,
            "--format",
            "benchmark",
            "2098",
        ]);
        assert!(out.status.success(), "{variant}: {}", stderr(&out));
        assert_eq!(out.stdout.len(), 254, "{variant}");
        assert_eq!(stdout(&out), BENCHMARK_TEXT, "{variant}");
    }
}

#[test]
fn solve_counts_completions_of_partial_boards() {
    // The smallest solution with pieces 7 and 9 taken off: they fit back in
    // their own cells, and nowhere else with that board.
    let board: String = SMALLEST
        .chars()
        .map(|c| if c == '7' || c == '9' { '.' } else { c })
        .collect();
    let input = format!("10 {board}");
    let naive = bitbench(&["solve", "meteor", "--variant", "naive", &input]);
    let fast = bitbench(&["solve", "meteor", &input]);
    assert!(naive.status.success(), "{}", stderr(&naive));
    assert_eq!(stdout(&naive), stdout(&fast));
    let line = stdout(&naive);
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert!(fields[0].parse::<usize>().unwrap() >= 1, "{line}");
    assert!(fields[1] <= SMALLEST, "{line}");
    // A board already solved has exactly itself.
    let out = bitbench(&["solve", "meteor", &format!("5 {LARGEST}")]);
    assert_eq!(stdout(&out), format!("1 {LARGEST} {LARGEST}\n"));
    // No completion: '-' for smallest and largest.
    let cases: std::collections::HashMap<_, _> = meteor::inputs::edge_cases().into_iter().collect();
    let cut_off = bitbench(&["solve", "meteor", &cases["corner-cut-off"].to_string()]);
    assert_eq!(stdout(&cut_off), "0 - -\n", "{}", stderr(&cut_off));
}

#[test]
fn bad_boards_are_one_line_errors_with_exit_code_2() {
    let cases = [
        ("2098 0000", "50 cells"),
        (&format!("2098 {}", "x".repeat(50))[..], "unknown character"),
        (
            &format!("2098 0000.{}0", ".".repeat(44))[..],
            "not a placement",
        ),
        (
            &format!("2098 0000{}", ".".repeat(46))[..],
            "covers 4 cells",
        ),
        ("many", "not a non-negative integer"),
    ];
    for (input, problem) in cases {
        let out = bitbench(&["solve", "meteor", input]);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = stderr(&out);
        assert!(err.contains(problem), "{err:?} should mention {problem:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = bitbench(&["solve", "meteor", "--format", "nope", "2098"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_passes() {
    let out = bitbench(&["check", "meteor", "--cases", "4"]);
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
}

#[test]
fn bench_reports_time_and_search_nodes_per_variant() {
    let out = bitbench(&[
        "bench",
        "meteor",
        "--quick",
        "--inputs",
        "partial:3",
        "--variant",
        "bitmask",
        "--variant",
        "symmetric",
        "--variant",
        "endgame",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for v in ["bitmask", "symmetric", "endgame"] {
        assert!(
            text.lines()
                .any(|l| l.contains(v) && l.contains("partial:3") && l.contains("nodes/input")),
            "{v} nodes in:\n{text}"
        );
    }
    assert!(!text.contains("WRONG"), "{text}");
}
