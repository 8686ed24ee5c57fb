//! `bitbench compare`: the regression gate between two results files.
//!
//! Prints a table of every shared record with its change, then exits with
//! code 1 when any record regressed beyond the threshold: by plain percent
//! for instruction counts, and for wall time only when the change also
//! leaves both runs' MAD bands (see [`reports::compare`]). Unreadable files
//! and other schemas exit with code 2.

use crate::error::CliError;
use crate::{out, outln};
use reports::compare::{compare, default_threshold};
use reports::{Metric, ResultsFile};
use std::path::{Path, PathBuf};

/// `bitbench compare`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The baseline results file.
    base: PathBuf,
    /// The results file to judge.
    new: PathBuf,
    /// Percent change that counts; default: 1 for instructions, 5 for time.
    #[arg(long, value_name = "PCT")]
    threshold: Option<f64>,
    /// Metrics to compare; default: time and instructions.
    #[arg(long, num_args = 1.., value_parser = ["time", "instructions", "counter"])]
    metric: Vec<String>,
}

/// Runs `bitbench compare`.
pub fn main(args: Args) -> Result<(), CliError> {
    let metrics: Vec<Metric> = args
        .metric
        .iter()
        .map(|m| match m.as_str() {
            "time" => Metric::Time,
            "instructions" => Metric::Instructions,
            _ => Metric::Counter,
        })
        .collect();
    run(&args.base, &args.new, &metrics, args.threshold)
}

/// Compares `new` against `base`; `metrics` empty means time and
/// instructions.
pub fn run(
    base: &Path,
    new: &Path,
    metrics: &[Metric],
    threshold_pct: Option<f64>,
) -> Result<(), CliError> {
    if let Some(t) = threshold_pct.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        return Err(CliError::usage(format!(
            "--threshold {t}: expected a percentage of 0 or more"
        )));
    }
    let base_file = ResultsFile::read(base)?;
    let new_file = ResultsFile::read(new)?;
    let metrics = if metrics.is_empty() {
        vec![Metric::Time, Metric::Instructions]
    } else {
        metrics.to_vec()
    };
    let comparison = compare(&base_file, &new_file, &metrics, threshold_pct);
    if comparison.rows.is_empty() {
        return Err(CliError::usage(format!(
            "nothing to compare: {} and {} share no {} record",
            base.display(),
            new.display(),
            metrics
                .iter()
                .map(|m| m.as_str())
                .collect::<Vec<_>>()
                .join(" or ")
        )));
    }
    out!("{}", comparison.render());
    let thresholds: Vec<String> = metrics
        .iter()
        .map(|&m| {
            format!(
                "{m} {}%",
                threshold_pct.unwrap_or_else(|| default_threshold(m))
            )
        })
        .collect();
    let failures = comparison.failures();
    outln!(
        "\n{} record(s) compared, {failures} regression(s), {} improvement(s) (threshold: {}; \
         time also beyond both runs' MAD)",
        comparison.rows.len(),
        comparison.improvements(),
        thresholds.join(", ")
    );
    if failures > 0 {
        return Err(CliError::failed(format!(
            "{failures} record(s) regressed beyond the threshold"
        )));
    }
    Ok(())
}
