//! What charts print beside their bars and points, read back from the
//! SVG: value labels clear of the 1× line, whiskers a reader can see
//! however tight the interval, and a footer naming the machine and its
//! load on every chart.

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

/// The footer of every chart of a report: the last and smallest text.
fn footers(dir: &std::path::Path, report: &bitbench_reports::Report) -> Vec<String> {
    report
        .charts
        .iter()
        .map(|c| {
            let texts = svg_texts(&read(dir, &c.svg));
            let number = |a: &str, name: &str| attr(a, name).parse::<f64>().unwrap();
            let (attrs, footer) = texts.last().unwrap();
            for (a, t) in &texts[..texts.len() - 1] {
                assert!(
                    number(a, "y") < number(attrs, "y"),
                    "{}: {t} below the footer",
                    c.svg
                );
                assert!(
                    number(a, "font-size") > number(attrs, "font-size"),
                    "{}: {t}",
                    c.svg
                );
            }
            footer.clone()
        })
        .collect()
}

fn with_load(mut f: ResultsFile, model: &str, cores: usize, load: (f64, f64)) -> ResultsFile {
    f.machine.cpu_model = model.into();
    f.machine.cores = cores;
    (f.machine.load_start, f.machine.load_end) = (Some(load.0), Some(load.1));
    f
}

#[test]
fn every_chart_names_its_machine_and_load_in_a_footer() {
    let run = with_load(
        file(components(&["default"], 1.0)),
        "Test CPU 9000",
        2,
        (0.42, 1.37),
    );
    let (dir, report) = rendered("footer", vec![("run", run)]);
    assert!(report.charts.len() >= 5, "{:?}", report.charts);
    for footer in footers(&dir, &report) {
        assert_eq!(
            footer,
            "machine: Test CPU 9000, 2 cores · load average 0.42 → 1.37"
        );
    }
}

#[test]
fn a_footer_names_each_machine_once_and_omits_a_load_never_read() {
    let a = with_load(file(timed(&[("x", 10.0)])), "Test CPU 9000", 2, (0.42, 0.5));
    let b = with_load(file(timed(&[("y", 20.0)])), "Big CPU", 64, (2.5, 2.0));
    let (dir, report) = rendered(
        "footer-machines",
        vec![("a", a.clone()), ("a2", a), ("b", b)],
    );
    for footer in footers(&dir, &report) {
        assert_eq!(
            footer,
            "machines: Test CPU 9000, 2 cores; Big CPU, 64 cores · load average 0.42–2.50 over 3 runs"
        );
    }
    let (dir, report) = rendered("footer-no-load", vec![("run", file(timed(&[("x", 10.0)])))]);
    for footer in footers(&dir, &report) {
        assert_eq!(footer, "machine: Test CPU 9000, 2 cores");
    }
}
