//! Rendering a report from hand-made results files: every expected file
//! exists with a valid header, the heatmap draws one cell per record, and
//! missing workloads or metrics are reported instead of failing the rest.

mod common;

use bitbench_reports::{Metric, ReportOptions, Source, Status, render};
use common::svg::{attr, svg_texts};
use common::*;
use std::collections::BTreeSet;
use std::path::Path;

fn options(expected: &[&str]) -> ReportOptions {
    ReportOptions {
        command: "bitbench report test.json".into(),
        expected_workloads: expected.iter().map(|s| (*s).to_owned()).collect(),
        ..Default::default()
    }
}

fn full_file() -> bitbench_reports::ResultsFile {
    let mut records = components(&["default"], 1.0);
    records.extend(cephalopod(0..=3, 6..=10, (2, 8)));
    records.extend(meteor());
    records.extend(many_variants(10));
    file(records)
}

fn check_image(dir: &Path, name: &str) {
    let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(bytes.len() > 500, "{name} is nearly empty");
    if name.ends_with(".png") {
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name}");
    } else {
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.trim_start().starts_with("<svg"), "{name}");
        assert!(text.trim_end().ends_with("</svg>"), "{name}");
    }
}

#[test]
fn renders_every_expected_file() {
    let dir = out_dir("full");
    let sources = vec![Source::new("run", "run.json", full_file())];
    let report = render(
        &sources,
        &dir,
        &options(&["components", "cephalopod", "meteor", "connectx"]),
    )
    .unwrap();
    let stems: BTreeSet<String> = report
        .charts
        .iter()
        .map(|c| c.svg.trim_end_matches(".svg").to_owned())
        .collect();
    let expected: BTreeSet<String> = [
        "components-throughput",
        "components-time",
        "components-speedup",
        "components-density",
        "components-density-throughput",
        "components-density-speedup",
        "components-instructions",
        "cephalopod-throughput",
        "cephalopod-time",
        "cephalopod-speedup",
        "cephalopod-heatmap-swar",
        "meteor-throughput",
        "meteor-time",
        "meteor-speedup",
        "meteor-counter-nodes-input",
        "connectx-throughput",
        "connectx-time",
        "connectx-speedup",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(stems, expected);
    let index = std::fs::read_to_string(&report.index).unwrap();
    let md = std::fs::read_to_string(&report.markdown).unwrap();
    for c in &report.charts {
        check_image(&dir, &c.svg);
        check_image(&dir, &c.png);
        assert!(index.contains(&format!("src=\"{}\"", c.svg)), "{}", c.svg);
        assert!(md.contains(&format!("]({})", c.png)), "{}", c.png);
    }
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2 * expected.len() + 2, "{files:?}");
    for needle in [
        "Test CPU 9000",
        "0123456789abcdef",
        "bitbench bench --quick",
        "bitbench report test.json",
        "2026-11-22T10:00:00Z",
    ] {
        assert!(index.contains(needle), "index.html lacks {needle}");
        assert!(md.contains(needle), "report.md lacks {needle}");
    }
    // The oracle's skips on empty:20 and empty:24 are explained, not silently
    // dropped, and the sets sharing a reason are listed once with it.
    assert!(index.contains("cost model: oracle needs about 3 h"));
    assert!(
        report.skipped.iter().any(|s| s.contains(
            "cephalopod: no speedup where the oracle `naive` has no timing: \
                 empty:20, empty:24 (default): cost model: oracle needs about 3 h"
        )),
        "{:?}",
        report.skipped
    );
}

#[test]
fn heatmap_has_one_cell_per_rank_depth_record() {
    let dir = out_dir("heatmap");
    let records = cephalopod(0..=4, 6..=12, (3, 9));
    let cells = records
        .iter()
        .filter(|r| r.input_set.starts_with("rank:"))
        .count();
    assert_eq!(cells, 5 * 7 - 1);
    let sources = vec![Source::new("run", "run.json", file(records.clone()))];
    render(&sources, &dir, &options(&[])).unwrap();
    let svg = std::fs::read_to_string(dir.join("cephalopod-heatmap-swar.svg")).unwrap();
    let texts = svg_texts(&svg);
    // Cell values share the style of the error cell's text.
    let (err_attrs, _) = texts
        .iter()
        .find(|(_, c)| c == "err")
        .expect("an error cell");
    let size = attr(err_attrs, "font-size");
    let cell_texts: Vec<&(String, String)> = texts
        .iter()
        .filter(|(a, _)| attr(a, "font-size") == size)
        .collect();
    assert_eq!(cell_texts.len(), cells);
    assert_eq!(
        cell_texts.iter().filter(|(_, c)| c == "–").count(),
        1,
        "one skipped cell"
    );
    let xs: BTreeSet<&str> = cell_texts.iter().map(|(a, _)| attr(a, "x")).collect();
    let ys: BTreeSet<&str> = cell_texts.iter().map(|(a, _)| attr(a, "y")).collect();
    assert_eq!(
        (xs.len(), ys.len()),
        (7, 5),
        "one column per depth, one row per rank"
    );
    let positions: BTreeSet<(&str, &str)> = cell_texts
        .iter()
        .map(|(a, _)| (attr(a, "x"), attr(a, "y")))
        .collect();
    assert_eq!(positions.len(), cells, "no two records share a cell");
    // Rank 0 is the bottom row: its cell (rank 0, depth 6) has the largest y.
    let max_y = ys.iter().map(|y| y.parse::<i32>().unwrap()).max().unwrap();
    let rank0_depth6 = grid_ns(0, 6) / 1e3; // µs, the unit for these values
    let label = texts.iter().find(|(a, c)| {
        attr(a, "font-size") == size
            && c.parse::<f64>()
                .is_ok_and(|v| (v - rank0_depth6).abs() / rank0_depth6 < 0.01)
    });
    let (a, _) = label.expect("rank 0 depth 6 printed in µs");
    assert_eq!(attr(a, "y").parse::<i32>().unwrap(), max_y);
}

#[test]
fn missing_workload_and_metric_render_the_rest_and_say_so() {
    let dir = out_dir("partial");
    // meteor without instruction counts, components without timings, no cephalopod at all.
    let mut records: Vec<_> = components(&["default"], 1.0)
        .into_iter()
        .filter(|r| r.metric != bitbench_reports::Metric::Time)
        .collect();
    records.extend(meteor());
    let sources = vec![Source::new("run", "run.json", file(records))];
    let report = render(
        &sources,
        &dir,
        &options(&["components", "cephalopod", "meteor"]),
    )
    .unwrap();
    let has = |needle: &str| report.skipped.iter().any(|s| s.contains(needle));
    assert!(has("cephalopod: no records"), "{:?}", report.skipped);
    assert!(has("meteor: no instruction counts"), "{:?}", report.skipped);
    assert!(has("components: no timings"), "{:?}", report.skipped);
    let names: Vec<&str> = report.charts.iter().map(|c| c.svg.as_str()).collect();
    assert!(
        names.contains(&"meteor-throughput.svg") && names.contains(&"components-instructions.svg"),
        "{names:?}"
    );
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("cephalopod") || n.starts_with("components-time")),
        "{names:?}"
    );
    let index = std::fs::read_to_string(&report.index).unwrap();
    let md = std::fs::read_to_string(&report.markdown).unwrap();
    for line in &report.skipped {
        let html_line = line.replace('<', "&lt;").replace('>', "&gt;");
        assert!(index.contains(&html_line), "index.html lacks: {line}");
        assert!(md.contains(line.as_str()), "report.md lacks: {line}");
    }
}

#[test]
fn several_files_combine_with_their_labels() {
    let dir = out_dir("combined");
    let before = file(components(&["x86-64", "x86-64-v3"], 1.0));
    let after = file(components(&["x86-64", "x86-64-v3"], 0.5));
    let sources = vec![
        Source::new("before", "before.json", before),
        Source::new("after", "after.json", after),
    ];
    let report = render(&sources, &dir, &options(&[])).unwrap();
    let throughput = std::fs::read_to_string(dir.join("components-throughput.svg")).unwrap();
    let texts: Vec<String> = svg_texts(&throughput).into_iter().map(|(_, c)| c).collect();
    for label in ["before", "after", "x86-64", "x86-64-v3"] {
        assert!(
            texts
                .iter()
                .any(|t| t == label || t.contains(&format!("{label} ")) || t.ends_with(label)),
            "{label}: {texts:?}"
        );
    }
    let density = std::fs::read_to_string(dir.join("components-density.svg")).unwrap();
    let legend: Vec<String> = svg_texts(&density).into_iter().map(|(_, c)| c).collect();
    for v in COMPONENTS {
        for g in ["x86-64 · before", "x86-64-v3 · after"] {
            let want = format!("{v} · {g}");
            assert!(legend.contains(&want), "{want}: {legend:?}");
        }
    }
    // One variant keeps one colour in every chart: the legend swatch of
    // each variant (the last fill drawn before its legend text).
    let speedup = std::fs::read_to_string(dir.join("components-speedup.svg")).unwrap();
    let mut seen = BTreeSet::new();
    for (i, v) in COMPONENTS.iter().enumerate() {
        let label = if i == 0 {
            format!("{v} (oracle)")
        } else {
            (*v).to_owned()
        };
        let colour = legend_fill(&throughput, &label);
        assert_eq!(legend_fill(&speedup, &label), colour, "{v}");
        assert_eq!(
            legend_fill(&density, &format!("{v} · x86-64 · before")),
            colour,
            "{v}"
        );
        assert!(seen.insert(colour), "{v} shares a colour");
    }
    // Two levels in each file: the level view joins the time, sweep and
    // instruction charts.
    let stems: BTreeSet<&str> = report
        .charts
        .iter()
        .map(|c| c.svg.trim_end_matches(".svg"))
        .collect();
    let want: BTreeSet<&str> = [
        "components-throughput",
        "components-time",
        "components-speedup",
        "components-density",
        "components-density-throughput",
        "components-density-speedup",
        "components-instructions",
        "components-levels-throughput",
        "components-levels-speedup",
        "components-levels-instructions",
    ]
    .into();
    assert_eq!(stems, want);
}

/// `report b.json c.json`, a bench file and a count file of one build:
/// no chart draws both files, so none names either (the lines were
/// "naive · b", "swar · b"), and the bars hold no empty group of the other.
#[test]
fn a_count_file_beside_the_bench_file_of_one_build_names_neither() {
    let (times, counts): (Vec<_>, Vec<_>) = components(&["default"], 1.0)
        .into_iter()
        .partition(|r| r.metric == Metric::Time);
    let sources = vec![
        Source::new("b", "b.json", file(times)),
        Source::new("c", "c.json", file(counts)),
    ];
    let dir = out_dir("bench-and-count");
    let report = render(&sources, &dir, &options(&[])).unwrap();
    for c in &report.charts {
        let svg = std::fs::read_to_string(dir.join(&c.svg)).unwrap();
        let texts: Vec<String> = svg_texts(&svg).into_iter().map(|(_, t)| t).collect();
        assert!(
            !texts
                .iter()
                .any(|t| t == "b" || t == "c" || t.ends_with(" · b") || t.contains("results file")),
            "{}: {texts:?}",
            c.svg
        );
    }
    let density = std::fs::read_to_string(dir.join("components-density.svg")).unwrap();
    let legend: Vec<String> = svg_texts(&density).into_iter().map(|(_, t)| t).collect();
    for v in &COMPONENTS[1..] {
        assert!(legend.contains(&(*v).to_owned()), "{v}: {legend:?}");
    }
    assert!(legend.contains(&"variant".to_owned()), "{legend:?}");
}

/// The fill colour of the shape drawn last before the text `label` in an SVG.
fn legend_fill(svg: &str, label: &str) -> String {
    let at = svg
        .find(&format!(">\n{label}\n</text>"))
        .unwrap_or_else(|| panic!("no text {label}"));
    let before = &svg[..svg[..at].rfind("<text").unwrap()];
    let fill = before
        .rfind("fill=\"#")
        .unwrap_or_else(|| panic!("no fill before {label}"));
    before[fill + 6..fill + 13].to_owned()
}

#[test]
fn loading_labels_files_by_name_and_rejects_bad_ones() {
    let dir = out_dir("load");
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::create_dir_all(dir.join("b")).unwrap();
    let f = file(meteor());
    f.write(&dir.join("a/run.json")).unwrap();
    f.write(&dir.join("b/run.json")).unwrap();
    let sources = Source::load(&[dir.join("a/run.json"), dir.join("b/run.json")]).unwrap();
    let labels: Vec<&str> = sources.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["run", "run#2"]);
    std::fs::write(dir.join("bad.json"), "{}").unwrap();
    let err = Source::load(&[dir.join("bad.json")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad.json"), "{err}");
}

#[test]
fn summary_names_the_fastest_variant_per_workload() {
    let mut records = meteor();
    records.extend(cephalopod(0..=1, 6..=7, (9, 9)));
    let sources = vec![Source::new("run", "run.json", file(records))];
    let text = bitbench_reports::summary(&sources);
    let line = |w: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{w} ")))
            .unwrap_or_else(|| panic!("no {w} in\n{text}"))
            .to_owned()
    };
    // islands is 7× faster than naive on both meteor sets.
    assert!(
        line("meteor").contains("islands: 7.0× (no interval: too few samples) over naive"),
        "{text}"
    );
    // swar vs naive only where both were timed (official): 8e6 / 1.5e5.
    assert!(
        line("cephalopod").contains("swar: 53× (no interval: too few samples) over naive"),
        "{text}"
    );
    assert!(
        line("cephalopod")
            .trim_end()
            .ends_with(" 1        0     0        3"),
        "{text}"
    );
}

/// Two variants whose times' ranges overlap tie: the summary names the
/// runner-up beside the fastest rather than a winner that the next run may
/// swap; apart, it names one.
#[test]
fn summary_says_tie_when_the_two_fastest_overlap() {
    let summary_of = |runner_up: f64| {
        let records = [("naive", 1000.0), ("a", 100.0), ("b", runner_up)]
            .map(|(v, t)| rec("w", v, "s", "default", Metric::Time, "ns/input", t))
            .to_vec();
        bitbench_reports::summary(&[Source::new("run", "run.json", file(records))])
    };
    // Samples span 0.95 to 1.1 of the median: 95–110 against 98–113.
    let close = summary_of(103.0);
    assert!(close.contains("a (tie with b): 10× "), "{close}");
    let apart = summary_of(150.0);
    assert!(
        apart.contains("a: 10× ") && !apart.contains("tie"),
        "{apart}"
    );
}

/// With samples kept per round, the summary's speedup carries its 95 %
/// interval, which holds the point estimate.
#[test]
fn summary_speedups_carry_their_interval() {
    let timed = |v: &str, set: &str, centre: f64| {
        let rounds: Vec<Vec<f64>> = (0..3)
            .map(|r| {
                (0..8)
                    .map(|i| centre * (1.0 + 0.01 * f64::from(r * 8 + i % 5)))
                    .collect()
            })
            .collect();
        bitbench_reports::Record {
            rounds,
            ..rec(
                "kernel",
                v,
                set,
                "default",
                Metric::Time,
                "ns/item",
                centre * 1.05,
            )
        }
    };
    let records = vec![
        timed("oracle", "a", 400.0),
        timed("fast", "a", 100.0),
        timed("oracle", "b", 900.0),
        timed("fast", "b", 100.0),
    ];
    let text = bitbench_reports::summary(&[Source::new("run", "run.json", file(records))]);
    let line = text.lines().find(|l| l.starts_with("kernel ")).unwrap();
    let (low, high) = line
        .split("fast: 6.0× (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|i| i.split_once('–'))
        .unwrap_or_else(|| panic!("no interval in {line}"));
    let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
    assert!(low < 6.0 && 6.0 < high && high - low < 2.0, "{line}");
}

#[test]
fn the_fastest_variant_must_cover_the_heavy_sets() {
    // `light` is quickest on the one set it ran, but skipped the heavy one;
    // of the two that ran both, `lean` takes less time in all.
    let t = |v: &str, set: &str, ns: f64| {
        rec(
            "cephalopod",
            v,
            set,
            "default",
            Metric::Time,
            "ns/solve",
            ns,
        )
    };
    let records = vec![
        t("naive", "official:1", 1000.0),
        t("light", "official:1", 10.0),
        t("lean", "official:1", 500.0),
        t("lean", "empty:40", 8.0e7),
        t("broad", "official:1", 20.0),
        t("broad", "empty:40", 7.0e8),
    ];
    let text = bitbench_reports::summary(&[Source::new("run", "run.json", file(records))]);
    let line = text
        .lines()
        .find(|l| l.starts_with("cephalopod "))
        .unwrap_or_else(|| panic!("no cephalopod in\n{text}"));
    assert!(
        line.contains(
            "lean: 2.0× (no interval: too few samples) over naive (on the 1 of 2 sets naive ran)"
        ),
        "{text}"
    );
}

#[test]
fn merged_files_with_the_same_inner_sources_stay_apart() {
    // Two `matrix` files whose records both name their per-level files.
    let tag = |mut records: Vec<bitbench_reports::Record>| {
        for r in &mut records {
            r.source = Some(format!("{}.json", r.target_cpu));
        }
        records
    };
    let before = file(tag(components(&["x86-64", "x86-64-v3"], 1.0)));
    let after = file(tag(components(&["x86-64", "x86-64-v3"], 0.5)));
    let sources = vec![
        Source::new("before", "before.json", before),
        Source::new("after", "after.json", after),
    ];
    let dir = out_dir("merged");
    render(&sources, &dir, &options(&[])).unwrap();
    let svg = std::fs::read_to_string(dir.join("components-density.svg")).unwrap();
    let texts: Vec<String> = svg_texts(&svg).into_iter().map(|(_, c)| c).collect();
    for want in ["swar · x86-64 · before", "swar · x86-64-v3 · after"] {
        assert!(texts.iter().any(|t| t == want), "{want}: {texts:?}");
    }
    // 4 variants × 2 levels × 2 files.
    assert_eq!(texts.iter().filter(|t| t.contains(" · x86-64")).count(), 16);
}

/// A variant that crashed or hung is a finding: its bars and heatmap
/// cells say `crashed` or `hung` (never a time of 0), the summary counts
/// them, and the pages list them first, with their reasons, however many
/// skipped records there are.
#[test]
fn crashed_and_hung_records_are_shown_as_such() {
    let crash = "crashed: segmentation fault (SIGSEGV) on 0x2500810802063824";
    let hang = "did not finish in 10 s on 12345";
    let t = |v: &str, set: &str, ns: f64| {
        rec("kernel", v, set, "default", Metric::Time, "ns/solve", ns)
    };
    let fault = |set: &str, status: Status, reason: &str| {
        not_measured("kernel", "fast", set, "default", status, reason)
    };
    // More skipped records than a page lists, all before the faults.
    let mut records: Vec<bitbench_reports::Record> = (0..70)
        .map(|i| {
            not_measured(
                "quiet",
                "idle",
                &format!("set{i}"),
                "default",
                Status::Skipped,
                "cost model",
            )
        })
        .collect();
    for set in ["a", "b", "c", "d"] {
        records.push(t("base", set, 900.0));
    }
    records.extend([
        t("fast", "a", 100.0),
        fault("b", Status::Crashed, crash),
        fault("c", Status::Hung, hang),
        fault("d", Status::Error, "wrong answer"),
        t("fast", "rank:0 depth:6", 50.0),
        fault("rank:0 depth:7", Status::Crashed, crash),
        fault("rank:1 depth:6", Status::Hung, hang),
        fault("rank:1 depth:7", Status::Hung, hang),
    ]);
    let dir = out_dir("faults");
    let sources = vec![Source::new("run", "run.json", file(records))];
    let report = render(&sources, &dir, &options(&[])).unwrap();

    let texts = |name: &str| -> Vec<String> {
        let svg = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        svg_texts(&svg).into_iter().map(|(_, c)| c).collect()
    };
    for chart in [
        "kernel-time.svg",
        "kernel-throughput.svg",
        "kernel-speedup.svg",
    ] {
        let texts = texts(chart);
        for mark in ["crashed", "hung", "error"] {
            assert_eq!(
                texts.iter().filter(|c| *c == mark).count(),
                1,
                "{mark} in {chart}: {texts:?}"
            );
        }
        // No bar of 0: the only "0" is the axis's first tick.
        assert!(
            texts.iter().filter(|c| *c == "0").count() <= 1 && !texts.iter().any(|c| c == "0×"),
            "{chart}: {texts:?}"
        );
    }
    let cells = texts("kernel-heatmap-fast.svg");
    assert_eq!(
        cells.iter().filter(|c| *c == "crashed").count(),
        1,
        "{cells:?}"
    );
    assert_eq!(
        cells.iter().filter(|c| *c == "hung").count(),
        2,
        "{cells:?}"
    );

    let summary = bitbench_reports::summary(&sources);
    let header = summary.lines().next().unwrap();
    assert!(
        header.contains("errors  crashed  hung  skipped"),
        "{summary}"
    );
    let kernel = summary.lines().find(|l| l.starts_with("kernel ")).unwrap();
    let counts: Vec<&str> = kernel.split_whitespace().rev().take(4).collect();
    assert_eq!(counts, ["0", "3", "2", "1"], "{summary}");

    let index = std::fs::read_to_string(&report.index).unwrap();
    assert!(index.contains("<th>errors</th><th>crashed</th><th>hung</th><th>skipped</th>"));
    assert!(
        index.contains(
            "<td class=\"num\">1</td><td class=\"num\">2</td><td class=\"num\">3</td><td class=\"num\">0</td></tr>"
        ),
        "{index}"
    );
    assert!(
        index.contains(&format!(
            "<td>b</td><td>default</td><td>time</td><td>crashed</td><td>{crash}</td>"
        )),
        "{index}"
    );
    assert!(
        index.contains(&format!(
            "<td>c</td><td>default</td><td>time</td><td>hung</td><td>{hang}</td>"
        )),
        "{index}"
    );
    let md = std::fs::read_to_string(&report.markdown).unwrap();
    assert!(md.contains("| errors | crashed | hung | skipped |"), "{md}");
    assert!(md.contains("| 1 | 2 | 3 | 0 |"), "{md}");
    assert!(
        md.contains(&format!(
            "- run: kernel `fast` on `b` (default, time): {crash}\n"
        )),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "- run: kernel `fast` on `c` (default, time): hung: {hang}\n"
        )),
        "{md}"
    );
    assert!(!md.contains("crashed: crashed"), "{md}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Inputs from 1 µs to 24 ms a time: the time axis reads in ms (its
/// largest time is thousands of µs), and its ticks use one notation, no
/// plain number of a thousand or more beside `k` ones.
#[test]
fn a_time_axis_over_four_decades_reads_in_the_unit_of_its_largest_time() {
    let records: Vec<_> = [
        ("slow", "a", 2.0e3),
        ("fast", "a", 1.0e3),
        ("slow", "b", 24.0e6),
        ("fast", "b", 12.0e6),
    ]
    .iter()
    .map(|&(v, set, ns)| rec("k", v, set, "default", Metric::Time, "ns/input", ns))
    .collect();
    let dir = out_dir("decades");
    let sources = vec![Source::new("run", "run.json", file(records))];
    render(&sources, &dir, &options(&[])).unwrap();
    let svg = std::fs::read_to_string(dir.join("k-time.svg")).unwrap();
    let texts: Vec<String> = svg_texts(&svg).into_iter().map(|(_, c)| c).collect();
    assert!(texts.iter().any(|t| t == "time (ms/input)"), "{texts:?}");
    let plain_thousands = texts
        .iter()
        .filter_map(|t| t.parse::<f64>().ok())
        .any(|v| v >= 1000.0);
    assert!(!plain_thousands, "{texts:?}");
}
