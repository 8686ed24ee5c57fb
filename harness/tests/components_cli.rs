//! End-to-end tests of the `bitbench` binary on the `components` workload:
//! the scripted contract (list --json, solve, check, bench), its version
//! line and the one-line, exit-code-2 errors for bad input.

mod common;
use common::{bench_results, bitbench, scratch, stderr, stdout, workloads};

const L_AND_DOT: &str =
    "#...../#...../##..#./....../....../....../....../....../....../....../....../......";

#[test]
fn solve_prints_the_spec_example_with_every_variant() {
    let list = bitbench(&["list", "--json"]);
    let entries: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let variants: Vec<&str> = entries
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["workload"] == "components" && e["available"] == true)
        .map(|e| e["variant"].as_str().unwrap())
        .collect();
    assert!(variants.len() >= 4, "{variants:?}");
    for v in variants {
        let out = bitbench(&["solve", "components", "--variant", v, L_AND_DOT, "0x0"]);
        assert!(out.status.success(), "{v}: {}", stderr(&out));
        assert_eq!(stdout(&out), "0x3041 0x10000\n\n", "variant {v}");
    }
}

#[test]
fn list_json_has_the_scripted_fields() {
    let out = bitbench(&["list", "--json"]);
    assert!(out.status.success());
    let entries: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &entries[0];
    assert_eq!(first["workload"], "components");
    assert_eq!(first["variant"], "naive-bfs");
    assert!(first["description"].as_str().unwrap().contains("oracle"));
    for e in entries.as_array().unwrap() {
        let available = e["available"].as_bool().unwrap();
        assert_eq!(e.get("reason").is_some(), !available, "{e}");
    }
    // Exactly one declared default a workload, the variant `solve` runs
    // without `--variant`; the text table marks the same one.
    let entries = entries.as_array().unwrap();
    let defaults: Vec<(&str, &str)> = entries
        .iter()
        .filter(|e| e["default"].as_bool().unwrap())
        .map(|e| {
            (
                e["workload"].as_str().unwrap(),
                e["variant"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(defaults.len(), workloads(entries).len(), "{defaults:?}");
    assert!(defaults.contains(&("components", "swar")), "{defaults:?}");
    let text = stdout(&bitbench(&["list"]));
    let marked: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with("[default]"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(marked.len(), defaults.len(), "{text}");
    assert!(marked.contains(&"swar"), "{text}");
}

/// `list --features` names what this process detects, as the variants'
/// availability reads it; with `--json` it is refused.
#[test]
fn list_features_agrees_with_which_variants_run() {
    let out = bitbench(&["list", "--features"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let features: Vec<&str> = text.lines().collect();
    if cfg!(target_arch = "x86_64") {
        assert!(features.contains(&"sse2"), "{text}");
    }
    let entries: serde_json::Value =
        serde_json::from_slice(&bitbench(&["list", "--json"]).stdout).unwrap();
    let avx2 = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["workload"] == "components" && e["variant"] == "avx2")
        .expect("components has an avx2 variant");
    // What the avx2 variant declares it needs.
    let needs = ["avx2", "popcnt", "bmi1", "bmi2"];
    assert_eq!(
        avx2["available"] == true,
        needs.iter().all(|f| features.contains(f)),
        "{avx2} beside {text}"
    );
    let both = bitbench(&["list", "--features", "--json"]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
}

/// The program is bitbench itself: its version once, not "bitbench X
/// (bitbench X)".
#[test]
fn version_is_bitbenchs_own() {
    let out = bitbench(&["--version"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        concat!("bitbench ", env!("CARGO_PKG_VERSION"), "\n")
    );
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let cases: &[&[&str]] = &[
        &["solve", "components", "#...../#....."],
        &[
            "solve",
            "components",
            "#...../#...../##..#./....../....../....../....../....../....../....../....../.....x",
        ],
        &[
            "solve",
            "components",
            "#...../#...../##..#./....../....../....../....../....../....../....../....../.......",
        ],
        &["solve", "components", "0x1000000000000000000"],
        &["solve", "components", "0xzz"],
        &["solve", "components"],
        &["solve", "nope", "0x1"],
        &["solve", "components", "--variant", "nope", "0x1"],
        &[
            "solve",
            "components",
            "--input-file",
            "/nonexistent/boards.txt",
        ],
        &["check", "nope"],
        &["bench", "components", "--inputs", "density:2"],
        &["bench", "components", "--inputs", "bogus"],
        &["bench", "components", "--out", "/proc/no/such/dir/r.json"],
        &["frobnicate"],
    ];
    for args in cases {
        let out = bitbench(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if args[0] != "frobnicate" && args.len() > 2 {
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
            assert!(err.starts_with("bitbench: "), "{args:?}: {err}");
        }
    }
}

#[test]
fn input_file_reads_one_board_per_line() {
    let path = scratch("boards").with_extension("txt");
    std::fs::write(&path, format!("{L_AND_DOT}\n\n0x3\n")).unwrap();
    let out = bitbench(&[
        "solve",
        "components",
        "--input-file",
        path.to_str().unwrap(),
    ]);
    std::fs::remove_file(&path).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "0x3041 0x10000\n0x3\n");
}

#[test]
fn check_passes_and_names_every_variant() {
    let out = bitbench(&["check", "components", "--cases", "300", "--seed", "7"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("bit-bfs: agreed with naive-bfs on"), "{text}");
    assert!(text.contains("components: ok"), "{text}");
}

#[test]
fn bench_verifies_times_and_writes_the_results_file() {
    let (out, results) = bench_results(&[
        "bench",
        "components",
        "--quick",
        "--inputs",
        "density:0.5",
        "game",
    ]);
    let text = stdout(&out);
    assert!(text.contains("speedup over naive-bfs"), "{text}");
    assert_eq!(results["schema"], reports::SCHEMA);
    let records = results["records"].as_array().unwrap();
    let list = bitbench(&["list", "--json"]);
    let entries: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let variants = entries
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["workload"] == "components");
    for v in variants {
        for set in ["density:0.5", "game"] {
            let r = records
                .iter()
                .find(|r| {
                    r["variant"] == v["variant"] && r["input_set"] == set && r["metric"] == "time"
                })
                .unwrap_or_else(|| panic!("no record for {} on {set}", v["variant"]));
            let expected_status = if v["available"] == true {
                "ok"
            } else {
                "skipped"
            };
            assert_eq!(r["status"], expected_status, "{r}");
            assert_eq!(r["oracle"], "naive-bfs", "{r}");
            let parameters = if set == "game" {
                serde_json::Value::Null
            } else {
                serde_json::json!([{ "name": "density", "value": 0.5 }])
            };
            assert_eq!(r["parameters"], parameters, "{r}");
            if expected_status == "ok" {
                assert!(r["median"].as_f64().unwrap() > 0.0, "{r}");
                assert!(r["samples"].as_u64().unwrap() >= 3, "{r}");
                assert_eq!(r["unit"], "ns/board");
            }
        }
    }
}

/// `--baseline` measures the named variant beside the chosen ones and
/// prints the speedups over it (each the ratio of the two medians); a name
/// that is no variant, or a baseline with several workloads, is a one-line
/// usage error before any measuring.
#[test]
fn bench_prints_speedups_over_a_chosen_baseline() {
    let (out, results) = bench_results(&[
        "bench",
        "components",
        "--quick",
        "--variant",
        "swar",
        "--baseline",
        "flood",
        "--inputs",
        "density:0.5",
    ]);
    let median = |variant: &str| {
        results["records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["variant"] == variant && r["metric"] == "time")
            .unwrap_or_else(|| panic!("{variant} was not measured"))["median"]
            .as_f64()
            .unwrap()
    };
    let text = stdout(&out);
    let table = text
        .split("speedup over flood")
        .nth(1)
        .unwrap_or_else(|| panic!("no speedup table over flood in\n{text}"));
    let row = table
        .lines()
        .find(|l| l.starts_with("density:0.5"))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().skip(1).collect();
    assert_eq!(cells[0], "1.0×", "{row}");
    assert_eq!(
        cells[1],
        format!(
            "{}×",
            reports::numbers::ratio(median("flood") / median("swar"))
        ),
        "{row}"
    );

    for (args, message) in [
        (
            &["bench", "components", "--baseline", "flod"][..],
            "--baseline flod: not a variant of 'components'",
        ),
        (
            &["bench", "--baseline", "flood"][..],
            "--baseline needs exactly one workload",
        ),
    ] {
        let out = bitbench(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{err}");
    }
}

/// Without the oracle among the chosen variants, the speedup table still
/// has a reference: the slowest variant timed on every row, named in the
/// title, with a number in every cell (the ratio of the two medians).
#[test]
fn bench_without_the_oracle_divides_by_the_slowest_variant() {
    let (out, results) = bench_results(&[
        "bench",
        "components",
        "--quick",
        "--variant",
        "flood",
        "swar",
        "--inputs",
        "density:0.5",
        "seed",
    ]);
    let time = |variant: &str, set: &str| {
        results["records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["variant"] == variant && r["input_set"] == set && r["metric"] == "time")
            .unwrap_or_else(|| panic!("{variant} was not measured on {set}"))["median"]
            .as_f64()
            .unwrap()
    };
    let total = |v: &str| time(v, "density:0.5") + time(v, "seed");
    let slow = if total("flood") >= total("swar") {
        "flood"
    } else {
        "swar"
    };
    let text = stdout(&out);
    let title = format!("speedup over {slow} (slowest variant timed on every row");
    let table = text
        .split(&title)
        .nth(1)
        .unwrap_or_else(|| panic!("no '{title}' in\n{text}"));
    for set in ["density:0.5", "seed"] {
        let row = table.lines().find(|l| l.starts_with(set)).unwrap();
        // Columns are two or more spaces apart; a cell may hold a space.
        let cells: Vec<&str> = row
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .skip(1)
            .collect();
        for (v, cell) in ["flood", "swar"].into_iter().zip(cells) {
            let ratio = time(slow, set) / time(v, set);
            let (point, interval) = cell.split_once(' ').unwrap_or((cell, ""));
            assert_eq!(
                point,
                format!("{}×", reports::numbers::ratio(ratio)),
                "{row}"
            );
            if v == slow {
                continue;
            }
            // The other's cell carries its 95 % interval, which holds the
            // ratio of the medians (its bounds printed to two significant
            // figures, so within 5 % of theirs).
            let (low, high) = interval
                .trim_matches(|c| c == '(' || c == ')')
                .split_once('–')
                .unwrap_or_else(|| panic!("no interval in {row}"));
            let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
            assert!(
                low <= ratio * 1.05 && ratio * 0.95 <= high,
                "{row}: {ratio}"
            );
        }
    }
}

/// `inputs` prints the boards `bench` measures in the format `solve` reads:
/// the requested count, the same boards for the same seed, other boards
/// for another, and every line solvable.
#[test]
fn inputs_prints_solvable_boards_for_a_seed() {
    let first = bitbench(&["inputs", "components", "density:0.5", "--count", "9"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let lines: Vec<String> = stdout(&first).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 9);
    let again = bitbench(&["inputs", "components", "density:0.5", "--count", "9"]);
    assert_eq!(stdout(&again), stdout(&first), "same seed, same boards");
    let other = bitbench(&[
        "inputs",
        "components",
        "density:0.5",
        "--count",
        "9",
        "--seed",
        "2",
    ]);
    assert_ne!(stdout(&other), stdout(&first), "another seed, other boards");
    let mut args = vec!["solve", "components", "--variant", "naive-bfs"];
    args.extend(lines.iter().map(String::as_str));
    let solved = bitbench(&args);
    assert!(solved.status.success(), "{}", stderr(&solved));
    assert_eq!(stdout(&solved).lines().count(), 9);
    // Density 0.5 boards are never empty in practice; an empty line would
    // mean a board lost its cells on the way.
    assert!(stdout(&solved).lines().all(|l| l.starts_with("0x")));
}

#[test]
fn inputs_of_an_unknown_set_is_one_line_and_exit_code_2() {
    for set in ["density:2", "nonsense"] {
        let out = bitbench(&["inputs", "components", set]);
        assert_eq!(out.status.code(), Some(2), "{set}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{set}: {err}");
        assert!(err.contains(set), "{set}: {err}");
    }
}
