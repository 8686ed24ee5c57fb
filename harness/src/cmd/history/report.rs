//! `bitbench history report`: the store's runs drawn over a branch.

use super::{SeriesArgs, usage};
use crate::error::Error;
use crate::outln;
use reports::history::{By, HistoryOptions};
use std::path::PathBuf;

/// `bitbench history report`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    series: SeriesArgs,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// One line per variant (a chart per input set) or per input set (a
    /// chart per variant).
    #[arg(long, default_value = "variant", value_parser = ["variant", "input-set"])]
    by: String,
    /// Link each commit to this URL, `{commit}` standing for its full hash,
    /// e.g. https://github.com/OWNER/REPO/commit/{commit}.
    #[arg(long, value_name = "TEMPLATE")]
    commit_url: Option<String>,
}

/// Runs `bitbench history report`.
pub fn run(args: Args) -> Result<(), Error> {
    if args.out.is_file() {
        return Err(Error::usage(format!(
            "--out {}: is a file, expected a directory",
            args.out.display()
        )));
    }
    let by = if args.by == "input-set" {
        By::InputSet
    } else {
        By::Variant
    };
    let options = HistoryOptions {
        selection: args.series.selection(by, false)?,
        commit_url: args.commit_url,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        branch: args.series.branch.clone(),
    };
    let (commits, runs) = args.series.load()?;
    let report = reports::history::render(&runs, &commits, &args.out, &options).map_err(usage)?;
    for s in &report.steps {
        outln!(
            "step at {} {}: {} {} {} {}: {} -> {} ({:.3}x)",
            s.short,
            s.machine,
            s.workload,
            s.variant,
            s.input_set,
            s.metric,
            reports::numbers::sig3(s.before),
            reports::numbers::sig3(s.after),
            s.ratio
        );
    }
    outln!("{}", report.counts());
    outln!("history: {}", report.index.display());
    Ok(())
}
