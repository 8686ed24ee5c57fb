//! Helpers shared by the CLI test binaries: run `bitbench`, read its output.
//!
//! Each test binary uses a subset of these, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the built `bitbench` with `args`, progress bars off (`CI=1`).
pub fn bitbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitbench"))
        .args(args)
        .env("CI", "1")
        .output()
        .expect("bitbench runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `bitbench` with `args` plus `--out` to a fresh temporary file, and
/// returns the run and the results file it wrote (parsed, the file removed).
/// Panics if the run fails.
pub fn bench_results(args: &[&str]) -> (Output, serde_json::Value) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!("bitbench-results-{}-{n}.json", std::process::id()));
    let mut all = args.to_vec();
    all.extend(["--out", path.to_str().expect("a UTF-8 temp path")]);
    let out = bitbench(&all);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = std::fs::read_to_string(&path).expect("the results file");
    std::fs::remove_file(&path).expect("the results file is removable");
    (out, serde_json::from_str(&text).expect("results JSON"))
}

/// Whether `program --version` fails to run: a tool a test needs is missing
/// (the `.ci/install-*` scripts install them).
pub fn tool_missing(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .map_or(true, |o| !o.status.success())
}
