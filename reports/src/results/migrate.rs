//! Older results files brought up to the current schema on load.
//!
//! Results are kept for years (a CI baseline, a write-up's data), so a new
//! bitbench reads every schema an older one wrote. Each step fills what
//! the newer schema records from what the older file implied.

use super::schema::{Machine, Parameter, Record, ResultsFile, SCHEMA, Status};

/// Migrates `file` in place, one schema step at a time.
pub(crate) fn to_current(file: &mut ResultsFile) {
    if file.schema == 1 {
        from_1(&mut file.records);
        file.schema = 2;
    }
    // Schema 3 added samples and intervals, which older files never kept:
    // their records stay without (and say "min–max" where an interval
    // would be shown).
    if file.schema == 2 {
        file.schema = 3;
    }
    if file.schema == 3 {
        from_3(&mut file.records);
        file.schema = 4;
    }
    // Schema 5 named the machine; older files recorded no host, so the
    // CPU model is their name (two hosts of one model merge, which is
    // what those files allowed anyway).
    if file.schema == 4 {
        file.machine.name = Machine::name_from(&file.machine.cpu_model);
        file.schema = 5;
    }
    // Schema 6 added the `crashed` and `hung` statuses, which no older
    // file can hold: nothing to fill.
    if file.schema == 5 {
        file.schema = 6;
    }
    // Schema 7 added the `prepare` metric, which no older file holds, and
    // the environment, which older files did not record: `None` says so.
    if file.schema == 6 {
        file.environment = None;
        file.schema = 7;
    }
    tool_failures(&mut file.records);
    debug_assert_eq!(file.schema, SCHEMA);
}

/// What `count` wrote, up to schema 6, when gungraun reported nothing for
/// a case: status `error`, which means a wrong answer. The variant had
/// answered right (it was verified first); the tool failed. Read as what
/// it was, `skipped` with the reason, so that no command or gate counts
/// it as a wrong answer. Files of every version may hold it, hence by
/// reason rather than by version; newer builds write it so already.
fn tool_failures(records: &mut [Record]) {
    for r in records {
        let reason = r.reason.as_deref().unwrap_or_default();
        if r.status == Status::Error && reason.starts_with(TOOL_FAILURE) {
            r.status = Status::Skipped;
            r.reason = Some(format!("not counted: {reason}"));
        }
    }
}

/// How `count`'s reason for a tool failure began before it was `skipped`.
const TOOL_FAILURE: &str = "gungraun reported no ";

/// Schema 3's `matrix` tagged every record with the per-level file it came
/// from (`bench-x86-64.json`, `count-x86-64.json`), which said nothing the
/// record's metric and level do not, and read as two sources of one
/// level. Schema 4 keeps a record's `source` only where it tells records
/// apart, so those tags go; any other source stays.
fn from_3(records: &mut [Record]) {
    for r in records {
        let per_level = ["bench", "count"]
            .iter()
            .any(|kind| r.source.as_deref() == Some(&format!("{kind}-{}.json", r.target_cpu)));
        if per_level {
            r.source = None;
        }
    }
}

/// Schema 1 implied two things the records now say. Sweeps were named by
/// convention: `density:P` (a density sweep), `rank:R depth:D` (the
/// rank-by-depth grid); those names become parameters. The oracle was the
/// first variant of each workload in file order (bitbench wrote it first).
fn from_1(records: &mut [Record]) {
    let mut oracles: Vec<(String, String)> = Vec::new();
    for r in records.iter() {
        if !oracles.iter().any(|(w, _)| *w == r.workload) {
            oracles.push((r.workload.clone(), r.variant.clone()));
        }
    }
    for r in records.iter_mut() {
        r.parameters = legacy_parameters(&r.input_set);
        r.oracle = oracles
            .iter()
            .find(|(w, _)| *w == r.workload)
            .map(|(_, v)| v.clone());
    }
}

/// The parameters a schema-1 set name stood for.
fn legacy_parameters(set: &str) -> Vec<Parameter> {
    let param = |name: &str, value: f64| Parameter {
        name: name.to_owned(),
        value,
        meaning: None,
    };
    if let Some(p) = set
        .strip_prefix("density:")
        .and_then(|p| p.parse::<f64>().ok())
        .filter(|p| p.is_finite())
    {
        return vec![param("density", p)];
    }
    let (mut rank, mut depth) = (None, None);
    for part in set.split_whitespace() {
        match part.split_once(':') {
            Some(("rank", v)) => rank = v.parse::<u32>().ok(),
            Some(("depth", v)) => depth = v.parse::<u32>().ok(),
            _ => return Vec::new(),
        }
    }
    match (rank, depth) {
        (Some(r), Some(d)) => vec![param("rank", f64::from(r)), param("depth", f64::from(d))],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{legacy_parameters, to_current};
    use crate::results::{Metric, Record, ResultsFile, SCHEMA, Status};

    #[test]
    fn a_tool_failure_written_as_an_error_is_read_as_skipped() {
        let record = |status: Status, reason: &str| Record {
            status,
            reason: Some(reason.into()),
            ..Record::default()
        };
        let wrong = record(Status::Error, "wrong answer, not measured: on 5");
        let mut file = ResultsFile {
            schema: 6,
            records: vec![
                record(Status::Error, "gungraun reported no count for this case"),
                record(
                    Status::Error,
                    "gungraun reported no cache figures for this case",
                ),
                wrong.clone(),
            ],
            ..ResultsFile::default()
        };
        to_current(&mut file);
        assert_eq!(
            file.records,
            [
                record(
                    Status::Skipped,
                    "not counted: gungraun reported no count for this case"
                ),
                record(
                    Status::Skipped,
                    "not counted: gungraun reported no cache figures for this case"
                ),
                wrong,
            ]
        );
    }

    #[test]
    fn schema_3_matrix_tags_are_dropped_and_other_sources_kept() {
        let tagged = |level: &str, metric: Metric, source: &str| Record {
            workload: "w".into(),
            variant: "v".into(),
            input_set: "s".into(),
            target_cpu: level.into(),
            metric,
            source: Some(source.into()),
            ..Record::default()
        };
        let mut file = ResultsFile {
            schema: 3,
            records: vec![
                tagged("x86-64", Metric::Time, "bench-x86-64.json"),
                tagged("x86-64", Metric::Instructions, "count-x86-64.json"),
                // Another level's file, or a label of the user's: kept.
                tagged("native", Metric::Time, "bench-x86-64.json"),
                tagged("native", Metric::Time, "before"),
            ],
            ..ResultsFile::default()
        };
        to_current(&mut file);
        assert_eq!(file.schema, SCHEMA);
        let sources: Vec<Option<&str>> = file.records.iter().map(|r| r.source.as_deref()).collect();
        assert_eq!(
            sources,
            [None, None, Some("bench-x86-64.json"), Some("before")]
        );
    }

    #[test]
    fn legacy_set_names_become_parameters() {
        let names = |set: &str| -> Vec<(String, f64)> {
            legacy_parameters(set)
                .into_iter()
                .map(|p| (p.name, p.value))
                .collect()
        };
        assert_eq!(names("density:0.35"), [("density".to_owned(), 0.35)]);
        assert_eq!(
            names("rank:3 depth:20"),
            [("rank".to_owned(), 3.0), ("depth".to_owned(), 20.0)]
        );
        for plain in [
            "seed",
            "official:5",
            "empty:20",
            "rank:3",
            "rank:3 depth:x",
            "density:x",
            "7x6k4/random:20",
            "rank:1 depth:2 extra",
        ] {
            assert!(legacy_parameters(plain).is_empty(), "{plain}");
        }
    }
}
