//! Exports of a results file for other tools: CSV, Bencher Metric Format,
//! and github-action-benchmark's `customSmallerIsBetter` JSON.
//!
//! CSV keeps every record, errors, crashes, hangs and skips included (its
//! `status` column says which), with the median's 95 % interval (`low`,
//! `high`, empty where there were too few samples) and one column per
//! input-set parameter, so a sweep can be plotted from the CSV alone. The two JSON formats can only carry
//! measurements, so records without one are left out and counted in
//! [`Export::omitted`] for the caller to report.

use crate::interval::Interval;
use crate::results::{Metric, Record, ResultsFile, Status};
use serde_json::{Map, Value, json};

/// The formats [`export`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One row per record, with a header.
    Csv,
    /// Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}`.
    Bmf,
    /// github-action-benchmark `customSmallerIsBetter`: `[{name, unit, value, range, extra}]`.
    GithubActionBenchmark,
}

impl Format {
    /// Every format's command-line name.
    pub const NAMES: &[&str] = &["csv", "bmf", "github-action-benchmark"];

    /// Parses a command-line name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "csv" => Some(Format::Csv),
            "bmf" => Some(Format::Bmf),
            "github-action-benchmark" => Some(Format::GithubActionBenchmark),
            _ => None,
        }
    }
}

/// An export's text and how many records it could not carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// The exported document.
    pub text: String,
    /// Records left out because they hold no measurement.
    pub omitted: usize,
}

/// The CSV columns every export has, in order; one column per parameter
/// any record's input set names (`bytes`, `density`) follows them.
pub const CSV_COLUMNS: &[&str] = &[
    "workload",
    "variant",
    "input_set",
    "target_cpu",
    "metric",
    "unit",
    "status",
    "median",
    "mad",
    "min",
    "max",
    "low",
    "high",
    "samples",
    "elements_per_sample",
    "reason",
    "source",
];

/// Exports `file` in `format`.
pub fn export(file: &ResultsFile, format: Format) -> Export {
    let measured = || file.records.iter().filter(|r| r.status == Status::Ok);
    let omitted = file.records.len() - measured().count();
    match format {
        Format::Csv => Export {
            text: csv(&file.records),
            omitted: 0,
        },
        Format::Bmf => Export {
            text: pretty(&bmf(measured())),
            omitted,
        },
        Format::GithubActionBenchmark => Export {
            text: pretty(&Value::Array(measured().map(github_action_entry).collect())),
            omitted,
        },
    }
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialise");
    text.push('\n');
    text
}

fn csv(records: &[Record]) -> String {
    let params = parameter_names(records);
    let mut header: Vec<String> = CSV_COLUMNS.iter().map(|c| (*c).to_owned()).collect();
    header.extend(params.iter().map(|p| parameter_column(p)));
    let mut out = header.join(",");
    out.push('\n');
    for r in records {
        let interval = |f: fn(&Interval) -> f64| {
            r.interval
                .as_ref()
                .map(f)
                .map_or_else(String::new, |v| v.to_string())
        };
        let mut fields = vec![
            r.workload.clone(),
            r.variant.clone(),
            r.input_set.clone(),
            r.target_cpu.clone(),
            r.metric.as_str().to_owned(),
            r.unit.clone(),
            r.status.as_str().to_owned(),
            r.median.to_string(),
            r.mad.to_string(),
            r.min.to_string(),
            r.max.to_string(),
            interval(|i| i.low),
            interval(|i| i.high),
            r.samples.to_string(),
            r.elements_per_sample.to_string(),
            r.reason.clone().unwrap_or_default(),
            r.source.clone().unwrap_or_default(),
        ];
        fields.extend(params.iter().map(|name| {
            r.parameters
                .iter()
                .find(|p| p.name == *name)
                .map_or_else(String::new, |p| p.value.to_string())
        }));
        let row: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// Every parameter name of `records`' input sets, in first-seen order.
fn parameter_names(records: &[Record]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for p in records.iter().flat_map(|r| &r.parameters) {
        if !names.contains(&p.name.as_str()) {
            names.push(&p.name);
        }
    }
    names
}

/// A parameter's column: its name, or `param_<name>` where the name is
/// already a fixed column's (a parameter called `samples`).
fn parameter_column(name: &str) -> String {
    if CSV_COLUMNS.contains(&name) {
        format!("param_{name}")
    } else {
        name.to_owned()
    }
}

/// Quotes a field when it holds a comma, quote or line break (RFC 4180).
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// The benchmark name both JSON formats use.
pub fn benchmark_name(r: &Record) -> String {
    format!(
        "{}/{}/{}/{}",
        r.workload, r.variant, r.input_set, r.target_cpu
    )
}

/// Bencher measure slug: its built-in `latency` (nanoseconds) and
/// `instructions`, and a slug of the unit for workload counters.
fn measure(r: &Record) -> String {
    match r.metric.descriptor().bencher {
        Some(measure) => measure.to_owned(),
        None => r
            .unit
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect(),
    }
}

fn bmf<'a>(records: impl Iterator<Item = &'a Record>) -> Value {
    let mut benchmarks = Map::new();
    for r in records {
        let mut metric = Map::new();
        metric.insert("value".into(), json!(r.median));
        if r.metric == Metric::Time {
            metric.insert("lower_value".into(), json!(r.min));
            metric.insert("upper_value".into(), json!(r.max));
        }
        let entry = benchmarks
            .entry(benchmark_name(r))
            .or_insert_with(|| Value::Object(Map::new()));
        entry
            .as_object_mut()
            .expect("benchmarks are objects")
            .insert(measure(r), Value::Object(metric));
    }
    Value::Object(benchmarks)
}

fn github_action_entry(r: &Record) -> Value {
    let mut entry = json!({
        "name": format!("{} ({})", benchmark_name(r), r.metric),
        "unit": r.unit,
        "value": r.median,
    });
    if r.mad > 0.0 {
        entry["range"] = json!(format!("± {}", r.mad));
    }
    entry["extra"] = json!(format!(
        "{} samples of {} elements; min {} max {}",
        r.samples, r.elements_per_sample, r.min, r.max
    ));
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Parameter;

    fn sample() -> ResultsFile {
        let ok = Record {
            workload: "components".into(),
            variant: "swar".into(),
            input_set: "density:0.5".into(),
            target_cpu: "x86-64-v3".into(),
            metric: Metric::Time,
            unit: "ns/board".into(),
            median: 12.5,
            mad: 0.25,
            min: 12.0,
            max: 14.0,
            samples: 9,
            elements_per_sample: 4096,
            ..Record::default()
        };
        let skipped = Record {
            variant: "avx512".into(),
            metric: Metric::Instructions,
            unit: "instructions/board".into(),
            status: Status::Skipped,
            reason: Some("not countable: valgrind has no AVX-512, \"v4\"".into()),
            ..ok.clone()
        };
        ResultsFile {
            schema: crate::SCHEMA,
            records: vec![ok, skipped],
            ..ResultsFile::default()
        }
    }

    #[test]
    fn csv_quotes_fields_and_keeps_every_record() {
        let e = export(&sample(), Format::Csv);
        assert_eq!(e.omitted, 0);
        let lines: Vec<&str> = e.text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], CSV_COLUMNS.join(","));
        assert!(
            lines[1].starts_with("components,swar,density:0.5,x86-64-v3,time,ns/board,ok,12.5,")
        );
        assert!(
            lines[2].ends_with(",\"not countable: valgrind has no AVX-512, \"\"v4\"\"\","),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn crashes_and_hangs_are_rows_of_the_csv_only() {
        let mut file = sample();
        let ok = file.records[0].clone();
        for (variant, status, reason) in [
            (
                "bad",
                Status::Crashed,
                "crashed: segmentation fault (SIGSEGV) on 0x2500810802063824",
            ),
            ("slow", Status::Hung, "did not finish in 10 s on 12345"),
        ] {
            file.records.push(Record {
                variant: variant.into(),
                status,
                reason: Some(reason.into()),
                median: 0.0,
                mad: 0.0,
                min: 0.0,
                max: 0.0,
                samples: 0,
                ..ok.clone()
            });
        }
        let e = export(&file, Format::Csv);
        let lines: Vec<&str> = e.text.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(
            lines[3].starts_with("components,bad,density:0.5,x86-64-v3,time,ns/board,crashed,0,"),
            "{}",
            lines[3]
        );
        assert_eq!(
            lines[4],
            "components,slow,density:0.5,x86-64-v3,time,ns/board,hung,0,0,0,0,,,0,4096,did not finish in 10 s on 12345,"
        );
        for format in [Format::Bmf, Format::GithubActionBenchmark] {
            let e = export(&file, format);
            assert_eq!(e.omitted, 3, "{format:?}");
            assert!(
                !e.text.contains("bad") && !e.text.contains("slow"),
                "{}",
                e.text
            );
        }
    }

    #[test]
    fn csv_carries_the_interval_and_a_column_per_parameter() {
        let mut file = sample();
        file.records[1].reason = None;
        file.records[0].interval = Some(Interval {
            low: 12.25,
            high: 12.75,
        });
        file.records[0].parameters = vec![
            Parameter {
                name: "density".into(),
                value: 0.5,
                meaning: None,
            },
            Parameter {
                name: "samples".into(),
                value: 3.0,
                meaning: None,
            },
        ];
        let text = export(&file, Format::Csv).text;
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
        let col = |name: &str| rows[0].iter().position(|h| *h == name).unwrap();
        assert_eq!(rows[0].len(), CSV_COLUMNS.len() + 2);
        assert_eq!(
            (rows[1][col("low")], rows[1][col("high")]),
            ("12.25", "12.75")
        );
        assert_eq!(rows[1][col("density")], "0.5");
        assert_eq!(rows[1][col("param_samples")], "3");
        assert_eq!(rows[1][col("samples")], "9");
        // A record without the interval or the parameters leaves them empty.
        assert_eq!(rows[2].len(), rows[0].len(), "{}", text);
        assert_eq!((rows[2][col("low")], rows[2][col("density")]), ("", ""));
    }

    #[test]
    fn json_formats_carry_measurements_only() {
        let bmf: Value = serde_json::from_str(&export(&sample(), Format::Bmf).text).unwrap();
        let latency = &bmf["components/swar/density:0.5/x86-64-v3"]["latency"];
        assert_eq!(latency["value"], 12.5);
        assert_eq!(latency["lower_value"], 12.0);
        let gab = export(&sample(), Format::GithubActionBenchmark);
        assert_eq!(gab.omitted, 1);
        let entries: Value = serde_json::from_str(&gab.text).unwrap();
        assert_eq!(entries.as_array().unwrap().len(), 1);
        assert_eq!(entries[0]["unit"], "ns/board");
        assert_eq!(entries[0]["range"], "± 0.25");
    }
}
