//! The decision map a report draws for a workload whose winner changes
//! with the CPU's features or the input's regime, read back from its SVG:
//! every winner named, every margin printed; and no map where one
//! variant wins everywhere.

mod common;

use bitbench_reports::{
    Machine, Metric, Parameter, Record, ReportOptions, ResultsFile, Source, render,
};
use common::svg::svg_texts;
use common::*;

/// A time record of workload `pop` on a `bytes` set, needing `features`.
fn timed(variant: &str, features: &[&str], bytes: f64, ns: f64) -> Record {
    let set = format!("bytes:{bytes}");
    Record {
        oracle: Some("scalar".into()),
        features: features.iter().map(|f| (*f).to_owned()).collect(),
        parameters: vec![Parameter {
            name: "bytes".into(),
            value: bytes,
            meaning: None,
        }],
        ..with_rounds(rec(
            "pop",
            variant,
            &set,
            "default",
            Metric::Time,
            "ns/byte",
            ns,
        ))
    }
}

fn file(records: Vec<Record>) -> ResultsFile {
    ResultsFile {
        date: "2026-11-22T10:00:00Z".into(),
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

/// `(scalar, popcnt, avx2)` times at 8 B and at 64 KiB.
fn popcount(small: [f64; 3], large: [f64; 3]) -> ResultsFile {
    let mut records = Vec::new();
    for (bytes, ns) in [(8.0, small), (65536.0, large)] {
        records.push(timed("scalar", &[], bytes, ns[0]));
        records.push(timed("popcnt", &["popcnt"], bytes, ns[1]));
        records.push(timed("avx2", &["avx2"], bytes, ns[2]));
    }
    file(records)
}

fn rendered(name: &str, f: ResultsFile) -> (std::path::PathBuf, bitbench_reports::Report) {
    let dir = out_dir(name);
    let sources = vec![Source::new("lab", "lab.json", f)];
    let report = render(&sources, &dir, &ReportOptions::default()).unwrap();
    (dir, report)
}

#[test]
fn the_map_names_each_winner_and_prints_its_margins() {
    let (dir, report) = rendered("decision-map", popcount([4.0, 1.0, 2.0], [4.0, 1.5, 0.5]));
    let chart = report
        .charts
        .iter()
        .find(|c| c.svg == "decision-pop.svg")
        .expect("a decision map");
    assert_eq!(chart.title, "pop: which variant wins where");
    assert!(dir.join("decision-pop.png").exists());
    let svg = std::fs::read_to_string(dir.join(&chart.svg)).unwrap();
    let texts: Vec<String> = svg_texts(&svg).into_iter().map(|(_, t)| t).collect();
    let has = |t: &str| texts.iter().any(|x| x == t);
    // Tiers: avx2 (over popcnt), popcnt, any CPU; each cell its margin.
    for t in [
        "pop: which variant wins where",
        "scalar",
        "popcnt",
        "avx2",
        "default · +avx2",
        "default · +popcnt",
        "default · any CPU",
        "8 B",
        "64 KiB",
        "2.00×",
        "3.00×",
        "4.00×",
        "2.67×",
        "only",
    ] {
        assert!(has(t), "{t} in {texts:?}");
    }
    let markdown = std::fs::read_to_string(&report.markdown).unwrap();
    assert!(markdown.contains("decision-pop.svg"));
    let html = std::fs::read_to_string(&report.index).unwrap();
    assert!(html.contains("decision-pop.svg"));
}

#[test]
fn one_winner_everywhere_draws_no_map() {
    // The featureless variant is fastest everywhere, so it wins every tier.
    let (dir, report) = rendered("decision-none", popcount([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]));
    assert!(
        report
            .charts
            .iter()
            .all(|c| !c.svg.starts_with("decision-"))
    );
    assert!(!dir.join("decision-pop.svg").exists());
}
