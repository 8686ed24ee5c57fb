//! `bitbench ab`: the command line of the paired A/B of two builds; the
//! work is in [`crate::ab`].

use crate::ab::{self, Builds, Options};
use crate::entry::Suite;
use crate::error::Error;
use crate::fault::TimeoutArg;
use crate::machine::MachineArg;
use crate::revision::FeaturesArg;
use reports::Metric;
use reports::compare::Format;
use reports::metric::InAb;
use std::path::PathBuf;

/// `bitbench ab`'s command line.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct Args {
    /// A: a git revision of this program's repository (a commit, branch or tag).
    #[arg(required_unless_present = "binaries", conflicts_with = "binaries")]
    base: Option<String>,
    /// B: a git revision; default: the working tree, uncommitted changes included.
    head: Option<String>,
    /// Compare two built binaries of the program instead of revisions (no git needed).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    binaries: Vec<PathBuf>,
    /// Workloads to compare; default: all.
    #[arg(long = "workload", num_args = 1.., value_name = "WORKLOAD")]
    workloads: Vec<String>,
    /// Variants to compare; default: each workload's declared default.
    #[arg(long, num_args = 1..)]
    variant: Vec<String>,
    /// Input sets; default: each workload's quick bench sets.
    #[arg(long, num_args = 1..)]
    inputs: Vec<String>,
    /// Metrics judged besides the answers (always compared); default: time
    /// and instructions. Time is paired; those counted under callgrind are
    /// exact, and the cache simulation's (d1_misses, ll_misses,
    /// estimated_cycles) imply --cache; allocations, allocated_bytes and
    /// peak_bytes are counted by each build as it loads a batch, exact. A
    /// metric ab does not measure says why.
    #[arg(long, num_args = 1.., value_parser = Metric::ALL.map(Metric::as_str))]
    metric: Vec<String>,
    /// Count with callgrind's cache simulation too (fixed cache sizes,
    /// 1.4 to 1.7 times the counting time): a time regression whose
    /// instructions did not move gets its functions ranked by D1 misses.
    #[arg(long)]
    cache: bool,
    /// Percent change that counts, for time and instructions; default: 1.
    #[arg(long, value_name = "PCT")]
    threshold: Option<f64>,
    /// Paired measuring time in all, shared equally by the records;
    /// default: 2 s per record.
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// Seed of the generated inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output: an aligned table, Markdown (for $GITHUB_STEP_SUMMARY) or JSON.
    #[arg(long, default_value = "text", value_parser = ["text", "markdown", "json"])]
    format: String,
    /// Results file with both builds' records; default: results/ab-TIMESTAMP.json.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    timeout: TimeoutArg,
    /// The core both builds run on; default: the least busy core when
    /// each record starts.
    #[arg(long, value_name = "N")]
    core: Option<usize>,
    #[command(flatten)]
    machine: MachineArg,
    #[command(flatten)]
    features: FeaturesArg,
    #[command(flatten)]
    pub(crate) env: crate::measuring_env::KeepEnv,
}

const AFTER_HELP: &str = "\
Revisions are built with cargo (the program's own package and binary) in \
a target directory of their own, <target>/bitbench-ab/build, never in the \
program's (its binary is left as it was), and kept at \
<target>/bitbench-ab/<sha>/, so a second run reuses them. When this program \
has bitbench's count feature, each revision is built with the feature of \
its manifest that turns it on; --features adds others. A revision that does \
not build is refused. The repository is the one this program was built \
from, named on the first line.

What works for which build:
  answers       every build: the driver gets each record's inputs once and \
compares both builds' canonical answers; a difference is BROKE (exit 1), \
with both builds' `solve` commands. A build that crashes or hangs where the other does not is BROKE too (B) or fixed (A), with the input found and shrunk in fresh processes.
  instructions  every build with `count` (valgrind and gungraun-runner \
installed): both builds' `count`, compared exactly.
  time          builds with serve mode (this version on): paired samples, \
alternated A B B A on one pinned core, from four pairs of processes \
started afresh in turn, judged by a sign test on the paired ratios with \
Holm's correction; older builds: one `bench --quick` of each, labelled \
unpaired. When one build's samples fall into a slow mode no probe sees, \
the row says so and the pairs are judged where both builds run at their \
usual level; the interval is widened by the spread between the pairs of \
processes, and a change is shown only when it holds no zero.

On a busy machine: every sample says whether its thread lost time to \
something else (wall time beyond its CPU time), and a pair with a disturbed sample is set aside; samples \
are kept near 2 ms (a window of a long batch) and halved when many are \
disturbed; a record whose pairs spread too wide to find twice the \
threshold 99 times in 100 measures on, up to 4 times its share of \
--seconds. A verdict that may still not hold gets one warning line \
(stderr, and in the Markdown and JSON) with the power its pairs reached.

Where it changed: for every count that moved beyond the threshold, and \
every time regression, the functions whose counts changed most (self and \
inclusive, per element, the rest summed so the rows add up to the change; \
source lines when one function holds it), and differential flame graphs \
beside the results file (FILE without .json: <record>.svg, red where B \
does more, and <record>.vanished.svg). A time regression whose \
instructions did not move says so (--cache ranks D1 misses instead).

Exit codes: 0 no regression, 1 a record regressed or broke, 2 unusable \
input (an unknown revision, a build that fails, nothing to judge).";

/// Runs `bitbench ab`.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let builds = match (args.base, args.binaries.as_slice()) {
        (_, [_, _]) if !args.features.list.is_empty() => {
            return Err(Error::usage(
                "ab: --features builds revisions; --binaries are built already",
            ));
        }
        (_, [a, b]) => Builds::Binaries(a.clone(), b.clone()),
        (Some(base), _) => Builds::Revisions {
            base,
            head: args.head,
            features: args.features.list,
        },
        (None, _) => return Err(Error::usage("ab: give BASE [HEAD] or --binaries A B")),
    };
    if let Some(core) = args.core {
        crate::cores::check(core).map_err(Error::usage)?;
    }
    if let Some(s) = args.seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(Error::usage(format!(
            "--seconds {s}: expected a positive number of seconds"
        )));
    }
    let metrics: Vec<Metric> = args
        .metric
        .iter()
        .filter_map(|m| Metric::parse(m))
        .collect();
    if let Some((m, why)) = metrics.iter().find_map(|m| match m.descriptor().ab {
        InAb::Not(why) => Some((m, why)),
        _ => None,
    }) {
        return Err(Error::usage(format!(
            "--metric {m}: ab does not measure it: {why}"
        )));
    }
    let options = Options {
        machine: args.machine.resolve()?,
        builds,
        workloads: args.workloads,
        variants: args.variant,
        sets: args.inputs,
        metrics,
        threshold_pct: args.threshold,
        seconds: args.seconds,
        timeout: args.timeout.per_batch(),
        seed: args.seed,
        format: match args.format.as_str() {
            "markdown" => Format::Markdown,
            "json" => Format::Json,
            _ => Format::Text,
        },
        out: args.out,
        core: args.core,
        cache: args.cache,
    };
    ab::run(suite, &options)
}
