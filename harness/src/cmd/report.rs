//! `bitbench report`: draw results files as charts and pages.
//!
//! Reads one or more results files (several combine, each labelled by its
//! file name), writes SVG/PNG charts, `index.html` and `report.md` into the
//! output directory, and says what it left out. With `--flamegraphs`, each
//! counted record that kept its callgrind profile gets a flame graph too.

use crate::error::Error;
use crate::{out, outln};
use reports::disturbance::Purpose;
use reports::{Report, ReportOptions, Source};
use std::path::{Path, PathBuf};

/// Default output directory of `bitbench report`.
pub const DEFAULT_DIR: &str = "report";

/// Where flame graphs of counted records start: the function `count`
/// measures (`counting::counted_region`), whose path ends so.
const FLAME_ROOT: &str = "counting::counted_region";

/// `bitbench report`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Results files written by `bench`, `count` or `matrix`.
    #[arg(required = true, value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    out: PathBuf,
    /// Also draw a flame graph (SVG, in flamegraphs/) of every counted
    /// instruction record that kept its callgrind profile, linked from
    /// the pages.
    #[arg(long)]
    flamegraphs: bool,
}

/// Renders the results files into the output directory, with a flame
/// graph per counted record that kept its profile when asked; prints what
/// was skipped and where the page is.
pub fn run(args: Args) -> Result<(), Error> {
    if args.results.is_empty() {
        return Err(Error::usage("report: give at least one results file"));
    }
    let sources = Source::load(&args.results)?;
    let report = draw(&sources, &args.out, args.flamegraphs, Purpose::Gate)?;
    out!("{}", reports::summary(&sources));
    outln!("report: {}", report.index.display());
    Ok(())
}

/// Renders already-loaded sources (the main job passes its fresh results)
/// and prints the skipped lines; the caller prints the summary. The
/// results are a quick run's, so the pages mark the records that may not
/// hold as a ranking of variants (see [`Purpose`]).
pub fn render(sources: &[Source], out: &Path) -> Result<Report, Error> {
    draw(sources, out, false, Purpose::Ranking)
}

/// [`render`], drawing flame graphs too when `flamegraphs`, marking the
/// records that may not hold for `purpose`.
fn draw(
    sources: &[Source],
    out: &Path,
    flamegraphs: bool,
    purpose: Purpose,
) -> Result<Report, Error> {
    if out.is_file() {
        return Err(Error::usage(format!(
            "--out {}: is a file, expected a directory",
            out.display()
        )));
    }
    let options = ReportOptions {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        expected_workloads: Vec::new(),
        flamegraphs: flamegraphs.then(|| FLAME_ROOT.to_owned()),
    };
    let report = reports::render_for(sources, out, &options, purpose)
        .map_err(|e| Error::usage(e.to_string()))?;
    for line in &report.skipped {
        outln!("skipped: {line}");
    }
    outln!(
        "charts: {} in {}",
        report.charts.len(),
        report.dir.display()
    );
    if flamegraphs {
        outln!("flame graphs: {}", report.flamegraphs.len());
    }
    Ok(report)
}
