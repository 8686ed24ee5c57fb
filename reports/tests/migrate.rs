//! Results files of an older schema are read and migrated, never refused,
//! and a report draws every chart its records allow, from what the records
//! say (parameters, oracle), saying what it could not draw and why.

mod common;

use bitbench_reports::{
    Metric, Record, ReportOptions, ResultsFile, SCHEMA, Source, Status, render,
};
use common::{file, rec};
use std::path::Path;

fn options() -> ReportOptions {
    ReportOptions {
        command: "bitbench report".into(),
        expected_workloads: Vec::new(),
        ..Default::default()
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bitbench-migrate-{name}-{}", std::process::id()))
}

fn stems(report: &bitbench_reports::Report) -> Vec<String> {
    report
        .charts
        .iter()
        .map(|c| c.svg.trim_end_matches(".svg").to_owned())
        .collect()
}

/// `tests/data/schema-1.json` was written by bitbench before records
/// carried parameters and the oracle: a components density run (oracle
/// first) and four cephalopod rank-by-depth cells without the oracle.
#[test]
fn a_schema_1_file_is_migrated_on_load() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/schema-1.json");
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(raw["schema"], 1, "the committed file stays at schema 1");
    let file = ResultsFile::read(&path).unwrap();
    assert_eq!(file.schema, SCHEMA);
    let find = |variant: &str, set: &str| -> &Record {
        file.records
            .iter()
            .find(|r| r.variant == variant && r.input_set == set && r.metric == Metric::Time)
            .unwrap_or_else(|| panic!("{variant} on {set}"))
    };
    let params = |r: &Record| -> Vec<(String, f64)> {
        r.parameters
            .iter()
            .map(|p| (p.name.clone(), p.value))
            .collect()
    };
    let d = find("swar", "density:0.25");
    assert_eq!(params(d), [("density".to_owned(), 0.25)]);
    assert_eq!(d.oracle.as_deref(), Some("naive-bfs"));
    assert!(find("swar", "seed").parameters.is_empty());
    let cell = find("front", "rank:5 depth:6");
    assert_eq!(
        params(cell),
        [("rank".to_owned(), 5.0), ("depth".to_owned(), 6.0)]
    );
    // Schema 1 took the first variant in the file as the oracle.
    assert_eq!(cell.oracle.as_deref(), Some("sym"));

    let dir = scratch("schema1");
    let sources = vec![Source::new("old", &path, file)];
    let report = render(&sources, &dir, &options()).unwrap();
    let stems = stems(&report);
    for want in [
        "components-density",
        "cephalopod-heatmap-sym",
        "cephalopod-heatmap-front",
        "components-speedup",
    ] {
        assert!(stems.iter().any(|s| s == want), "{want} in {stems:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Records with no oracle and no parameters still give the bar charts,
/// speedups over the slowest variant timed everywhere, and a note for
/// what is missing.
#[test]
fn records_without_oracle_or_parameters_draw_what_they_can() {
    let mut records = Vec::new();
    for (variant, ns) in [("fast", 2.0), ("slow", 9.0)] {
        for set in ["a", "b"] {
            records.push(rec(
                "kernel",
                variant,
                set,
                "default",
                Metric::Time,
                "ns/item",
                ns,
            ));
        }
    }
    let mut file = file(Vec::new());
    file.records = records;
    let dir = scratch("bare");
    let report = render(&[Source::new("bare", "bare.json", file)], &dir, &options()).unwrap();
    let stems = stems(&report);
    for want in ["kernel-throughput", "kernel-time", "kernel-speedup"] {
        assert!(stems.iter().any(|s| s == want), "{want} in {stems:?}");
    }
    let speedup = report
        .charts
        .iter()
        .find(|c| c.svg == "kernel-speedup.svg")
        .unwrap();
    assert!(
        speedup
            .title
            .contains("over slow (slowest variant timed on every row"),
        "{}",
        speedup.title
    );
    assert!(
        report
            .skipped
            .iter()
            .any(|s| s == "instructions charts: no instruction counts (metric `instructions`) in these results; `count` (under valgrind; needs bitbench's `count` feature) adds them"),
        "{:?}",
        report.skipped
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Files from before schema 5 recorded no machine name: they are named by
/// their CPU model (made a valid name), so reports and `compare` still
/// tell their machine apart from another CPU's.
#[test]
fn older_files_are_named_by_their_cpu_model() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/schema-1.json");
    let file = ResultsFile::read(&path).unwrap();
    assert!(!file.machine.cpu_model.is_empty());
    assert_eq!(file.machine.name, file.machine.cpu_model);

    let mut v4 = serde_json::to_value(file).unwrap();
    v4["schema"] = 4.into();
    v4["machine"]
        .as_object_mut()
        .unwrap()
        .remove("name")
        .unwrap();
    v4["machine"]["cpu_model"] = "Vendor CPU 12/24 cores".into();
    let migrated = ResultsFile::from_json(Path::new("v4.json"), &v4.to_string()).unwrap();
    assert_eq!(migrated.schema, SCHEMA);
    assert_eq!(migrated.machine.name, "Vendor CPU 12-24 cores");
    v4["machine"]["cpu_model"] = "".into();
    let migrated = ResultsFile::from_json(Path::new("v4.json"), &v4.to_string()).unwrap();
    assert_eq!(migrated.machine.name, "unknown");
}

/// `tests/data/schema-5.json` is a schema-5 file as bitbench wrote it
/// before the `crashed` and `hung` statuses: it reads as the current
/// schema with every field and status as written (schemas 6 and 7 add
/// nothing to fill), and its environment unknown (schema 7 records it).
#[test]
fn a_schema_5_file_reads_as_the_current_schema_unchanged() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/schema-5.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(raw["schema"], 5, "the committed file stays at schema 5");
    let file = ResultsFile::read(&path).unwrap();
    assert_eq!(file.schema, 7);
    assert_eq!(file.schema, SCHEMA);
    assert_eq!(file.environment, None, "not recorded, not empty");
    assert_eq!(file.machine.name, "lab-1");
    let statuses: Vec<Status> = file.records.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [Status::Ok, Status::Error, Status::Skipped]);
    // Apart from the version, what was read is what was written.
    let mut again = serde_json::to_value(&file).unwrap();
    again["schema"] = 5.into();
    assert_eq!(again, raw);
}
