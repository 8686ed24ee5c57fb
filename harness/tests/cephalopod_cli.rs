//! End-to-end tests of the `bitbench` binary on the `cephalopod` workload:
//! solve (both input formats), the one-line exit-code-2 errors, a quick
//! check, and bench records for per-test and rank-by-depth sets with the
//! oracle skipped by the cost model.

mod common;
use common::{bench_results, bitbench, scratch, stderr, stdout};

#[test]
fn solve_prints_the_spec_example_with_every_variant() {
    let list = bitbench(&["list", "--json"]);
    let entries: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let variants: Vec<&str> = entries
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["workload"] == "cephalopod" && e["available"] == true)
        .map(|e| e["variant"].as_str().unwrap())
        .collect();
    assert!(variants.len() >= 6, "{variants:?}");
    let out = bitbench(&["solve", "cephalopod", "20 060/222/161"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "322444322\n");
    for v in variants {
        let out = bitbench(&[
            "solve",
            "cephalopod",
            "--variant",
            v,
            "20 060/222/161",
            "1 000/000/000",
        ]);
        assert!(out.status.success(), "{v}: {}", stderr(&out));
        assert_eq!(stdout(&out), "322444322\n111111111\n", "variant {v}");
    }
}

#[test]
fn input_file_takes_the_contest_format_and_lines() {
    let contest = scratch("ceph-contest").with_extension("txt");
    std::fs::write(&contest, "40\n0 5 4\n0 3 0\n0 3 0\n").unwrap();
    let out = bitbench(&[
        "solve",
        "cephalopod",
        "--input-file",
        contest.to_str().unwrap(),
    ]);
    std::fs::remove_file(&contest).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "667094338\n");

    let lines = scratch("ceph-lines").with_extension("txt");
    std::fs::write(&lines, "1 666/666/660\n\n1 666/656/101\n").unwrap();
    let out = bitbench(&[
        "solve",
        "cephalopod",
        "--input-file",
        lines.to_str().unwrap(),
    ]);
    std::fs::remove_file(&lines).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "666666661\n926126417\n");
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let bad_file = scratch("ceph-bad").with_extension("txt");
    std::fs::write(&bad_file, "20\n0 6 0\n2 9 2\n1 6 1\n").unwrap();
    let cases: &[&[&str]] = &[
        &["solve", "cephalopod", "x 060/222/161"],
        &["solve", "cephalopod", "--", "-3 060/222/161"],
        &["solve", "cephalopod", "20 070/222/161"],
        &["solve", "cephalopod", "20 06/222/161"],
        &["solve", "cephalopod", "20 060/222"],
        &["solve", "cephalopod", "20 060/222/161/000"],
        &["solve", "cephalopod", "20"],
        &[
            "solve",
            "cephalopod",
            "--input-file",
            bad_file.to_str().unwrap(),
        ],
        &[
            "solve",
            "cephalopod",
            "--variant",
            "naive",
            "40 000/000/000",
        ],
        &["solve", "cephalopod", "--variant", "nope", "1 000/000/000"],
        &["bench", "cephalopod", "--inputs", "official:13"],
        &["bench", "cephalopod", "--inputs", "rank:99 depth:3"],
    ];
    for args in cases {
        let out = bitbench(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("bitbench: "), "{args:?}: {err}");
    }
    std::fs::remove_file(&bad_file).unwrap();
}

/// A variant named on the command line runs even where the cost model
/// would skip it in `check` and `bench`, with a note; only an estimate of
/// hours asks for `--force`, and says so in one line.
#[test]
fn solve_runs_a_named_slow_variant_and_asks_force_only_for_hours() {
    let slow = bitbench(&["solve", "cephalopod", "--variant", "memo", "20 000/010/000"]);
    let fast = bitbench(&[
        "solve",
        "cephalopod",
        "--variant",
        "front",
        "20 000/010/000",
    ]);
    assert!(slow.status.success(), "{}", stderr(&slow));
    assert_eq!(stdout(&slow), stdout(&fast));
    assert!(stderr(&slow).contains("note: memo on '20 000/010/000' is slow"));

    let naive = bitbench(&["solve", "cephalopod", "--variant", "naive", "8 000/010/000"]);
    assert!(naive.status.success(), "{}", stderr(&naive));
    let front = bitbench(&["solve", "cephalopod", "--variant", "front", "8 000/010/000"]);
    assert_eq!(stdout(&naive), stdout(&front));

    let hours = bitbench(&[
        "solve",
        "cephalopod",
        "--variant",
        "naive",
        "20 000/010/000",
    ]);
    let err = stderr(&hours);
    assert_eq!(hours.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("over 3e11 paths") && err.contains("--force"),
        "{err}"
    );
}

#[test]
fn check_passes_with_the_oracle_skipped_where_too_slow() {
    let out = bitbench(&["check", "cephalopod", "--cases", "20", "--seed", "3"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.contains("sym: agreed with naive on"), "{text}");
    assert!(text.contains("naive skipped on"), "{text}");
    assert!(text.contains("cephalopod: ok"), "{text}");
}

#[test]
fn bench_writes_per_test_and_rank_depth_records() {
    let (out, results) = bench_results(&[
        "bench",
        "cephalopod",
        "--quick",
        "--variant",
        "naive",
        "sym",
        "--inputs",
        "official",
        "rank:3 depth:6",
    ]);
    let records = results["records"].as_array().unwrap();
    let time = |variant: &str, set: &str| {
        records
            .iter()
            .find(|r| r["variant"] == variant && r["input_set"] == set && r["metric"] == "time")
            .unwrap_or_else(|| panic!("no record for {variant} on {set}"))
    };
    for k in 1..=12 {
        let r = time("sym", &format!("official:{k}"));
        assert_eq!(r["status"], "ok", "{r}");
        assert!(r["median"].as_f64().unwrap() > 0.0, "{r}");
    }
    // The oracle runs the cheap tests and is skipped, with its reason, on
    // the deep ones.
    assert_eq!(time("naive", "official:3")["status"], "ok");
    let deep = time("naive", "official:10");
    assert_eq!(deep["status"], "skipped", "{deep}");
    assert!(deep["reason"].as_str().unwrap().contains("paths"), "{deep}");
    assert_eq!(time("sym", "rank:3 depth:6")["status"], "ok");

    // The table ends the official tests with their total: the sum of sym's
    // 12 medians (to the 3 digits printed), and none for the oracle, which
    // skipped some of them.
    let sum: f64 = (1..=12)
        .map(|k| {
            time("sym", &format!("official:{k}"))["median"]
                .as_f64()
                .unwrap()
        })
        .sum();
    let text = stdout(&out);
    let row = text
        .lines()
        .find(|l| l.starts_with("official (sum)"))
        .unwrap_or_else(|| panic!("no total row in\n{text}"));
    let cells: Vec<&str> = row["official (sum)".len()..].split_whitespace().collect();
    assert_eq!(cells[0], "-", "{row}");
    let printed = ns(cells[1]);
    assert!(
        (printed - sum).abs() <= sum * 0.005,
        "{row}: sum is {sum} ns"
    );
    // Under the speedup table, the rows without an oracle time are counted
    // (official 6-12 and their total; rank:3 depth:6 has one) and a
    // baseline timed on all of them is named.
    assert!(
        text.contains(
            "naive has no time on 8 of 14 rows ('-' above); --baseline VARIANT gives \
             speedups over another variant, e.g. --baseline sym"
        ),
        "{text}"
    );
}

/// The total row's speedup is the ratio of the summed medians, and its
/// interval is bootstrapped from all 12 tests' samples (it once showed the
/// first test's interval).
///
/// Three rounds, because a round takes at least 2 samples of each test:
/// with the quick default of two, a loaded machine left `sym`'s slowest
/// test 4 samples, short of an interval, and so the total none either.
#[test]
fn the_total_row_speedup_is_the_ratio_of_sums() {
    let (out, results) = bench_results(&[
        "bench",
        "cephalopod",
        "--quick",
        "--rounds",
        "3",
        "--variant",
        "sym",
        "front",
        "--inputs",
        "official",
        "--baseline",
        "sym",
    ]);
    let records = results["records"].as_array().unwrap();
    let sum = |variant: &str| -> f64 {
        records
            .iter()
            .filter(|r| r["variant"] == variant && r["metric"] == "time")
            .map(|r| r["median"].as_f64().unwrap())
            .sum()
    };
    let want = sum("sym") / sum("front");
    let text = stdout(&out);
    let speedups = text.split("speedup over sym").nth(1).unwrap_or_default();
    let cell = |set: &str| -> (f64, f64, f64) {
        let row = speedups
            .lines()
            .find(|l| l.starts_with(set))
            .unwrap_or_else(|| panic!("no {set} row in\n{text}"));
        // `sym` `1.0×` then front's `x× (low–high)`.
        let front = row[set.len()..]
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>();
        let x = front[0].trim_end_matches('×').parse().unwrap();
        let (low, high) = front[1]
            .trim_matches(|c| c == '(' || c == ')')
            .split_once('–')
            .unwrap_or_else(|| panic!("no interval in {row}"));
        (x, low.parse().unwrap(), high.parse().unwrap())
    };
    let (x, low, high) = cell("official (sum)");
    assert!(
        (x - want).abs() <= 0.05 + want * 0.01,
        "{x} vs {want}\n{text}"
    );
    assert!(
        low <= want * 1.01 && high >= want * 0.99,
        "{low}–{high} vs {want}\n{text}"
    );
    assert_ne!(
        (low, high),
        (cell("official:1").1, cell("official:1").2),
        "{text}"
    );
}

/// Reads a time as the bench table prints it (`150ms`, `12.3µs`) in ns.
fn ns(cell: &str) -> f64 {
    let split = cell.find(|c: char| c.is_alphabetic() || c == 'µ').unwrap();
    let (value, unit) = cell.split_at(split);
    let scale = match unit {
        "ns" => 1.0,
        "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => panic!("unit of {cell}"),
    };
    value.parse::<f64>().unwrap() * scale
}

/// `ab` gets each build's allocations over the serve protocol, counted as
/// `bench` counts them: the same figures, judged exactly.
#[test]
fn ab_pairs_allocations_as_bench_counts_them() {
    let args = ["--variant", "bfs", "--inputs", "official:1"];
    let mut bench = vec!["bench", "cephalopod", "--quick"];
    bench.extend(args);
    let (_, results) = bench_results(&bench);
    let counted = |metric: &str| {
        results["records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["metric"] == metric)
            .unwrap_or_else(|| panic!("bench counted no {metric}"))["median"]
            .as_f64()
            .unwrap()
    };
    let me = env!("CARGO_BIN_EXE_bitbench");
    let mut ab = vec!["ab", "--binaries", me, me, "--workload", "cephalopod"];
    ab.extend(args);
    ab.extend(["--metric", "allocations", "peak_bytes", "--format", "json"]);
    let out = bitbench(&ab);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let table: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{table}");
    for row in rows {
        let metric = row["metric"].as_str().unwrap();
        let figure = counted(metric);
        assert!(figure > 0.0, "bfs allocates: {metric} {figure}");
        assert_eq!(row["a"].as_f64(), Some(figure), "{row}");
        assert_eq!(row["b"].as_f64(), Some(figure), "{row}");
        assert_eq!(row["verdict"], "no_change", "{row}");
    }
}

/// A metric of the table that `ab` cannot pair is refused in one line
/// saying why, before anything is built or run.
#[test]
fn ab_refuses_a_metric_it_does_not_measure_in_one_line() {
    let me = env!("CARGO_BIN_EXE_bitbench");
    for (metric, why) in [
        ("cycles", "paired samples cancel the clock"),
        ("setup", "cold start"),
    ] {
        let out = bitbench(&["ab", "--binaries", me, me, "--metric", metric]);
        assert_eq!(out.status.code(), Some(2), "{metric}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("--metric {metric}: ab does not measure it: ")),
            "{err}"
        );
        assert!(err.contains(why), "{err}");
        assert!(out.stdout.is_empty(), "{}", stdout(&out));
    }
}
