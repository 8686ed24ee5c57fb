//! `bitbench compare`: the regression gate between two results files.
//!
//! Prints every shared record with its change and verdict (see
//! [`reports::compare`] for the statistics), then exits with code 1 when
//! any record regressed. Exit code 2, before any verdict: an unreadable or
//! empty file, files from different machines or builds (unless
//! `--allow-mismatch`), or no record in common. A gate that cannot judge
//! never passes.

use crate::error::Error;
use crate::out;
use reports::compare::{Format, compare, mismatches};
use reports::{Metric, ResultsFile};
use std::path::{Path, PathBuf};

/// `bitbench compare`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The baseline results file.
    base: PathBuf,
    /// The results file to judge.
    new: PathBuf,
    #[command(flatten)]
    verdicts: VerdictArgs,
    /// Compare files whose CPU model, rustc, profile or target-cpu differ
    /// (refused by default: the difference would be the machine's).
    #[arg(long)]
    allow_mismatch: bool,
}

/// The flags of the verdicts, shared with `history compare`, which judges
/// through [`run`] too.
#[derive(clap::Args, Debug)]
pub struct VerdictArgs {
    /// Percent change that counts; default: 1 for instructions, 5 for time.
    #[arg(long, value_name = "PCT")]
    threshold: Option<f64>,
    /// Metrics to compare; default: time and instructions. The cache
    /// simulation's (`count --cache`) are exact, like instructions; setup
    /// is judged like time.
    #[arg(long, num_args = 1.., value_parser = Metric::ALL.map(Metric::as_str))]
    metric: Vec<String>,
    /// Output: an aligned table, Markdown (for $GITHUB_STEP_SUMMARY or a
    /// pull-request comment) or JSON.
    #[arg(long, default_value = "text", value_parser = ["text", "markdown", "json"])]
    format: String,
}

impl VerdictArgs {
    /// The options these flags ask for; `allow_mismatch` as given.
    pub fn options(&self, allow_mismatch: bool) -> Options {
        Options {
            metrics: self
                .metric
                .iter()
                .filter_map(|m| Metric::parse(m))
                .collect(),
            threshold_pct: self.threshold,
            format: match self.format.as_str() {
                "markdown" => Format::Markdown,
                "json" => Format::Json,
                _ => Format::Text,
            },
            allow_mismatch,
        }
    }
}

/// What `compare` should do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Metrics to compare; empty means time and instructions.
    pub metrics: Vec<Metric>,
    /// Overrides the default thresholds.
    pub threshold_pct: Option<f64>,
    /// Output format.
    pub format: Format,
    /// Compare even across machines or builds.
    pub allow_mismatch: bool,
}

/// Runs `bitbench compare`.
pub fn run(args: Args) -> Result<(), Error> {
    let options = args.verdicts.options(args.allow_mismatch);
    files(&args.base, &args.new, &options)
}

/// `rendered` (the comparison in `format`) followed by where each changed
/// record changed: sections under the table, or a `where` list in the
/// JSON document.
fn with_attributions(
    rendered: String,
    attributions: &[(String, crate::attribution::Attribution)],
    format: Format,
) -> String {
    if attributions.is_empty() {
        return rendered;
    }
    match format {
        Format::Json => {
            let mut doc: serde_json::Value =
                serde_json::from_str(&rendered).expect("compare renders JSON");
            doc["where"] = attributions
                .iter()
                .map(|(record, a)| serde_json::json!({ "record": record, "where": a }))
                .collect();
            serde_json::to_string_pretty(&doc).expect("JSON serialises") + "\n"
        }
        Format::Markdown => attributions.iter().fold(rendered, |out, (record, a)| {
            format!("{out}\n#### Where {record}\n\n{}", a.markdown())
        }),
        Format::Text => attributions.iter().fold(rendered, |out, (record, a)| {
            format!("{out}\nwhere {record}\n{}", a.text())
        }),
    }
}

/// Compares `new` against `base`.
pub fn files(base: &Path, new: &Path, options: &Options) -> Result<(), Error> {
    let metrics =
        reports::compare::gate(options.threshold_pct, &options.metrics).map_err(Error::usage)?;
    let names = metrics
        .iter()
        .map(|m| m.as_str())
        .collect::<Vec<_>>()
        .join(" or ");
    let read = |path: &Path| -> Result<ResultsFile, Error> {
        let file = ResultsFile::read(path)?;
        if !file.records.iter().any(|r| metrics.contains(&r.metric)) {
            return Err(Error::usage(format!(
                "{}: no {names} records: an empty file cannot be compared",
                path.display()
            )));
        }
        Ok(file)
    };
    let (base_file, new_file) = (read(base)?, read(new)?);
    let differ = mismatches(&base_file, &new_file);
    if !differ.is_empty() && !options.allow_mismatch {
        return Err(Error::usage(format!(
            "{} and {} come from different machines or builds: {}; pass --allow-mismatch to \
             compare them anyway",
            base.display(),
            new.display(),
            differ.join(", ")
        )));
    }
    if let Some(differ) = reports::environment::between(&base_file, &new_file) {
        eprintln!(
            "compare: the two runs measured with different environments ({differ}): a change may \
             come from that alone"
        );
    }
    let comparison = compare(&base_file, &new_file, &metrics, options.threshold_pct);
    if comparison.rows.is_empty() {
        return Err(Error::usage(format!(
            "nothing to compare: {} and {} share no {names} record",
            base.display(),
            new.display(),
        )));
    }
    let dir = |p: &Path| p.parent().unwrap_or(Path::new("")).to_owned();
    let attributions = crate::attribution::of_comparison(
        &comparison.rows,
        [&dir(base), &dir(new)],
        &new.with_extension(""),
    );
    out!(
        "{}",
        with_attributions(
            comparison.render(options.format),
            &attributions,
            options.format
        )
    );
    let threshold = options
        .threshold_pct
        .unwrap_or_else(|| reports::compare::default_threshold(Metric::Time));
    let compared = comparison.rows.iter().flat_map(|r| [r.base, r.new]);
    let limits = reports::disturbance::Limits {
        resolution_pct: threshold,
        ..reports::disturbance::Purpose::Gate.limits()
    };
    if let Some(line) = reports::disturbance::warning(
        compared.filter(|r| r.metric == Metric::Time),
        limits,
        "Measure again on a quieter machine, on an idle core (--core N), or with more --rounds.",
    ) {
        eprintln!("compare: {line}");
    }
    let [regressed, improved, no_change, _] = comparison.counts();
    if regressed + improved + no_change == 0 {
        return Err(Error::usage(
            "no record could be judged (see the reasons above): a gate that cannot judge does \
             not pass",
        ));
    }
    let failures = comparison.failures();
    if failures > 0 {
        return Err(Error::failed(format!("{failures} record(s) regressed")));
    }
    Ok(())
}
