//! `harness/baselines/seed-row-table/run` end to end: it builds the seed write-up's
//! C++ row table from `../shared`, finds it agrees with the oracle on every
//! board of the set, and prints a speed-up over it for every variant that
//! `bench` timed. Skipped (with a note) where `g++` or `../shared` is absent.

use std::path::Path;
use std::process::Command;

/// Runs `harness/baselines/NAME/run ARGS` with our binary and returns its
/// output, asserting it succeeded; `None` (with a note) where `g++` or the
/// file `needs` from `../shared` is missing.
fn run_script(needs: &Path, name: &str, args: &[&str]) -> Option<String> {
    if !needs.exists() || Command::new("g++").arg("--version").output().is_err() {
        eprintln!("skipped: needs {} and g++", needs.display());
        return None;
    }
    let harness = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(harness.join("baselines").join(name).join("run"))
        .args(args)
        .env("BITBENCH", env!("CARGO_BIN_EXE_bitbench"))
        .env("CI", "1")
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(text)
}

#[test]
fn seed_baseline_agrees_with_the_oracle_and_prints_speedups() {
    let harness = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seed = harness.join("../../shared/seeds/components-row-table.md");
    let Some(text) = run_script(&seed, "seed-row-table", &["--quick", "seed"]) else {
        return;
    };
    assert!(
        text.contains("seed 4096 boards agree with the oracle"),
        "{text}"
    );
    // One row per timed variant: set, variant, ns/board, speed-up.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 4 && w[0] == "seed")
        .collect();
    for name in ["naive-bfs", "row-table", "flood", "swar"] {
        let row = rows.iter().find(|w| w[1] == name);
        let row = row.unwrap_or_else(|| panic!("no row for {name}:\n{text}"));
        let ns: f64 = row[2].parse().unwrap();
        let speedup: f64 = row[3].trim_end_matches('x').parse().unwrap();
        assert!(ns > 0.0 && speedup > 0.0, "{row:?}");
    }
}

/// `harness/baselines/cephalopod-bfs/run`: it builds the plain reference BFS
/// from `../shared/baselines`, finds it agrees with the named variant on the
/// 12 official tests, and prints both times and their ratio for every
/// alternating run and their medians. Skipped (with a note) where `g++` or
/// `../shared` is absent.
#[test]
fn cephalopod_reference_agrees_and_prints_ratios() {
    let harness = Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = harness.join("../../shared/baselines/cephalopod-bfs.cpp");
    let args = ["--variant", "front", "--runs", "2"];
    let Some(text) = run_script(&reference, "cephalopod-bfs", &args) else {
        return;
    };
    assert!(
        text.contains("bitbench --variant front agree on the 12 official tests"),
        "{text}"
    );
    // One row a run: run, reference ms, bitbench ms, ratio.
    let rows: Vec<[f64; 3]> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 4 && w[0].parse::<u32>().is_ok())
        .map(|w| {
            let num = |s: &str| s.trim_end_matches('x').parse::<f64>().unwrap();
            [num(w[1]), num(w[2]), num(w[3])]
        })
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for [reference, ours, ratio] in rows {
        assert!(reference > 0.0 && ours > 0.0, "{text}");
        assert!(
            (ratio - reference / ours).abs() < 0.01 * ratio + 0.01,
            "{text}"
        );
    }
    let summary = text.lines().last().unwrap_or_default();
    assert!(
        summary.starts_with("median of 2 alternating runs: reference ")
            && summary.contains("bitbench --variant front ")
            && summary.ends_with('x'),
        "{text}"
    );

    // A bad argument is one line and exit 2, before anything is built.
    let bad = Command::new("bash")
        .arg(harness.join("baselines/cephalopod-bfs/run"))
        .args(["--runs", "0"])
        .output()
        .expect("bash runs");
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--runs"), "{err}");
}
