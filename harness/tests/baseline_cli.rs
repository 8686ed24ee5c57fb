//! `harness/baselines/seed-row-table/run` end to end: it builds the seed write-up's
//! C++ row table from `../shared`, finds it agrees with the oracle on every
//! board of the set, and prints a speed-up over it for every variant that
//! `bench` timed. Skipped (with a note) where `g++` or `../shared` is absent.

use std::path::Path;
use std::process::Command;

#[test]
fn seed_baseline_agrees_with_the_oracle_and_prints_speedups() {
    let harness = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seed = harness.join("../../shared/seeds/components-row-table.md");
    let gxx = Command::new("g++").arg("--version").output();
    if !seed.exists() || gxx.is_err() {
        eprintln!("skipped: needs {} and g++", seed.display());
        return;
    }
    let out = Command::new("bash")
        .arg(harness.join("baselines/seed-row-table/run"))
        .args(["--quick", "seed"])
        .env("BITBENCH", env!("CARGO_BIN_EXE_bitbench"))
        .env("CI", "1")
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
