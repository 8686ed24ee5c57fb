//! End-to-end tests of the `bitbench` binary on the `connectx` and
//! `connectx-perft` workloads: the spec's answers through `solve`, a small
//! `check`, and one-line, exit-code-2 errors for bad input.

mod common;
use common::{bitbench, stderr, stdout};

/// Available variants of `workload`, from `list --json`.
fn variants(workload: &str) -> Vec<String> {
    let list = bitbench(&["list", "--json"]);
    let entries: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    entries
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["workload"] == workload && e["available"] == true)
        .map(|e| e["variant"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn solve_connectx_prints_the_winner_with_every_variant() {
    let variants = variants("connectx");
    assert!(variants.len() >= 3, "{variants:?}");
    assert_eq!(variants[0], "kaggle-list");
    for v in &variants {
        let out = bitbench(&[
            "solve",
            "connectx",
            "--variant",
            v,
            "7x6k4:4455667",  // player 1: four along the bottom row
            "7x6k4:12121232", // player 2: four up column 2
            "7x6k4:445566",   // nobody yet
            "5x4k3:23232",    // Kaggle's test: player 1 on move 5
            "10x10k5:10,1,10,1,10,1,10,1,10",
        ]);
        assert!(out.status.success(), "{v}: {}", stderr(&out));
        assert_eq!(stdout(&out), "1\n2\n0\n1\n1\n", "variant {v}");
    }
}

#[test]
fn solve_connectx_perft_prints_the_spec_counts() {
    for v in variants("connectx-perft") {
        let out = bitbench(&[
            "solve",
            "connectx-perft",
            "--variant",
            &v,
            "7x6k4: 0",
            "7x6k4: 7",
            "7x6k4: 8",
            "7x6k4:1212121 3",
        ]);
        assert!(out.status.success(), "{v}: {}", stderr(&out));
        assert_eq!(stdout(&out), "1\n823536\n5673234\n0\n", "variant {v}");
    }
}

#[test]
fn check_passes_on_both_workloads() {
    let out = bitbench(&["check", "connectx", "connectx-perft", "--cases", "20"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
}

#[test]
fn list_documents_the_input_sets() {
    let out = bitbench(&["list"]);
    let text = stdout(&out);
    for pattern in [
        "CONFIG/random:PLIES",
        "CONFIG/perft:D",
        "CONFIG/random:PLIES/perft:D",
    ] {
        assert!(text.contains(pattern), "{pattern} missing from:\n{text}");
    }
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let cases: &[&[&str]] = &[
        &["solve", "connectx", "7x6k4:1111111"],  // full column
        &["solve", "connectx", "7x6k4:12121212"], // move after the win
        &["solve", "connectx", "7x6k4:8"],        // column out of range
        &["solve", "connectx", "7x6k4:4a"],       // bad digit
        &["solve", "connectx", "7x6k9:"],         // K larger than the board allows
        &["solve", "connectx", "20x7k4:"],        // W*(H+1) > 128
        &["solve", "connectx", "7x6k4"],          // no move list
        &["solve", "connectx-perft", "7x6k4:"],   // no depth
        &["solve", "connectx-perft", "7x6k4: deep"],
        &[
            "bench",
            "connectx",
            "--inputs",
            "7x6k4/random:99",
            "--quick",
        ],
        &[
            "bench",
            "connectx-perft",
            "--inputs",
            "7x6k4/nope:3",
            "--quick",
        ],
    ];
    for args in cases {
        let out = bitbench(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
