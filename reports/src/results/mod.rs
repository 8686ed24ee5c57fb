//! The results file: one versioned JSON document per run.
//!
//! Every tool in bitbench speaks this format — `bench` and `count` write it,
//! `compare`, `export` and `report` read it — so it lives here, apart from
//! any kernel, and is written atomically so a crashed run never leaves half
//! a file behind.
//!
//! The document's types live in `schema.rs`; this module reads and writes
//! them, and brings a file of an older schema up to the current one as it
//! reads it (`migrate.rs`).

mod migrate;
mod schema;

pub use schema::{
    Build, Clock, Disturbance, ENVIRONMENT, Machine, Metric, Paired, Parameter, Record, RecordKey,
    ResultsFile, SCHEMA, Status,
};

use serde::Deserialize;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a results file could not be read or written.
#[derive(Debug)]
pub enum ResultsError {
    /// The file could not be opened, read or written.
    Io(PathBuf, std::io::Error),
    /// The file is not a results document.
    Parse(PathBuf, serde_json::Error),
    /// The file is a results document of another schema version.
    Schema(PathBuf, u32),
}

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultsError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            ResultsError::Parse(p, e) => {
                write!(f, "{}: not a bitbench results file ({e})", p.display())
            }
            ResultsError::Schema(p, v) => write!(
                f,
                "{}: results schema {v} is not supported (this build reads schemas 1 to {SCHEMA}; a newer bitbench wrote it)",
                p.display()
            ),
        }
    }
}

impl std::error::Error for ResultsError {}

impl ResultsFile {
    /// Reads and validates a results file, migrating an older schema to
    /// the current one.
    pub fn read(path: &Path) -> Result<Self, ResultsError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| ResultsError::Io(path.to_owned(), e))?;
        Self::from_json(path, &text)
    }

    /// Parses a results document; `path` only names it in errors.
    pub fn from_json(path: &Path, text: &str) -> Result<Self, ResultsError> {
        #[derive(Deserialize)]
        struct Version {
            schema: u32,
        }
        let version: Version =
            serde_json::from_str(text).map_err(|e| ResultsError::Parse(path.to_owned(), e))?;
        if version.schema == 0 || version.schema > SCHEMA {
            return Err(ResultsError::Schema(path.to_owned(), version.schema));
        }
        let mut file: ResultsFile =
            serde_json::from_str(text).map_err(|e| ResultsError::Parse(path.to_owned(), e))?;
        migrate::to_current(&mut file);
        Ok(file)
    }

    /// Writes the file atomically: a temporary file beside it, then a rename.
    pub fn write(&self, path: &Path) -> Result<(), ResultsError> {
        let io = |e| ResultsError::Io(path.to_owned(), e);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".tmp{}", std::process::id()));
        let tmp = PathBuf::from(tmp);
        let result = (|| {
            let mut file = std::fs::File::create(&tmp)?;
            serde_json::to_writer_pretty(&mut file, self).map_err(std::io::Error::other)?;
            file.write_all(b"\n")?;
            file.sync_all()?;
            std::fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result.map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ResultsFile {
        let mut file = ResultsFile::new(
            "2026-11-22T00:00:00Z".into(),
            "bitbench bench".into(),
            Machine::default(),
            Build::default(),
        );
        file.records.push(Record {
            workload: "components".into(),
            variant: "swar".into(),
            input_set: "density:0.5".into(),
            target_cpu: "default".into(),
            metric: Metric::Time,
            unit: "ns/board".into(),
            median: 12.5,
            samples: 3,
            elements_per_sample: 4096,
            ..Record::default()
        });
        file
    }

    #[test]
    fn round_trips_through_an_atomic_write() {
        let dir = std::env::temp_dir().join(format!("bitbench-results-{}", std::process::id()));
        let path = dir.join("nested/run.json");
        let file = sample();
        file.write(&path).unwrap();
        assert_eq!(ResultsFile::read(&path).unwrap(), file);
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("run.json")]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn rejects_other_schemas_and_non_results() {
        let mut json = serde_json::to_value(sample()).unwrap();
        json["schema"] = 99.into();
        let err = ResultsFile::from_json(Path::new("x.json"), &json.to_string()).unwrap_err();
        assert!(matches!(err, ResultsError::Schema(_, 99)), "{err}");
        let err = ResultsFile::from_json(Path::new("x.json"), "[1, 2]").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("x.json: not a bitbench results file")
        );
    }

    #[test]
    fn crashed_and_hung_records_round_trip_by_name() {
        let mut file = sample();
        let base = file.records[0].clone();
        let fault = |status: Status, reason: &str| Record {
            status,
            reason: Some(reason.into()),
            median: 0.0,
            samples: 0,
            ..base.clone()
        };
        file.records = vec![
            fault(
                Status::Crashed,
                "crashed: segmentation fault (SIGSEGV) on 0x2500810802063824",
            ),
            fault(Status::Hung, "did not finish in 10 s on 12345"),
        ];
        let json = serde_json::to_value(&file).unwrap();
        assert_eq!(json["records"][0]["status"], "crashed");
        assert_eq!(json["records"][1]["status"], "hung");
        let back = ResultsFile::from_json(Path::new("x.json"), &json.to_string()).unwrap();
        assert_eq!(back, file);
        for status in [
            Status::Ok,
            Status::Error,
            Status::Skipped,
            Status::Crashed,
            Status::Hung,
        ] {
            assert_eq!(serde_json::to_value(status).unwrap(), status.as_str());
            assert_eq!(
                status.faulted(),
                matches!(status, Status::Crashed | Status::Hung)
            );
            assert_eq!(
                status.finding(),
                matches!(status, Status::Error | Status::Crashed | Status::Hung)
            );
        }
    }
}
