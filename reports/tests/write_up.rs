//! The charts of an outside crate's byte sweep as a write-up needs them,
//! read back from the SVG and the pages the report writes: the size axis
//! ticks in binary units at powers of two within the data, a time spanning
//! more than a decade and a half goes on a log axis, every line reads on
//! white, the table under a chart holds the results' medians, and an A/B
//! of fourteen sizes fits a screen, its changes ordered, coloured by
//! verdict and set against the threshold.

mod common;

use bitbench_reports::compare::Verdict;
use bitbench_reports::interval::Interval;
use bitbench_reports::numbers::sig3;
use bitbench_reports::{
    Machine, Metric, Paired, Parameter, Record, ReportOptions, ResultsFile, Source, render,
};
use common::svg::{attr, shapes, svg_texts};
use common::{out_dir, rec, with_rounds};

/// Fourteen buffer sizes, 8 B to 1 MiB, as the encoders swept.
const SIZES: [f64; 14] = [
    8.0,
    16.0,
    32.0,
    64.0,
    128.0,
    256.0,
    512.0,
    1024.0,
    2048.0,
    4096.0,
    16384.0,
    65536.0,
    262_144.0,
    1_048_576.0,
];

/// Time per byte of `variant` at `bytes`: a call cost of 24 ns spread over
/// the buffer plus `per_byte`, so small buffers cost up to 3.1 ns a byte
/// and large ones `per_byte`.
fn ns_per_byte(per_byte: f64, bytes: f64) -> f64 {
    per_byte + 24.0 / bytes
}

const VARIANTS: [(&str, f64); 5] = [
    ("scalar", 0.31),
    ("table", 0.17),
    ("sse", 0.087),
    ("avx2", 0.05),
    ("memchr", 0.12),
];

fn timed(variant: &str, bytes: f64, ns: f64) -> Record {
    Record {
        oracle: Some("scalar".into()),
        parameters: vec![Parameter {
            name: "bytes".into(),
            value: bytes,
            meaning: None,
        }],
        ..with_rounds(rec(
            "hex",
            variant,
            &format!("size:{bytes}"),
            "default",
            Metric::Time,
            "ns/byte",
            ns,
        ))
    }
}

fn file(records: Vec<Record>) -> ResultsFile {
    ResultsFile {
        date: "2026-12-04T10:00:00Z".into(),
        machine: Machine {
            name: "lab".into(),
            cpu_model: "Test CPU 9000".into(),
            cores: 2,
            ..Machine::default()
        },
        records,
        ..ResultsFile::default()
    }
}

fn sweep() -> ResultsFile {
    file(
        VARIANTS
            .iter()
            .flat_map(|&(v, per_byte)| {
                SIZES
                    .iter()
                    .map(move |&b| timed(v, b, ns_per_byte(per_byte, b)))
            })
            .collect(),
    )
}

fn rendered(name: &str, f: ResultsFile) -> (std::path::PathBuf, bitbench_reports::Report) {
    let dir = out_dir(name);
    let sources = vec![Source::new("lab", "lab.json", f)];
    let report = render(&sources, &dir, &ReportOptions::default()).unwrap();
    (dir, report)
}

fn read(dir: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// Tick labels, each with its position along its axis.
type Ticks = Vec<(String, i32)>;

/// The tick labels under the plot (the x axis) and left of it (the y
/// axis).
fn ticks(svg: &str) -> (Ticks, Ticks) {
    let texts = svg_texts(svg);
    let num = |a: &str, n: &str| attr(a, n).parse::<f64>().unwrap() as i32;
    // The x axis's labels share the lowest row of single-line tick texts.
    let under: Vec<(String, i32, i32)> = texts
        .iter()
        .filter(|(a, t)| a.contains("font-size=\"12") && !t.is_empty())
        .map(|(a, t)| (t.clone(), num(a, "x"), num(a, "y")))
        .collect();
    let row = under.iter().map(|t| t.2).max().unwrap();
    let x = under
        .iter()
        .filter(|t| t.2 == row)
        .map(|t| (t.0.clone(), t.1))
        .collect();
    let y = under
        .iter()
        .filter(|t| t.2 != row && t.0.parse::<f64>().is_ok())
        .map(|t| (t.0.clone(), t.2))
        .collect();
    (x, y)
}

/// WCAG's contrast of `#rrggbb` against white.
fn contrast_on_white(hex: &str) -> f64 {
    let c = |i: usize| {
        let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5);
    1.05 / (l + 0.05)
}

#[test]
fn a_byte_sweep_ticks_powers_of_two_on_a_log_time_axis() {
    let (dir, _) = rendered("write-up-sweep", sweep());
    let svg = read(&dir, "hex-bytes.svg");
    let (x, y) = ticks(&svg);
    let labels: Vec<&str> = x.iter().map(|t| t.0.as_str()).collect();
    assert_eq!(
        labels,
        [
            "8 B", "64 B", "512 B", "4 KiB", "32 KiB", "256 KiB", "1 MiB"
        ]
    );
    // The axis spans the data with a small margin: 8 B sits near, not on,
    // the plot's left edge, and no spare decade follows 1 MiB.
    let xs: Vec<i32> = x.iter().map(|t| t.1).collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{x:?}");
    // A log axis: equal ratios take equal room (0.1 to 1 as 0.2 to 2), and
    // a linear axis would never tick 0.05, 0.1, 0.2 and 0.5.
    let at = |label: &str| {
        y.iter()
            .find(|t| t.0 == label)
            .unwrap_or_else(|| panic!("no {label} tick: {y:?}"))
            .1
    };
    assert!(
        ((at("0.1") - at("1")) - (at("0.2") - at("2"))).abs() <= 1,
        "{y:?}"
    );
    assert!(
        ((at("0.1") - at("0.2")) - (at("1") - at("2"))).abs() <= 1,
        "{y:?}"
    );
    // Every drawn line reads on white.
    let lines = shapes(&svg, "polyline", "stroke", &["stroke-width=\"2\""]);
    assert!(lines.len() >= VARIANTS.len());
    for (stroke, _) in &lines {
        assert!(
            contrast_on_white(stroke) >= 3.0,
            "{stroke}: {:.2}",
            contrast_on_white(stroke)
        );
    }
}

#[test]
fn the_table_under_a_sweep_holds_the_results_medians() {
    let f = sweep();
    let (dir, _) = rendered("write-up-table", f.clone());
    let md = read(&dir, "report.md");
    let after = md
        .split("![hex: time per byte against bytes]")
        .nth(1)
        .expect("the time chart in report.md");
    let table: Vec<&str> = after
        .lines()
        .skip_while(|l| !l.starts_with("| variant |"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    let header: Vec<&str> = table[0].split('|').map(str::trim).collect();
    assert_eq!(
        &header[2..16],
        [
            "8 B", "16 B", "32 B", "64 B", "128 B", "256 B", "512 B", "1 KiB", "2 KiB", "4 KiB",
            "16 KiB", "64 KiB", "256 KiB", "1 MiB"
        ]
    );
    assert_eq!(table.len(), 2 + VARIANTS.len());
    for row in &table[2..] {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let variant = cells[1];
        for (i, &bytes) in SIZES.iter().enumerate() {
            let r = f
                .records
                .iter()
                .find(|r| r.variant == variant && r.parameters[0].value == bytes)
                .unwrap();
            let i95 = r.interval.unwrap();
            let expected = format!("{} ({}–{})", sig3(r.median), sig3(i95.low), sig3(i95.high));
            assert_eq!(cells[2 + i], expected, "{variant} at {bytes} B");
        }
    }
    let html = read(&dir, "index.html");
    assert!(html.contains("<details class=\"figures\"><summary>Figures: time (ns/byte)"));
}

/// An A/B of the sweep: B's record of each size carries its pairs, the
/// threshold and the verdict (slower at the small sizes, faster at the
/// large, unchanged between).
fn ab() -> ResultsFile {
    ab_of(true)
}

/// [`ab`], its records carrying their `bytes` parameter or (`swept`
/// false) none, as plain input sets.
fn ab_of(swept: bool) -> ResultsFile {
    let mut records = Vec::new();
    for (k, &bytes) in SIZES.iter().enumerate() {
        let ns = ns_per_byte(0.087, bytes);
        let a = timed("sse", bytes, ns);
        let change = 1.06 - 0.008 * k as f64;
        let verdict = match change {
            c if c > 1.03 => Verdict::Regressed,
            c if c < 0.97 => Verdict::Improved,
            c if (0.985..1.015).contains(&c) => Verdict::NoChange,
            _ => Verdict::Inconclusive("the interval straddles ±2 %".into()),
        };
        let b = Record {
            source: Some("B head".into()),
            paired: Some(Paired {
                ratio: change,
                interval: Some(Interval {
                    low: change - 0.006,
                    high: change + 0.006,
                }),
                ratios: (0..30).map(|i| change + 0.001 * f64::from(i % 5)).collect(),
                threshold_pct: Some(2.0),
                verdict: Some(verdict),
            }),
            ..timed("sse", bytes, ns * change)
        };
        records.push(Record {
            source: Some("A base".into()),
            ..a
        });
        records.push(b);
    }
    if !swept {
        records.iter_mut().for_each(|r| r.parameters.clear());
    }
    file(records)
}

#[test]
fn an_ab_of_fourteen_plain_sets_fits_a_screen_too() {
    let (_, report) = rendered("write-up-ab-plain", ab_of(false));
    assert!(report.charts.iter().any(|c| c.svg == "hex-time.svg"));
    for c in &report.charts {
        assert!(c.size.1 <= 1600, "{} is {} px tall", c.svg, c.size.1);
    }
}

#[test]
fn an_ab_of_fourteen_sizes_fits_a_screen_ordered_by_change_with_its_threshold() {
    let (dir, report) = rendered("write-up-ab", ab());
    let stems: Vec<&str> = report.charts.iter().map(|c| c.svg.as_str()).collect();
    assert!(
        stems.contains(&"hex-bytes.svg"),
        "a line chart of both builds: {stems:?}"
    );
    assert!(
        !stems.contains(&"hex-time.svg"),
        "no bar panel per size: {stems:?}"
    );
    for c in &report.charts {
        assert!(c.size.1 <= 1600, "{} is {} px tall", c.svg, c.size.1);
    }
    let texts = svg_texts(&read(&dir, "hex-ab-change.svg"));
    assert!(texts.iter().any(|(_, t)| t == "±2 % threshold"));
    let rows: Vec<(String, String)> = texts
        .iter()
        .filter(|(_, t)| t.starts_with("sse · "))
        .map(|(a, t)| (t.clone(), attr(a, "y").to_owned()))
        .collect();
    assert_eq!(rows.len(), SIZES.len());
    // Largest slowdown first: the sizes come smallest first, as planted.
    let order: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let planted: Vec<String> = SIZES.iter().map(|b| format!("sse · size:{b}")).collect();
    assert_eq!(order, planted);
    // Each change is written in its verdict's colour.
    let notes: Vec<(&str, &str)> = texts
        .iter()
        .filter(|(_, t)| t.starts_with('+') || t.starts_with('-'))
        .map(|(a, t)| (t.as_str(), attr(a, "fill")))
        .collect();
    let colour = |word: &str| {
        let found: Vec<&str> = notes
            .iter()
            .filter(|n| n.0.ends_with(word))
            .map(|n| n.1)
            .collect();
        assert!(!found.is_empty(), "no {word}: {notes:?}");
        assert!(found.iter().all(|c| *c == found[0]), "{word}: {found:?}");
        found[0]
    };
    let colours = [
        colour("regressed"),
        colour("improved"),
        colour("no change"),
        colour("inconclusive"),
    ];
    for (i, c) in colours.iter().enumerate() {
        assert!(contrast_on_white(c) >= 3.0, "{c}");
        assert!(!colours[i + 1..].contains(c), "{colours:?}");
    }
}

/// The built-in suite's density sweep: a fraction on a linear axis over
/// the data (0.1 to 0.9) with a margin, ticked at round steps inside it,
/// and every line on white.
#[test]
fn a_density_sweep_reads_on_a_linear_axis_over_its_data() {
    let f = common::file(common::components(&["default"], 1.0));
    let (dir, _) = rendered("write-up-density", f);
    let svg = read(&dir, "components-density.svg");
    let (x, _) = ticks(&svg);
    let labels: Vec<&str> = x.iter().map(|t| t.0.as_str()).collect();
    assert_eq!(labels, ["0.2", "0.4", "0.6", "0.8"]);
    let step = x[1].1 - x[0].1;
    assert!(
        x.windows(2).all(|w| (w[1].1 - w[0].1 - step).abs() <= 1),
        "{x:?}"
    );
    for (stroke, _) in shapes(&svg, "polyline", "stroke", &["stroke-width=\"2\""]) {
        assert!(contrast_on_white(&stroke) >= 3.0, "{stroke}");
    }
}

/// A planted `24 ns + b·n` per input: each variant's law is O(n) with its
/// slope and intercept, listed under the sweep's time chart and drawn as a
/// thin curve.
#[test]
fn a_byte_sweep_lists_and_draws_each_variants_law() {
    let (dir, _) = rendered("write-up-laws", sweep());
    let md = read(&dir, "report.md");
    for (variant, per_byte) in VARIANTS {
        let line = md
            .lines()
            .find(|l| l.starts_with(&format!("- {variant}: ")))
            .unwrap_or_else(|| panic!("no law of {variant}: {md}"));
        assert!(line.starts_with(&format!("- {variant}: O(n), ")), "{line}");
        let slope: f64 = line
            .split(", ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|b| b.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!((slope / per_byte - 1.0).abs() < 0.05, "{line}");
        assert!(line.contains("+ 2"), "an intercept near 24 ns: {line}");
    }
    let svg = read(&dir, "hex-bytes.svg");
    let thin = shapes(&svg, "polyline", "stroke", &["stroke-width=\"1\""]);
    let curves = thin.iter().filter(|(_, p)| p.len() > 40).count();
    assert_eq!(curves, VARIANTS.len(), "a fitted curve per line");
}
