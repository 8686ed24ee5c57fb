//! The worked example, `harness/examples/popcount`: a crate outside the
//! workspace bringing a kernel none of ours has (population count, eight
//! variants from a bit loop to AVX-512 `vpopcntq`) through
//! `bitbench::main!`. Built with its committed lock file into this
//! workspace's target directory, then run through its own binary: the
//! main job (`check`, `bench --quick` over the buffer-size sweep and the
//! report, whose line chart over buffer size must be there, then the
//! summary with its hint); `--version` names the example and bitbench,
//! `--help` is the example's own (its package's description, its workload
//! in the examples), and `count`, left out with the default features,
//! says how to get it. The guide's page on your own kernel shows the
//! example's own lines, which this test keeps true.

mod common;

use common::{build_outside, run_outside as run, scratch, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/popcount")
}

/// Runs the example with `args` in `dir`; it must succeed.
#[test]
fn the_popcount_example_checks_benches_and_draws_its_sweep() {
    let popcount = build_outside(&example(), "popcount");
    let scratch = scratch("popcount");
    std::fs::create_dir_all(&scratch).unwrap();

    let (version, _) = run(&popcount, &scratch, &["--version"]);
    assert_eq!(
        version,
        concat!(
            "popcount 0.0.0 (bitbench ",
            env!("CARGO_PKG_VERSION"),
            ")\n"
        )
    );
    its_help_is_its_own(&popcount, &scratch);
    // Built without bitbench's `count` feature: the command is still
    // there, and whatever follows it gets one line saying how to add it.
    for args in [&["count"][..], &["count", "popcount", "--help"]] {
        let out = Command::new(&popcount).args(args).output().unwrap();
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert_eq!(
            stderr,
            "popcount: count: this program was built without bitbench's `count` feature; \
             add features = [\"count\"] to its bitbench dependency in Cargo.toml (counting \
             also needs valgrind and gungraun-runner)\n",
            "{args:?}"
        );
    }

    let (list, _) = run(&popcount, &scratch, &["list", "--json"]);
    let variants: Vec<serde_json::Value> = serde_json::from_str(&list).unwrap();
    assert_eq!(variants.len(), 9, "{list}");
    let available: Vec<&str> = variants
        .iter()
        .filter(|v| v["available"] == true)
        .map(|v| v["variant"].as_str().unwrap())
        .collect();

    // The main job: check, the quick bench, the report and the summary,
    // its files in the directory it runs in.
    let (out, _) = run(&popcount, &scratch, &[]);
    for v in available.iter().filter(|v| **v != "bit-loop") {
        assert!(
            out.contains(&format!("{v}: agreed with bit-loop on")),
            "{out}"
        );
    }
    let results = out
        .lines()
        .find_map(|l| l.strip_prefix("results: "))
        .expect("the main job names its results file");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(scratch.join(results)).unwrap()).unwrap();
    let records = file["records"].as_array().unwrap();
    for v in &available {
        let sizes: Vec<f64> = records
            .iter()
            .filter(|r| r["variant"] == *v && r["status"] == "ok" && r["metric"] == "time")
            .map(|r| r["parameters"][0]["value"].as_f64().unwrap())
            .collect();
        let mut expected: Vec<f64> = (3..=12).map(|log| f64::from(1 << log)).collect();
        expected.extend([16384.0, 65536.0, 262144.0, 1048576.0]);
        assert_eq!(sizes, expected, "{v}");
    }
    // With only sweep sets, the summary rests on them; its hint names
    // the example.
    let summary = out
        .split_once("\nsummary (quick run; `popcount bench` measures longer):\n")
        .map(|(_, summary)| summary)
        .unwrap_or_else(|| panic!("no summary naming popcount: {out}"));
    assert!(!out.contains("`bitbench "), "{out}");
    assert!(
        summary.contains("× (") && summary.contains(" over bit-loop"),
        "{summary}"
    );
    let report = scratch.join("report");
    for chart in ["popcount-bytes.svg", "popcount-bytes.png"] {
        assert!(report.join(chart).is_file(), "no {chart} in the report");
    }
    let markdown = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(markdown.contains("popcount-bytes.svg"), "{markdown}");
    assert!(
        markdown.contains("time per byte against bytes"),
        "{markdown}"
    );
    // A byte sweep as a write-up wants it: binary ticks at the data, and
    // the figures beneath the chart, a column per size.
    let svg = std::fs::read_to_string(report.join("popcount-bytes.svg")).unwrap();
    let texts: Vec<&str> = svg
        .split("<text ")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split("</text>").next()?.trim()))
        .collect();
    for tick in [
        "8 B", "64 B", "512 B", "4 KiB", "32 KiB", "256 KiB", "1 MiB",
    ] {
        assert!(texts.contains(&tick), "no {tick} tick: {texts:?}");
    }
    assert!(
        !texts.contains(&"10M") && !texts.contains(&"1k"),
        "{texts:?}"
    );
    assert!(
        markdown.contains("| variant | 8 B | 16 B | 32 B |"),
        "{markdown}"
    );
    its_dispatcher_is_the_committed_results_decision(&popcount, &scratch);
    std::fs::remove_dir_all(&scratch).ok();
}

/// The example ships `src/dispatch.rs`, written by `popcount dispatch`
/// from its committed results file: the module it builds with is what the
/// command writes from that file now (less the line dating it), and
/// `--check` holds on it. The main job above checked and timed the
/// dispatching variant beside the others.
fn its_dispatcher_is_the_committed_results_decision(popcount: &Path, dir: &Path) {
    let shipped = std::fs::read_to_string(example().join("src/dispatch.rs")).unwrap();
    let command = shipped
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("//! Generated by `popcount "))
        .and_then(|l| l.strip_suffix('`'))
        .expect("the module names the command that wrote it");
    let args: Vec<&str> = command.split(' ').collect();
    assert_eq!(
        args,
        ["dispatch", "results/zen5.json", "--out", "src/dispatch.rs"]
    );
    let written = dir.join("dispatch.rs");
    let results = example().join("results/zen5.json");
    let results = results.to_str().unwrap();
    run(
        popcount,
        dir,
        &["dispatch", results, "--out", written.to_str().unwrap()],
    );
    let undated = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("//! on ") && !l.starts_with("//! Generated by"))
            .map(|l| l.replace(results, "results/zen5.json"))
            .collect()
    };
    assert_eq!(
        undated(&std::fs::read_to_string(&written).unwrap()),
        undated(&shipped),
        "regenerate it: cd harness/examples/popcount && popcount {command}"
    );
    let (held, _) = run(
        popcount,
        dir,
        &["dispatch", "--check", written.to_str().unwrap(), results],
    );
    assert!(held.contains(": holds: "), "{held}");
}

/// `--help` opens with the example's package description, not bitbench's
/// about line, and the examples and hints in a command's help name
/// `popcount` and run its workload, not the `bitbench` binary's.
fn its_help_is_its_own(popcount: &Path, dir: &Path) {
    let manifest = std::fs::read_to_string(example().join("Cargo.toml")).unwrap();
    let description = manifest
        .lines()
        .find_map(|l| l.strip_prefix("description = "))
        .expect("the example describes itself")
        .trim_matches('"');
    let (help, _) = run(popcount, dir, &["--help"]);
    assert!(help.starts_with(&format!("{description}.\n")), "{help}");
    let (short, _) = run(popcount, dir, &["-h"]);
    assert!(short.starts_with(&format!("{description}\n")), "{short}");
    for (args, shown) in [
        (
            &["solve", "--help"][..],
            "Example: popcount solve popcount '0x",
        ),
        (
            &["inputs", "--help"],
            "popcount inputs popcount size:8 > inputs.txt",
        ),
        (
            &["bench", "--help"],
            "Input sets to measure (see `popcount list`)",
        ),
        (
            &["check", "--help"],
            "the `popcount solve` commands that reproduce it",
        ),
    ] {
        let (help, _) = run(popcount, dir, args);
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(shown), "{args:?}: {help}");
        for theirs in [
            "bitbench solve",
            "bitbench list",
            "components",
            "bitboard kernels",
        ] {
            assert!(!help.contains(theirs), "{args:?}: {help}");
        }
    }
}

/// The guide shows the example's dependency line and its whole `main.rs`.
#[test]
fn the_guide_shows_the_examples_own_lines() {
    let readme = common::guide::all_text();
    let main = std::fs::read_to_string(example().join("src/main.rs")).unwrap();
    assert!(readme.contains(main.trim()), "the guide lacks {main}");
    let manifest = std::fs::read_to_string(example().join("Cargo.toml")).unwrap();
    let dependency = manifest
        .lines()
        .find(|l| l.starts_with("bitbench = "))
        .expect("the example depends on bitbench");
    assert!(readme.contains(dependency), "the guide lacks {dependency}");
}
