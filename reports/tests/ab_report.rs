//! The report of an `ab` results file (`tests/data/ab.json`, shaped as
//! `ab --binaries` writes one: each build's time record labelled by its
//! side, B's carrying the pairs' ratios) draws the change B ÷ A per record
//! and the pairs, never a speedup or throughput of a variant over itself.

mod common;

use bitbench_reports::{ReportOptions, Source, render};
use common::out_dir;
use common::svg::{attr, shapes, svg_texts};
use std::path::{Path, PathBuf};

/// The colour of the first variant, which the A/B charts draw in.
const FIRST: &str = "#000000";

fn ab_report(name: &str) -> (PathBuf, bitbench_reports::Report) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ab.json");
    let sources = Source::load(&[path]).unwrap();
    let dir = out_dir(name);
    let report = render(&sources, &dir, &ReportOptions::default()).unwrap();
    (dir, report)
}

fn texts(dir: &Path, svg: &str) -> Vec<(String, String)> {
    svg_texts(&std::fs::read_to_string(dir.join(svg)).unwrap())
}

#[test]
fn an_ab_file_draws_the_change_and_the_pairs_not_a_speedup_over_itself() {
    let (dir, report) = ab_report("ab-charts");
    let stems: Vec<&str> = report.charts.iter().map(|c| c.svg.as_str()).collect();
    assert_eq!(
        stems,
        [
            "popcount-time.svg",
            "popcount-ab-change.svg",
            "popcount-ab-pairs.svg"
        ]
    );
    for c in &report.charts {
        assert!(!c.title.contains("speedup"), "{}", c.title);
        let printed: Vec<String> = texts(&dir, &c.svg).into_iter().map(|(_, t)| t).collect();
        assert!(
            !printed
                .iter()
                .any(|t| t.contains("speedup") || t.ends_with('×')),
            "{}: {printed:?}",
            c.svg
        );
        assert_eq!(
            printed.last().map(String::as_str),
            Some("machine: Test CPU 9000, 2 cores · load average 0.42 → 1.37"),
            "{}",
            c.svg
        );
    }
    assert!(
        report
            .skipped
            .iter()
            .any(|s| s.starts_with("popcount: A/B results: no throughput or speedup charts")),
        "{:?}",
        report.skipped
    );
    let change: Vec<String> = texts(&dir, "popcount-ab-change.svg")
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    for expected in [
        "popcount: A/B change per record (B ÷ A)",
        "A popcount-a → B popcount-b; median of the paired ratios; bars: 95 % interval",
        "loop · short",
        "loop · long",
        "B ÷ A (1 = no change; right of 1: B slower)",
    ] {
        assert!(
            change.iter().any(|t| t == expected),
            "{expected}: {change:?}"
        );
    }
}

/// The change chart: a line at 1 across the rows and each record's
/// interval as a whisker, the tight one (1.0001 to 1.0003) still 6 px
/// long with caps past the marker; the pairs chart: a dot per pair.
#[test]
fn the_change_has_its_line_at_1_and_visible_intervals_and_every_pair_is_a_dot() {
    let (dir, _) = ab_report("ab-marks");
    let svg = std::fs::read_to_string(dir.join("popcount-ab-change.svg")).unwrap();
    let one = texts(&dir, "popcount-ab-change.svg")
        .into_iter()
        .find(|(_, t)| t == "1")
        .map(|(a, _)| attr(&a, "x").parse::<i32>().unwrap())
        .expect("a tick at 1");
    let ink = shapes(
        &svg,
        "polyline",
        "points",
        &["stroke=\"#222222\"", "stroke-width=\"2\""],
    );
    assert!(
        ink.iter().any(|(_, p)| p.len() == 2
            && p[0].0 == one
            && p[1].0 == one
            && (p[1].1 - p[0].1).abs() > 40),
        "no line at 1 (x {one}): {ink:?}"
    );
    let strokes = shapes(
        &svg,
        "polyline",
        "points",
        &[&format!("stroke=\"{FIRST}\""), "stroke-width=\"2\""],
    );
    let stems: Vec<&Vec<(i32, i32)>> = strokes
        .iter()
        .map(|(_, p)| p)
        .filter(|p| p.len() == 2 && p[0].1 == p[1].1)
        .collect();
    assert_eq!(stems.len(), 2, "{strokes:?}");
    for stem in stems {
        let (a, b) = (stem[0].0.min(stem[1].0), stem[0].0.max(stem[1].0));
        assert!(b - a >= 6, "stem {stem:?}");
        for end in [a, b] {
            let cap = strokes
                .iter()
                .map(|(_, p)| p)
                .find(|p| p.len() == 2 && p[0].0 == end && p[1].0 == end)
                .unwrap_or_else(|| panic!("no cap at x {end}"));
            assert!(
                (cap[1].1 - cap[0].1).abs() >= 16,
                "cap {cap:?} shorter than past the marker"
            );
        }
    }
    let pairs = std::fs::read_to_string(dir.join("popcount-ab-pairs.svg")).unwrap();
    let dots = pairs
        .split("<rect ")
        .skip(1)
        .filter(|r| {
            r.split('>')
                .next()
                .unwrap()
                .contains(&format!("fill=\"{FIRST}\""))
        })
        .count();
    assert_eq!(dots, 16, "one dot per pair of the two records");
}
