//! Results of any shape get every metric's charts: a synthetic two-level
//! file, shaped like `matrix --count` writes it (bench and count records
//! at each level, a swept parameter and a plain set), gets time,
//! throughput, speedup and instructions over the sweep, the level view,
//! legends without file names, and a report.md naming each level's
//! speed-up over x86-64.

mod common;

use bitbench_reports::{
    Build, Machine, Metric, Parameter, Record, ReportOptions, ResultsFile, Source, Status, render,
};
use common::{out_dir, rec};
use std::collections::BTreeSet;

const LEVELS: [&str; 2] = ["x86-64", "x86-64-v3"];
const VARIANTS: [&str; 2] = ["bit-loop", "lookup"];
const SIZES: [f64; 3] = [1024.0, 4096.0, 16384.0];

/// `r` on the sweep point `size` = `value`, tagged with its per-level
/// file as `matrix` used to tag records.
fn at(mut r: Record, size: Option<f64>, file: &str) -> Record {
    r.oracle = Some(VARIANTS[0].into());
    r.source = Some(format!("{file}-{}.json", r.target_cpu));
    if let Some(value) = size {
        r.parameters = vec![Parameter {
            name: "bytes".into(),
            value,
            meaning: None,
        }];
    }
    r
}

/// Times at v3 are half those at x86-64, instructions 0.8 of them.
fn two_levels() -> ResultsFile {
    let mut file = ResultsFile::new(
        "2026-11-26T10:00:00Z".into(),
        "bitbench matrix --levels x86-64,x86-64-v3 --count".into(),
        Machine::default(),
        Build::default(),
    );
    for (l, level) in LEVELS.iter().enumerate() {
        let speed = if l == 0 { 1.0 } else { 0.5 };
        let fewer = if l == 0 { 1.0 } else { 0.8 };
        for (i, v) in VARIANTS.iter().enumerate() {
            let ns = 0.4 * speed / (1.0 + 9.0 * i as f64);
            let sets = SIZES
                .iter()
                .map(|s| (format!("bytes:{s}"), Some(*s)))
                .chain([("mixed".to_owned(), None)]);
            for (set, size) in sets {
                let time = rec("popcount", v, &set, level, Metric::Time, "ns/byte", ns);
                file.records.push(at(time, size, "bench"));
                let count = rec(
                    "popcount",
                    v,
                    &set,
                    level,
                    Metric::Instructions,
                    "instructions/byte",
                    3.0 * fewer / (1.0 + i as f64),
                );
                file.records.push(at(count, size, "count"));
            }
        }
    }
    file
}

fn texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let rest = t.split_once('>').unwrap().1;
            rest.split("</text>").next().unwrap().trim().to_owned()
        })
        .collect()
}

#[test]
fn a_two_level_file_gets_every_chart_and_the_level_view() {
    let dir = out_dir("levels");
    let sources = vec![Source::new("matrix", "matrix.json", two_levels())];
    let options = ReportOptions {
        command: "bitbench report matrix.json".into(),
        expected_workloads: vec!["popcount".into()],
        ..Default::default()
    };
    let report = render(&sources, &dir, &options).unwrap();
    let stems: BTreeSet<String> = report
        .charts
        .iter()
        .map(|c| c.svg.trim_end_matches(".svg").to_owned())
        .collect();
    for want in [
        // The plain set's bars.
        "popcount-throughput",
        "popcount-time",
        "popcount-speedup",
        "popcount-instructions",
        // Every metric over the sweep.
        "popcount-bytes",
        "popcount-bytes-throughput",
        "popcount-bytes-speedup",
        "popcount-bytes-instructions",
        // The level view.
        "popcount-levels-throughput",
        "popcount-levels-speedup",
        "popcount-levels-instructions",
    ] {
        assert!(stems.contains(want), "no {want} in {stems:?}");
    }
    // Legends name what differs (variant, level), never the per-level files.
    for c in &report.charts {
        let svg = std::fs::read_to_string(dir.join(&c.svg)).unwrap();
        let all = texts(&svg);
        assert!(
            !all.iter()
                .any(|t| t.contains(".json") || t.contains("matrix")),
            "{}: {all:?}",
            c.svg
        );
    }
    let sweep = texts(&std::fs::read_to_string(dir.join("popcount-bytes.svg")).unwrap());
    for v in VARIANTS {
        for level in LEVELS {
            let want = format!("{v} · {level}");
            assert!(sweep.contains(&want), "{want}: {sweep:?}");
        }
    }
    // Each variant is 2× faster at v3: the speed-up bars say so, and only
    // the non-baseline level has bars.
    let speedup = texts(&std::fs::read_to_string(dir.join("popcount-levels-speedup.svg")).unwrap());
    assert_eq!(
        speedup.iter().filter(|t| *t == "2×").count(),
        VARIANTS.len(),
        "{speedup:?}"
    );
    assert!(speedup.contains(&"x86-64-v3".to_owned()), "{speedup:?}");
    assert!(!speedup.contains(&"x86-64".to_owned()), "{speedup:?}");
    let md = std::fs::read_to_string(&report.markdown).unwrap();
    assert!(
        md.contains("Speed-up over x86-64") && md.contains("x86-64-v3 2.00× (2 variants)"),
        "{md}"
    );
    // The level table: bit-loop at 400 ps on x86-64, 200 ps (2×) on v3.
    assert!(md.contains("| bit-loop | 400ps | 200ps (2.00×) |"), "{md}");
    assert!(!md.contains("no instruction counts"), "{md}");
    assert!(!md.contains("per-set bar charts skipped"), "{md}");
}

#[test]
fn one_level_gets_no_level_view() {
    let mut file = two_levels();
    file.records.retain(|r| r.target_cpu == LEVELS[0]);
    let dir = out_dir("one-level");
    let sources = vec![Source::new("bench", "bench.json", file)];
    let report = render(&sources, &dir, &ReportOptions::default()).unwrap();
    assert!(
        !report.charts.iter().any(|c| c.svg.contains("levels")),
        "{:?}",
        report.charts.iter().map(|c| &c.svg).collect::<Vec<_>>()
    );
    let md = std::fs::read_to_string(&report.markdown).unwrap();
    assert!(!md.contains("Target-cpu levels"), "{md}");
}

/// A variant that crashed on every set at one level has no figure there:
/// its level bar says `crashed`, not `not run`.
#[test]
fn a_level_where_a_variant_crashed_says_so() {
    let mut file = two_levels();
    for r in file.records.iter_mut().filter(|r| {
        r.variant == VARIANTS[1] && r.target_cpu == LEVELS[1] && r.metric == Metric::Time
    }) {
        r.status = Status::Crashed;
        r.reason = Some("crashed: illegal instruction (SIGILL) on 0x1f".into());
        (r.median, r.mad, r.min, r.max, r.samples) = (0.0, 0.0, 0.0, 0.0, 0);
    }
    let dir = out_dir("levels-crashed");
    let sources = vec![Source::new("matrix", "matrix.json", file)];
    render(&sources, &dir, &ReportOptions::default()).unwrap();
    for chart in ["popcount-levels-throughput", "popcount-levels-speedup"] {
        let all = texts(&std::fs::read_to_string(dir.join(format!("{chart}.svg"))).unwrap());
        assert_eq!(
            all.iter().filter(|t| *t == "crashed").count(),
            1,
            "{chart}: {all:?}"
        );
        assert!(!all.iter().any(|t| t == "not run"), "{chart}: {all:?}");
    }
}

/// With cycles beside the counts, the pages show instructions per cycle
/// at each level and by level, and no doubt about the features seen when
/// the file's processes saw one CPU.
#[test]
fn cycles_beside_counts_give_ipc_at_each_level_and_by_level() {
    let mut file = two_levels();
    let cycles: Vec<Record> = (file.records.iter())
        .filter(|r| r.metric == Metric::Time)
        .map(|r| Record {
            metric: Metric::Cycles,
            unit: "cycles/byte".into(),
            median: r.median * 2.0,
            ..r.clone()
        })
        .collect();
    file.records.extend(cycles);
    file.machine.detected_features = Some(vec!["avx2".into()]);
    let dir = out_dir("levels-ipc");
    let sources = vec![Source::new("matrix", "matrix.json", file)];
    let report = render(&sources, &dir, &ReportOptions::default()).unwrap();
    let md = std::fs::read_to_string(&report.markdown).unwrap();
    // bit-loop: 3 instructions over 0.8 cycles a byte at x86-64, 2.4
    // over 0.4 at v3; lookup a tenth of the time, half the instructions.
    for row in [
        "### popcount, x86-64\n\n| variant | bytes:1024 | bytes:4096 | bytes:16384 | mixed |",
        "| bit-loop | 3.75 | 3.75 | 3.75 | 3.75 |",
        "| lookup | 18.75 | 18.75 | 18.75 | 18.75 |",
        "### popcount, x86-64-v3",
        "| lookup | 30.00 | 30.00 | 30.00 | 30.00 |",
        "### popcount, by level",
        "| bit-loop | 3.75 | 6.00 |",
    ] {
        assert!(md.contains(row), "{row:?} not in\n{md}");
    }
    assert!(!md.contains("did not see"), "{md}");
    let html = std::fs::read_to_string(&report.index).unwrap();
    assert!(html.contains("<h3>popcount, by level</h3>"), "{html}");
    assert!(html.contains("<td class=\"num\">6.00</td>"), "{html}");
}
