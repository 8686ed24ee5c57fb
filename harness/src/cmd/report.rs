//! `bitbench report`: draw results files as charts and pages.
//!
//! Reads one or more results files (several combine, each labelled by its
//! file name), writes SVG/PNG charts, `index.html` and `report.md` into the
//! output directory, and says what it left out.

use crate::entry::Suite;
use crate::error::Error;
use crate::{out, outln};
use reports::{Report, ReportOptions, Source};
use std::path::{Path, PathBuf};

/// Default output directory of `bitbench report`.
pub const DEFAULT_DIR: &str = "report";

/// Renders `results` into `out`; prints what was skipped and where the
/// page is.
pub fn run(suite: &Suite, results: &[PathBuf], out: &Path) -> Result<Report, Error> {
    if results.is_empty() {
        return Err(Error::usage("report: give at least one results file"));
    }
    let sources = Source::load(results)?;
    let report = render(suite, &sources, out)?;
    out!("{}", reports::summary(&sources));
    outln!("report: {}", report.index.display());
    Ok(report)
}

/// Renders already-loaded sources (the main job passes its fresh results)
/// and prints the skipped lines; the caller prints the summary.
pub fn render(suite: &Suite, sources: &[Source], out: &Path) -> Result<Report, Error> {
    if out.is_file() {
        return Err(Error::usage(format!(
            "--out {}: is a file, expected a directory",
            out.display()
        )));
    }
    let options = ReportOptions {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        expected_workloads: suite
            .workloads()
            .iter()
            .map(|w| w.name().to_owned())
            .collect(),
    };
    let report =
        reports::render(sources, out, &options).map_err(|e| Error::usage(e.to_string()))?;
    for line in &report.skipped {
        outln!("skipped: {line}");
    }
    outln!(
        "charts: {} in {}",
        report.charts.len(),
        report.dir.display()
    );
    Ok(report)
}
