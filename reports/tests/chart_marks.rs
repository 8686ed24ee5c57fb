//! What charts print beside their bars and points, read back from the
//! SVG: value labels clear of the 1× line, and whiskers a reader can see
//! however tight the interval.

mod common;

use bitbench_reports::interval::Interval;
use bitbench_reports::{Metric, Record, ReportOptions, ResultsFile, Source, render};
use common::svg::{attr, shapes, svg_texts};
use common::*;

/// Pixels a label keeps from the line, at least.
const GAP: i32 = 2;
/// The axis ink, which value labels, whiskers and the 1× line are drawn in.
const INK: &str = "stroke=\"#222222\"";

/// Renders `files` (label, file) and returns the report and its directory.
fn rendered(
    name: &str,
    files: Vec<(&str, ResultsFile)>,
) -> (std::path::PathBuf, bitbench_reports::Report) {
    let dir = out_dir(name);
    let sources: Vec<Source> = files
        .into_iter()
        .map(|(label, f)| Source::new(label, format!("{label}.json"), f))
        .collect();
    let report = render(&sources, &dir, &ReportOptions::default()).unwrap();
    (dir, report)
}

fn read(dir: &std::path::Path, svg: &str) -> String {
    std::fs::read_to_string(dir.join(svg)).unwrap_or_else(|e| panic!("{svg}: {e}"))
}

/// Time records of workload `k` on set `a`, one per (variant, ns).
fn timed(variants: &[(&str, f64)]) -> Vec<Record> {
    variants
        .iter()
        .map(|&(v, ns)| with_rounds(rec("k", v, "a", "default", Metric::Time, "ns/input", ns)))
        .collect()
}

/// The printed values of a bar chart: rotated texts ending in `suffix`,
/// as (x, y where the text starts reading upwards, font size, text).
fn value_labels(svg: &str, suffix: &str) -> Vec<(i32, i32, f64, String)> {
    svg_texts(svg)
        .into_iter()
        .filter(|(a, t)| a.contains("rotate(270") && t.ends_with(suffix))
        .filter(|(_, t)| t.trim_end_matches(suffix).parse::<f64>().is_ok())
        .map(|(a, t)| {
            let (x, y) = (
                attr(&a, "x").parse().unwrap(),
                attr(&a, "y").parse().unwrap(),
            );
            (x, y, attr(&a, "font-size").parse().unwrap(), t)
        })
        .collect()
}

/// The y of a bar chart's reference line: its longest horizontal line of
/// stroke 2.
fn reference_line(svg: &str) -> i32 {
    let lines = shapes(svg, "polyline", "points", &[INK, "stroke-width=\"2\""]);
    let (_, points) = lines
        .iter()
        .filter(|(_, p)| p.len() == 2 && p[0].1 == p[1].1)
        .max_by_key(|(_, p)| (p[1].0 - p[0].0).abs())
        .expect("a reference line");
    points[0].1
}

/// Speed-ups of 1.02× and 1.1× just above the line, 0.98× and 0.9× just
/// below it (whose labels, reading up from the bar's end, would cross
/// it), and 3.3× to give the scale room: every label stays clear of the
/// line, and the ones of bars near it sit just above it.
#[test]
fn value_labels_stay_clear_of_the_1x_line() {
    let records = timed(&[
        ("ref", 100.0),
        ("above", 98.0),
        ("well-above", 91.0),
        ("below", 102.0),
        ("well-below", 111.0),
        ("fast", 30.0),
    ]);
    let (dir, _) = rendered("labels-clear", vec![("run", file(records))]);
    let svg = read(&dir, "k-speedup.svg");
    let line = reference_line(&svg);
    let labels = value_labels(&svg, "×");
    assert_eq!(labels.len(), 6, "{labels:?}");
    for (_, y, size, text) in &labels {
        // An em per character is longer than any of these labels.
        let extent = (size * text.chars().count() as f64).ceil() as i32;
        let above = *y + GAP < line - 1;
        let below = *y - extent - GAP > line + 1;
        assert!(
            above || below,
            "{text} from y {y} up {extent} px crosses the line at {line}"
        );
        let value: f64 = text.trim_end_matches('×').parse().unwrap();
        if value != 1.0 && (0.85..1.15).contains(&value) {
            assert!(
                line - y < 20,
                "{text} at {y} is far from its bar (line at {line})"
            );
        }
    }
}

/// A time whose 95 % interval is a single value draws a whisker all the
/// same: a stem of 6 px at least and caps of 10 px, in strokes of 2 px.
#[test]
fn a_tight_interval_still_draws_a_visible_whisker() {
    let records: Vec<Record> = timed(&[("slow", 200.0), ("fast", 100.0)])
        .into_iter()
        .map(|r| Record {
            interval: Some(Interval {
                low: r.median,
                high: r.median,
            }),
            ..r
        })
        .collect();
    let (dir, _) = rendered("whiskers", vec![("run", file(records))]);
    let svg = read(&dir, "k-time.svg");
    let strokes = shapes(&svg, "polyline", "stroke-width", &[INK]);
    let labels = value_labels(&svg, "");
    assert_eq!(labels.len(), 2, "{labels:?}");
    for (mid, _, _, text) in labels {
        let (width, stem) = strokes
            .iter()
            .find(|(_, p)| p.len() == 2 && p[0].0 == mid && p[1].0 == mid)
            .unwrap_or_else(|| panic!("{text}: no whisker at x {mid}"));
        let (top, bottom) = (stem[0].1.min(stem[1].1), stem[0].1.max(stem[1].1));
        assert!(bottom - top >= 6, "{text}: stem {top}..{bottom}");
        assert!(
            width.parse::<u32>().unwrap() >= 2,
            "{text}: stem stroke {width}"
        );
        for end in [top, bottom] {
            let (width, cap) = strokes
                .iter()
                .find(|(_, p)| {
                    p.len() == 2 && p[0].1 == end && p[1].1 == end && p[0].0 < mid && mid < p[1].0
                })
                .unwrap_or_else(|| panic!("{text}: no cap at y {end}"));
            assert!(cap[1].0 - cap[0].0 >= 10, "{text}: cap {cap:?}");
            assert!(
                width.parse::<u32>().unwrap() >= 2,
                "{text}: cap stroke {width}"
            );
        }
    }
}
