//! Every time figure says how far it can be trusted: line charts of time,
//! throughput and speed-up draw each point's 95 % interval as a band
//! around the line (never around an exact count), throughput names its
//! unit in the plural, and the pages mark the records a busy or noisy
//! machine measured.

mod common;

use bitbench_reports::disturbance::Purpose;
use bitbench_reports::{Disturbance, Metric, Record, ReportOptions, Source, render_for};
use common::svg::shapes;
use common::*;
use std::collections::BTreeMap;
use std::path::Path;

/// The translucent bands of a line chart, by colour.
fn bands(svg: &str) -> Vec<(String, Vec<(i32, i32)>)> {
    shapes(svg, "polygon", "fill", &["opacity=\"0.18\""])
}

/// Asserts that every band of `chart` spans its line at each of the
/// line's points, and returns how many bands there are.
fn bands_hold_their_lines(dir: &Path, chart: &str) -> usize {
    let svg = std::fs::read_to_string(dir.join(chart)).unwrap();
    let lines = shapes(&svg, "polyline", "stroke", &["stroke-width=\"2\""]);
    let bands = bands(&svg);
    for (colour, outline) in &bands {
        let mut span: BTreeMap<i32, (i32, i32)> = BTreeMap::new();
        for &(x, y) in outline {
            let s = span.entry(x).or_insert((y, y));
            *s = (s.0.min(y), s.1.max(y));
        }
        let (_, line) = lines
            .iter()
            .find(|(c, _)| c == colour)
            .unwrap_or_else(|| panic!("{chart}: no line of the band's colour {colour}"));
        for (x, y) in line {
            let (top, bottom) = span[x];
            assert!(
                top <= *y && *y <= bottom,
                "{chart}: {colour} at x {x}: line at {y}, band {top}..{bottom}"
            );
        }
    }
    bands.len()
}

fn rendered(records: Vec<Record>, name: &str) -> (std::path::PathBuf, bitbench_reports::Report) {
    rendered_for(records, name, Purpose::default())
}

/// [`rendered`], the records being for `purpose`.
fn rendered_for(
    records: Vec<Record>,
    name: &str,
    purpose: Purpose,
) -> (std::path::PathBuf, bitbench_reports::Report) {
    let dir = out_dir(name);
    let sources = vec![Source::new("run", "run.json", file(records))];
    let report = render_for(&sources, &dir, &ReportOptions::default(), purpose).unwrap();
    (dir, report)
}

#[test]
fn line_charts_of_time_draw_each_interval_as_a_band_around_the_line() {
    let records: Vec<Record> = components(&["default"], 1.0)
        .into_iter()
        .map(with_rounds)
        .collect();
    let (dir, report) = rendered(records, "bands");
    // Four variants: a band each for time and throughput; the speed-up
    // of the oracle over itself has none.
    assert_eq!(bands_hold_their_lines(&dir, "components-density.svg"), 4);
    assert_eq!(
        bands_hold_their_lines(&dir, "components-density-throughput.svg"),
        4
    );
    assert_eq!(
        bands_hold_their_lines(&dir, "components-density-speedup.svg"),
        3
    );
    for stem in ["components-density", "components-density-speedup"] {
        let chart = report
            .charts
            .iter()
            .find(|c| c.svg == format!("{stem}.svg"))
            .unwrap();
        assert!(chart.caption.contains("95% interval"), "{}", chart.caption);
        let svg = std::fs::read_to_string(dir.join(&chart.svg)).unwrap();
        assert!(svg.contains("band: 95% interval"), "{stem}");
    }
}

/// Without samples a time keeps its min–max band, as its bar keeps its
/// min–max whisker, but a speed-up gets none (its interval needs both
/// records' samples), and an exact count never gets one.
#[test]
fn without_samples_only_times_get_a_band_and_counts_never_do() {
    let mut records = components(&["default"], 1.0);
    records.extend(records.clone().into_iter().map(|r| Record {
        metric: Metric::Instructions,
        unit: "instructions/board".into(),
        ..with_rounds(r)
    }));
    let (dir, _) = rendered(records, "bands-min-max");
    assert_eq!(bands_hold_their_lines(&dir, "components-density.svg"), 4);
    assert_eq!(
        bands_hold_their_lines(&dir, "components-density-speedup.svg"),
        0
    );
    assert_eq!(
        bands_hold_their_lines(&dir, "components-density-instructions.svg"),
        0
    );
}

#[test]
fn throughput_names_its_unit_in_the_plural() {
    let timed = |workload: &str, unit: &str, plural: Option<&str>, v: &str, ns: f64| Record {
        unit_plural: plural.map(str::to_owned),
        ..rec(workload, v, "mixed", "default", Metric::Time, unit, ns)
    };
    let records = vec![
        // An older file: the plural follows from `matrix`.
        timed("transpose", "ns/matrix", None, "naive", 200.0),
        timed("transpose", "ns/matrix", None, "delta-swap", 50.0),
        // A newer one names it.
        timed("go", "ns/board", Some("boards"), "naive", 200.0),
        timed("go", "ns/board", Some("boards"), "fast", 50.0),
    ];
    let (dir, report) = rendered(records, "plural");
    for (workload, plural) in [("transpose", "matrices"), ("go", "boards")] {
        let chart = report
            .charts
            .iter()
            .find(|c| c.svg == format!("{workload}-throughput.svg"))
            .unwrap();
        assert!(
            chart
                .caption
                .contains(&format!("million {plural} per second")),
            "{}",
            chart.caption
        );
        let svg = std::fs::read_to_string(dir.join(&chart.svg)).unwrap();
        assert!(
            svg.contains(&format!("throughput (M {plural}/s)")),
            "{workload}"
        );
        assert!(!svg.contains("matrixs") && !svg.contains("boardss"));
    }
}

#[test]
fn level_bars_say_what_their_whiskers_are() {
    let records: Vec<Record> = components(&["x86-64", "x86-64-v3"], 1.0)
        .into_iter()
        .map(with_rounds)
        .collect();
    let (_, report) = rendered(records, "level-whiskers");
    for stem in ["components-levels-throughput", "components-levels-speedup"] {
        let chart = report
            .charts
            .iter()
            .find(|c| c.svg == format!("{stem}.svg"))
            .unwrap();
        assert!(
            chart
                .caption
                .contains("whiskers: the 95% interval of that geometric mean"),
            "{stem}: {}",
            chart.caption
        );
    }
}

/// A record with 40 of its 100 samples set aside was measured on a busy
/// machine for figures to gate against: both pages say so at the top and
/// list it with why; a report of quiet records, or of a quick run's
/// ranking of variants (the main job's), says nothing of the kind.
#[test]
fn the_pages_mark_records_a_busy_machine_measured() {
    let busy = |set_aside: u32| {
        let mut records = meteor();
        for r in records.iter_mut().filter(|r| r.metric == Metric::Time) {
            r.disturbance = Some(Disturbance {
                taken: 100,
                set_aside: if r.variant == "bitmask" && r.input_set == "full" {
                    set_aside
                } else {
                    1
                },
                probe: "rusage".into(),
            });
        }
        records
    };
    let (_, report) = rendered(busy(40), "busy");
    let index = std::fs::read_to_string(&report.index).unwrap();
    let md = std::fs::read_to_string(&report.markdown).unwrap();
    for page in [&index, &md] {
        assert!(
            page.contains("⚠ 1 time record was measured on a busy or noisy machine"),
            "{page}"
        );
        assert!(page.contains("40 of 100 samples disturbed"), "{page}");
        assert!(page.contains("Records that may not hold"), "{page}");
    }
    assert!(
        index.contains("<tr><td>⚠</td><td>run</td><td>meteor</td><td>bitmask</td><td>full</td>"),
        "{index}"
    );
    assert!(index.contains("<tr><td>meteor ⚠</td>"), "{index}");
    assert!(
        md.contains("| ⚠ | run | meteor | `bitmask` | `full` | default |"),
        "{md}"
    );
    assert!(md.contains("| meteor ⚠ |"), "{md}");

    let (_, quiet) = rendered(busy(1), "quiet");
    let (_, ranking) = rendered_for(busy(40), "ranking", Purpose::Ranking);
    for page in [
        &quiet.index,
        &quiet.markdown,
        &ranking.index,
        &ranking.markdown,
    ] {
        let text = std::fs::read_to_string(page).unwrap();
        assert!(!text.contains('⚠'), "{text}");
        assert!(!text.contains("busy or noisy"), "{text}");
    }
}
