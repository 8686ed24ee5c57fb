//! Keeps the guide's `cargo bench` lines working: each runs as written,
//! briefly, so a bench target that panics or breaks (a chart backend, a
//! filter that prepares every batch) fails the tests.
//!
//! The guide's lines are filtered to one benchmark each; criterion's gets
//! short warm-up and measurement times on top. `cargo bench` shares the
//! release build's dependencies (the bench profile inherits it), so only
//! the bench targets themselves are compiled.

mod common;

use common::tool_missing;
use std::process::Command;

/// The `cargo bench` lines of the guide's code blocks (README and docs/),
/// as argument lists (comments dropped, single quotes removed).
fn guide_cargo_bench_lines() -> Vec<Vec<String>> {
    common::guide::all_text()
        .lines()
        .filter_map(|l| l.strip_prefix("cargo bench "))
        .map(|rest| {
            let command = rest.split(" #").next().unwrap_or(rest);
            command
                .split_whitespace()
                .map(|w| w.trim_matches('\'').to_owned())
                .collect()
        })
        .collect()
}

/// Runs `cargo bench ARGS` from the workspace root; returns whether it
/// succeeded and everything it printed.
fn cargo_bench(args: &[String]) -> (bool, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .arg("bench")
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("CI", "1")
        .output()
        .expect("cargo runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// The guide's line for bench target `name`, which must name a filter.
fn line_for(name: &str) -> Vec<String> {
    let lines = guide_cargo_bench_lines();
    let line = lines
        .into_iter()
        .find(|l| l.windows(2).any(|w| w[0] == "--bench" && w[1] == name))
        .unwrap_or_else(|| panic!("the guide shows no `cargo bench ... --bench {name}` line"));
    let filter = line.iter().skip_while(|w| *w != "--").nth(1);
    assert!(
        filter.is_some_and(|f| !f.starts_with('-')),
        "the guide's {name} line names no filter: {line:?}"
    );
    line
}

#[test]
fn criterion_bench_runs_the_guides_filter_without_plots() {
    let mut args = line_for("wallclock");
    let filter = args[args.iter().position(|w| w == "--").unwrap() + 1].clone();
    args.extend(
        ["--warm-up-time", "0.1", "--measurement-time", "0.3"]
            .iter()
            .map(|s| s.to_string()),
    );
    let (ok, text) = cargo_bench(&args);
    assert!(ok, "cargo bench {args:?} failed:\n{text}");
    assert!(!text.contains("panicked"), "{text}");
    let measured: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Benchmarking ") && l.ends_with(": Analyzing"))
        .collect();
    assert_eq!(measured.len(), 1, "one benchmark measured:\n{text}");
    assert!(
        text.contains(&format!("{filter}\n")) && text.contains("thrpt:"),
        "{text}"
    );
    // Only the filtered batch is prepared: nothing else is reported as
    // skipped or wrong.
    assert!(!text.contains("not measured"), "{text}");
}

#[test]
fn gungraun_bench_runs_the_guides_filter() {
    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!("skipped: valgrind or gungraun-runner missing (bash .ci/install-measure-tools)");
        return;
    }
    let args = line_for("instructions");
    let (ok, text) = cargo_bench(&args);
    assert!(ok, "cargo bench {args:?} failed:\n{text}");
    let counted = text.lines().filter(|l| l.contains("Instructions:")).count();
    assert!(counted >= 1, "nothing counted:\n{text}");
    assert!(text.contains("filtered"), "the filter applied:\n{text}");
}
