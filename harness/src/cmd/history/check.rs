//! `bitbench history check`: the pull-request alert. The newest commit of
//! the branch is judged against the level of the segment before it in
//! every series measured there; a rise beyond the threshold and the noise
//! fails (exit 1), a fall is printed and passes.

use super::SeriesArgs;
use crate::error::Error;
use crate::{out, outln};
use reports::compare::Format;
use reports::history::{By, Lineup, step_table};

/// `bitbench history check`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    series: SeriesArgs,
    /// Output: an aligned table, Markdown or JSON (the steps at the newest commit).
    #[arg(long, default_value = "text", value_parser = ["text", "markdown", "json"])]
    format: String,
}

/// Runs `bitbench history check`.
pub fn run(args: Args) -> Result<(), Error> {
    let format = match args.format.as_str() {
        "markdown" => Format::Markdown,
        "json" => Format::Json,
        _ => Format::Text,
    };
    let selection = args.series.selection(By::Variant, true)?;
    let (commits, runs) = args.series.load()?;
    let newest = commits
        .last()
        .ok_or_else(|| Error::usage("the branch has no commits"))?;
    let lineup = Lineup::new(&runs, &commits, &selection);
    let Some(steps) = lineup.newest(&commits, &selection) else {
        return Err(Error::usage(format!(
            "{}: the newest commit of {} ({} {}) has no run of the selected records; file one with `history add`",
            args.series.store.display(),
            args.series.branch,
            newest.short,
            newest.subject
        )));
    };
    out!("{}", step_table(&steps, format));
    let regressed = steps.iter().filter(|s| s.ratio > 1.0).count();
    if regressed > 0 {
        return Err(Error::failed(format!(
            "{regressed} record(s) rose at the newest commit {} beyond the threshold and the noise",
            newest.short
        )));
    }
    if format == Format::Text {
        outln!("no regression at the newest commit {}", newest.short);
    }
    Ok(())
}
