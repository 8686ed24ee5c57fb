//! What `ab` is asked to do: the two builds, the records, the metrics and
//! their thresholds, and how long to measure each record.

use crate::entry::Origin;
use crate::error::Error;
use crate::revision::{self, Side};
use reports::Metric;
use reports::compare::Format;
use std::path::PathBuf;
use std::time::Duration;

/// Which two builds to compare.
#[derive(Clone, Debug)]
pub enum Builds {
    /// Git revisions of the program's repository; no head: the working tree.
    Revisions {
        /// A.
        base: String,
        /// B.
        head: Option<String>,
        /// Cargo features both are built with (`--features`).
        features: Vec<String>,
    },
    /// Two prebuilt binaries of the program.
    Binaries(PathBuf, PathBuf),
}

impl Builds {
    /// A and B: the revisions built, or the binaries as given.
    pub fn sides(&self, origin: &Origin) -> Result<(Side, Side), Error> {
        match self {
            Builds::Revisions {
                base,
                head,
                features,
            } => revision::revisions(origin, base, head.as_deref(), features),
            Builds::Binaries(a, b) => revision::binaries(a, b),
        }
    }
}

/// What `ab` should do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The builds.
    pub builds: Builds,
    /// Workloads; empty: all.
    pub workloads: Vec<String>,
    /// Variants; empty: each workload's declared default.
    pub variants: Vec<String>,
    /// Input sets; empty: each workload's quick bench sets.
    pub sets: Vec<String>,
    /// Metrics judged besides answers; empty: time and instructions.
    pub metrics: Vec<Metric>,
    /// Overrides the default thresholds (1 % each).
    pub threshold_pct: Option<f64>,
    /// Paired measuring time in all; `None`: 2 s per record.
    pub seconds: Option<f64>,
    /// How long a build may take to answer one request.
    pub timeout: Duration,
    /// Seed of the generated inputs.
    pub seed: u64,
    /// Output format.
    pub format: Format,
    /// Results file; default `results/ab-<timestamp>.json`.
    pub out: Option<PathBuf>,
    /// The machine's name, for the results file (the driver writes it:
    /// the builds, maybe older than `--machine`, are never asked).
    pub machine: String,
    /// The core both builds run on (`--core`); `None`: the least busy
    /// core, chosen again for each record.
    pub core: Option<usize>,
    /// Count with the cache simulation (`--cache`): D1 and LL misses can
    /// be judged and ranked per function, and a time change that
    /// instructions do not explain gets the D1 misses' table.
    pub cache: bool,
}

/// Measuring time per record when `--seconds` is not given.
pub const SECONDS_PER_RECORD: f64 = 2.0;

/// How many times its share of the time a record may measure when its
/// pairs spread too wide to resolve the threshold.
pub const EXTEND: u32 = 4;
