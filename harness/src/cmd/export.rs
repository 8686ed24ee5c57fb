//! `bitbench export`: a results file as CSV, Bencher Metric Format or
//! github-action-benchmark JSON, on stdout or into a file.

use crate::error::Error;
use crate::out;
use reports::ResultsFile;
use reports::export::{Format, export};
use std::path::{Path, PathBuf};

/// `bitbench export`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The results file.
    results: PathBuf,
    /// Output format.
    #[arg(long, value_parser = Format::NAMES.to_vec())]
    format: String,
    /// Write here instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `bitbench export`.
pub fn run(args: Args) -> Result<(), Error> {
    write(&args.results, &args.format, args.out.as_deref())
}

/// Exports `results` in `format` (a [`Format::NAMES`] entry).
pub fn write(results: &Path, format: &str, out: Option<&Path>) -> Result<(), Error> {
    let Some(format) = Format::parse(format) else {
        return Err(Error::usage(format!(
            "unknown export format '{format}' (known: {})",
            Format::NAMES.join(", ")
        )));
    };
    let file = ResultsFile::read(results)?;
    let exported = export(&file, format);
    if exported.omitted > 0 {
        eprintln!(
            "export: {} record(s) without a measurement (skipped, error, crashed or hung) are not in this format; \
             the CSV export keeps them",
            exported.omitted
        );
    }
    match out {
        Some(path) => std::fs::write(path, &exported.text)
            .map_err(|e| Error::usage(format!("--out {}: cannot write: {e}", path.display()))),
        None => {
            out!("{}", exported.text);
            Ok(())
        }
    }
}
