//! `bitbench history bisect`: the command line and what it prints; the
//! search is in [`crate::history::bisect`].

use crate::entry::Suite;
use crate::error::Error;
use crate::history::bisect::{self, Options, Probe};
use crate::revision::{Builder, FeaturesArg};
use reports::Metric;

/// `bitbench history bisect`'s command line.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct Args {
    /// A revision where the record is as it should be.
    good: String,
    /// A later revision (on GOOD's first-parent line) where it has moved.
    bad: String,
    /// The record's workload.
    #[arg(long)]
    workload: String,
    /// The record's variant.
    #[arg(long)]
    variant: String,
    /// The record's input set.
    #[arg(long, value_name = "SET")]
    inputs: String,
    /// Instructions (exact, counted under valgrind), time (paired, GOOD
    /// against each candidate) or answers (the first commit whose answers
    /// differ from GOOD's, or that crashes or hangs on the record's batch).
    #[arg(long, default_value = "instructions", value_parser = ["instructions", "time", "answers"])]
    metric: String,
    /// Percent change relative to GOOD that counts as moved; default: 1.
    #[arg(long, value_name = "PCT")]
    threshold: Option<f64>,
    /// Paired measuring time per probe with --metric time; default: 2.
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// Seed of the generated inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    features: FeaturesArg,
}

const AFTER_HELP: &str = "\
Searches the first-parent line GOOD..BAD by halves, assuming a record \
stays moved once it has moved: GOOD, BAD, then about log2(n) commits, each \
built as `ab` builds a revision (kept builds are reused).

Exit codes: 0 the first moved commit was found, 1 BAD did not move beyond \
the threshold, 2 unusable input (an unknown or unsupported revision, GOOD \
not an ancestor of BAD, a probe that does not build or measure).";

/// Runs `bitbench history bisect`.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    if let Some(s) = args.seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(Error::usage(format!(
            "--seconds {s}: expected a positive number of seconds"
        )));
    }
    if let Some(t) = args.threshold.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        return Err(Error::usage(format!(
            "--threshold {t}: expected a percentage of 0 or more"
        )));
    }
    let answers = args.metric == "answers";
    // Answers are read off the time records' batches.
    let metric = Metric::parse(&args.metric).unwrap_or(Metric::Time);
    if metric == Metric::Instructions
        && let Some(why) = crate::ab::count_tools()
    {
        return Err(Error::usage(format!(
            "history bisect: instructions cannot be counted here ({why}); try --metric time"
        )));
    }
    let builder =
        Builder::open(suite.origin(), "history bisect")?.with_features(args.features.list);
    let options = Options {
        good: args.good,
        bad: args.bad,
        record: [args.workload, args.variant, args.inputs],
        metric,
        answers,
        threshold_pct: args.threshold,
        seconds: args.seconds,
        seed: args.seed,
    };
    let outcome = bisect::run(&builder, &options, &mut |p| print(p, metric))?;
    let [w, v, s] = &options.record;
    let judged = if answers {
        "answers".to_owned()
    } else {
        metric.to_string()
    };
    let record = format!("{w}/{v}/{s} {judged}");
    match &outcome.first_moved {
        Some(first) => {
            crate::outln!(
                "first moved: {} {} ({record}, beyond {}% relative to {})",
                first.short(),
                first.subject,
                outcome.threshold_pct,
                outcome.good.short()
            );
        }
        None => {
            crate::outln!(
                "BAD {} did not move beyond {}% relative to GOOD {} ({record})",
                outcome.probes[0].commit.short(),
                outcome.threshold_pct,
                outcome.good.short()
            );
        }
    }
    if let Some(attribution) = &outcome.attribution {
        crate::outln!("where it changed, from its parent on the line:");
        crate::out!("{}", attribution.text());
    }
    crate::outln!(
        "{} revision(s) measured for {} commit(s) on the line, {} built anew",
        outcome.probes.len() + 1,
        outcome.line,
        outcome.builds
    );
    match outcome.first_moved {
        Some(_) => Ok(()),
        None => Err(Error::failed("history bisect: nothing moved")),
    }
}

/// One probe's line: commit, value or change, moved or not.
fn print(p: &Probe, metric: Metric) {
    let value = match (metric, p.value) {
        (Metric::Instructions, Some(v)) => format!("{v:.1} instructions/element  "),
        _ => String::new(),
    };
    let change = p
        .change_pct
        .map_or("answers differ".to_owned(), |c| format!("{c:+.2}%"));
    let verdict = if p.good {
        "GOOD"
    } else if p.moved {
        "moved"
    } else {
        "not moved"
    };
    crate::outln!(
        "{}  {value}{change:>8}  {verdict:<9}  {}",
        p.commit.short(),
        p.commit.subject
    );
}
