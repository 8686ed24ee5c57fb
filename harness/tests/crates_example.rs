//! The crates example, `harness/examples/perft`: chess perft from three
//! published crates (shakmaty, cozy-chess, chess), each variant reading
//! the FEN into its own crate's board outside the timer
//! (`bitbench::prepared`), and one reading it inside. Its registry
//! dependencies are fetched for its committed lock file, then it is built
//! with that lock file into this workspace's target directory; its unit
//! tests (the published perft counts, every variant) run, then `check`,
//! `bench --quick` and `report` through its own binary: every variant
//! agrees with the oracle, the prepared ones have `prepare` records beside
//! their times, and the report draws them all. The guide's page on
//! comparing crates shows the example's own lines, which this test keeps
//! true.

mod common;

use common::{build_outside_locked, cargo_outside, fresh_scratch, run_outside};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The oracle, then the variants the crates' boards make.
const PREPARED: [&str; 3] = ["shakmaty", "cozy-chess", "chess"];
/// The variant that reads the FEN inside the timed region.
const PARSE_EACH_TIME: &str = "shakmaty-parse-each-time";
/// The sets `bench --quick` measures.
const QUICK_SETS: [&str; 4] = ["standard:1", "standard:2", "standard:3", "playouts"];

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/perft")
}

/// `exe ARGS`, which must succeed: its stdout.
fn run(exe: &Path, args: &[&str]) -> String {
    run_outside(exe, Path::new(env!("CARGO_TARGET_TMPDIR")), args).0
}

/// The input sets of `records` with `metric` for `variant`, status ok.
fn sets(records: &[Value], variant: &str, metric: &str) -> Vec<String> {
    records
        .iter()
        .filter(|r| r["variant"] == variant && r["metric"] == metric && r["status"] == "ok")
        .map(|r| r["input_set"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_crates_example_checks_benches_and_reports_its_preparation() {
    let perft = build_outside_locked(&example(), "perft");
    cargo_outside(
        &example(),
        &["test", "--release", "--offline", "--locked", "--lib"],
    );
    let scratch = fresh_scratch("crates-example");

    let list: Vec<Value> = serde_json::from_str(&run(&perft, &["list", "--json"])).unwrap();
    let variants: Vec<&str> = list
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(variants, [&PREPARED[..], &[PARSE_EACH_TIME]].concat());

    let check = run(&perft, &["check", "--cases", "200"]);
    for v in &variants[1..] {
        assert!(
            check.contains(&format!("{v}: agreed with shakmaty on")),
            "{check}"
        );
    }

    let results = scratch.join("quick.json");
    run(
        &perft,
        &["bench", "--quick", "--out", results.to_str().unwrap()],
    );
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let records = file["records"].as_array().unwrap();
    for v in &variants {
        assert_eq!(sets(records, v, "time"), QUICK_SETS, "{v}");
    }
    // Preparation is a record of its own, in time's unit, for the
    // variants that have a form of their own, and only for them.
    for v in PREPARED {
        assert_eq!(sets(records, v, "prepare"), QUICK_SETS, "{v}");
    }
    assert!(sets(records, PARSE_EACH_TIME, "prepare").is_empty());
    assert!(
        records
            .iter()
            .filter(|r| r["metric"] == "prepare" || r["metric"] == "time")
            .all(|r| r["unit"] == "ns/node"),
        "{records:?}"
    );

    let report = scratch.join("report");
    let summary = run(
        &perft,
        &[
            "report",
            results.to_str().unwrap(),
            "--out",
            report.to_str().unwrap(),
        ],
    );
    assert!(summary.contains(" over shakmaty"), "{summary}");
    assert!(report.join("index.html").is_file());
    let markdown = std::fs::read_to_string(report.join("report.md")).unwrap();
    for (chart, drawn) in [
        ("perft-time.svg", &variants[..]),
        ("perft-preparation.svg", &PREPARED[..]),
    ] {
        assert!(markdown.contains(chart), "report.md lacks {chart}");
        // The legend: each name on a line of its own, the oracle's marked.
        let svg = std::fs::read_to_string(report.join(chart)).unwrap();
        for v in drawn {
            let named = |l: &str| l.trim_end_matches(" (oracle)") == *v;
            assert!(svg.lines().any(named), "{chart} lacks {v}");
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
}

/// The guide shows the example's crates as its manifest names them and
/// its shared helper, the preparation, as written.
#[test]
fn the_guide_shows_the_crates_examples_own_lines() {
    let guide = common::guide::all_text();
    let manifest = std::fs::read_to_string(example().join("Cargo.toml")).unwrap();
    for crate_ in ["shakmaty", "cozy-chess", "chess"] {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{crate_} = ")))
            .unwrap_or_else(|| panic!("the example depends on {crate_}"));
        assert!(guide.contains(line), "the guide lacks {line}");
    }
    let variants = std::fs::read_to_string(example().join("src/variants.rs")).unwrap();
    let start = variants.find("fn prepared<").expect("the shared helper");
    let helper = &variants[start..];
    let helper = &helper[..=helper.find("\n}").expect("its end") + 1];
    assert!(guide.contains(helper), "the guide lacks\n{helper}");
}
