//! The results document's types at the current schema: one run, its
//! machine and build, and its records.
//!
//! They stand apart from reading and writing (the parent module) so that
//! the migration of older files, which reading calls, builds on the types
//! alone.

use crate::interval::Interval;
use crate::meaning::Meaning;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

pub use crate::metric::Metric;

/// The schema version this build writes.
///
/// Bump it when a field changes meaning or a required field is added, and
/// teach `migrate.rs` to bring the older version up to it: files of
/// every older version are read, never refused. History:
/// 1. the first;
/// 2. records carry their input set's `parameters` and the workload's
///    `oracle` (before, reports read sweeps from set names and took the
///    first variant in a file as the oracle);
/// 3. time records keep their samples, grouped by measuring round, and the
///    95 % `interval` of the median (older records have neither);
/// 4. new metrics: `setup` (a variant's cold start, see [`Metric::Setup`])
///    and the cache simulation's `d1_misses`, `ll_misses` and
///    `estimated_cycles`; and a merged file's records name a `source` only
///    where it tells apart records of one identity (`matrix` tagged every
///    record with its per-level file, which read as two series per level).
///    Later, `ab` files added the optional `paired` of B's time records;
///    no bump, since older files simply have no paired records.
/// 5. the machine has a `name` (`--machine`, by default the hostname and
///    CPU model): reports facet by it and `compare` matches on it. Older
///    files are named by their CPU model, which is all they recorded.
/// 6. records may have status `crashed` or `hung` (the variant died by a
///    signal or passed its deadline; `reason` says how and on which
///    input), never with a time. The other changes under way to the file
///    (disturbance figures for samples, profile paths of counted records)
///    add optional fields under this same version. Later, `count` wrote a
///    case gungraun reported nothing for as `skipped` where it had written
///    `error`, which means a wrong answer; `migrate.rs` reads the older
///    ones so, whatever their version.
/// 7. the metric `prepare` (a variant's untimed preparation of its own
///    input form, see [`Metric::Prepare`]), and the file's `environment`:
///    the variables that change what a measurement runs (`RUSTFLAGS`,
///    `RUST_BACKTRACE`, `RUST_LIB_BACKTRACE`). Older files recorded no
///    environment, which reads as unknown, not as empty.
///    Later, records name the CPU `features` their variant needs and
///    whether it is a `dispatcher` (for the decisions of
///    [`crate::dispatch`]); no bump, since the fields are optional and
///    older files simply name none.
pub const SCHEMA: u32 = 7;

/// One run's results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// Schema version, see [`SCHEMA`].
    pub schema: u32,
    /// When the run started, as RFC 3339 UTC (`2026-11-22T10:00:00Z`).
    pub date: String,
    /// The exact command line that produced the file.
    pub command: String,
    /// The machine the run measured.
    pub machine: Machine,
    /// How the measuring binary was built.
    pub build: Build,
    /// One record per (workload, variant, input set, target-cpu, metric).
    pub records: Vec<Record>,
    /// What the measuring processes ran with, of the variables that change
    /// what a measurement runs ([`ENVIRONMENT`]), those set only; `None`
    /// where the file did not record it (schema 6 and older).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<BTreeMap<String, String>>,
}

/// The variables a results file's `environment` records, when set:
/// `RUSTFLAGS` changes the code measured, and the backtrace variables
/// change what every error value built with `std::backtrace` costs.
pub const ENVIRONMENT: [&str; 3] = ["RUSTFLAGS", "RUST_BACKTRACE", "RUST_LIB_BACKTRACE"];

impl ResultsFile {
    /// An empty results file for this schema.
    pub fn new(date: String, command: String, machine: Machine, build: Build) -> Self {
        ResultsFile {
            schema: SCHEMA,
            date,
            command,
            machine,
            build,
            records: Vec::new(),
            environment: None,
        }
    }

    /// Records of one workload, in file order.
    pub fn workload<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Record> + 'a {
        self.records.iter().filter(move |r| r.workload == name)
    }
}

/// The machine a run measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// The name runs on this machine share (`--machine`; by default the
    /// hostname and CPU model): two hosts with one CPU model stay apart.
    /// See [`Machine::check_name`] for what a name may hold.
    #[serde(default)]
    pub name: String,
    /// CPU model name, e.g. `AMD EPYC 9454P 48-Core Processor`.
    pub cpu_model: String,
    /// CPU feature flags relevant to the kernels (sse4.2, avx2, avx512bw, ...).
    pub cpu_flags: Vec<String>,
    /// Logical cores available to the process.
    pub cores: usize,
    /// Operating system and kernel release.
    pub os: String,
    /// `rustc -V` of the compiler that built the measuring binary.
    pub rustc: String,
    /// The commit the measuring binary was built from, as its builder
    /// named it (`unknown` when it did not).
    pub git_commit: Option<String>,
    /// Whether that tree had uncommitted changes; `None`: unknown.
    #[serde(default)]
    pub git_dirty: Option<bool>,
    /// The one-minute load average when the run started; `None`: not
    /// readable on this OS.
    #[serde(default)]
    pub load_start: Option<f64>,
    /// The one-minute load average when the run ended.
    #[serde(default)]
    pub load_end: Option<f64>,
    /// The CPU frequency governor (`performance`, `schedutil`, ...);
    /// `None`: not readable (a virtual machine often hides it).
    #[serde(default)]
    pub cpu_governor: Option<String>,
    /// Frequency boost, `on` or `off`; `None`: not readable.
    #[serde(default)]
    pub cpu_boost: Option<String>,
    /// The CPU features the measuring process detected at run time, which
    /// decide the code path of a variant that dispatches by itself: under
    /// valgrind (`count`), the ones valgrind's CPU shows, without AVX-512.
    /// `None` in older files, and in a merged file whose runs saw
    /// different ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detected_features: Option<Vec<String>>,
}

impl Machine {
    /// Why `name` cannot name a machine, if it cannot: a name is not empty,
    /// holds no control characters and no `/` (it names a machine's runs
    /// in stores and file names).
    pub fn check_name(name: &str) -> Result<(), String> {
        if name.trim().is_empty() {
            Err("a machine name must not be empty".to_owned())
        } else if name.contains('/') {
            Err("a machine name must not contain '/'".to_owned())
        } else if name.chars().any(char::is_control) {
            Err("a machine name must be printable (no control characters)".to_owned())
        } else {
            Ok(())
        }
    }

    /// `text` made a valid name: `/` and control characters become `-`,
    /// and nothing at all becomes `unknown`.
    pub fn name_from(text: &str) -> String {
        let name: String = text
            .trim()
            .chars()
            .map(|c| if c == '/' || c.is_control() { '-' } else { c })
            .collect();
        if name.is_empty() {
            "unknown".to_owned()
        } else {
            name
        }
    }
}

/// How the measuring binary was built.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Build {
    /// The `-C target-cpu` level, or `default` when none was given.
    pub target_cpu: String,
    /// Target features enabled at compile time (not runtime-detected ones).
    pub features: Vec<String>,
    /// Cargo profile (`release`, `bench`, `debug`).
    pub profile: String,
}

/// Whether a record holds a measurement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Measured; the statistics are meaningful.
    #[default]
    Ok,
    /// The variant gave a wrong answer during verification (an answer
    /// unlike the reference's, or a panic); never timed. Only that: a
    /// finding like a crash, and every command that ran the variant exits
    /// 1 on it. A tool that failed to measure (gungraun reporting no count
    /// for a case) is [`Status::Skipped`] with a reason saying so, never an
    /// error; files from before that rule are read so (see `migrate.rs`).
    Error,
    /// Not run or not measured, for the stated reason (cost model, missing
    /// CPU feature, a measuring tool that reported nothing, ...).
    Skipped,
    /// The variant died by a signal (SIGSEGV, SIGILL, abort, stack
    /// overflow) in a process the harness outlives: a finding, recorded so
    /// the rest of the run still is. `reason` says how and on which input;
    /// never timed.
    Crashed,
    /// The variant did not finish within its deadline and was stopped: a
    /// finding like a crash, not a slow time. `reason` says so and on
    /// which input; never timed.
    Hung,
}

impl Status {
    /// The lowercase name used in files, exports and pages.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Error => "error",
            Status::Skipped => "skipped",
            Status::Crashed => "crashed",
            Status::Hung => "hung",
        }
    }

    /// Whether the variant faulted (crashed or hung) rather than answered:
    /// reports show these first, and a gate fails on them.
    pub fn faulted(self) -> bool {
        matches!(self, Status::Crashed | Status::Hung)
    }

    /// Whether the record is a finding about the variant: a wrong answer,
    /// a crash or a hang. Every command that runs variants exits 1 on one.
    pub fn finding(self) -> bool {
        self == Status::Error || self.faulted()
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One measurement: the statistics of many samples, normalised per element.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Workload name, e.g. `components`.
    pub workload: String,
    /// Variant name, e.g. `swar`.
    pub variant: String,
    /// Input set name, e.g. `density:0.5`.
    pub input_set: String,
    /// The `-C target-cpu` level of the binary that measured this.
    pub target_cpu: String,
    /// What was measured.
    pub metric: Metric,
    /// Unit of the statistics, e.g. `ns/board`, `instructions/board`, `nodes/solution`.
    pub unit: String,
    /// Whether this record holds a measurement.
    #[serde(default)]
    pub status: Status,
    /// Why the record is an error, was skipped, crashed or hung.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Median over samples, per element.
    pub median: f64,
    /// Median absolute deviation over samples, per element.
    pub mad: f64,
    /// Fastest sample, per element.
    pub min: f64,
    /// Slowest sample, per element.
    pub max: f64,
    /// Number of samples taken.
    pub samples: u32,
    /// Elements processed in one sample (boards, solves, nodes, ...).
    pub elements_per_sample: u64,
    /// Where the record came from when files were merged (a label or path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The input set's parameters, in the workload's order: one makes the
    /// set a point of a line chart, two a cell of a heatmap.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
    /// The workload's oracle, the reference of its speedups (whether or
    /// not this run measured it); `None` when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle: Option<String>,
    /// The samples per element, one list per measuring round (rounds are
    /// apart in time, so they show the noise between runs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<Vec<f64>>,
    /// The 95 % interval of `median` (a bootstrap over `rounds`); `None`
    /// when there were too few samples for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// On B's time record of a paired A/B (`ab`): its pairs' `B ÷ A`, so
    /// a report can draw the change and how the pairs spread; `None`
    /// everywhere else (and in files older than `ab`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired: Option<Paired>,
    /// How many of the samples behind a time record were disturbed (the
    /// thread lost time to something else: wall time well beyond its CPU
    /// time) and
    /// set aside; `None` for counts and in files from before samples were
    /// watched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disturbance: Option<Disturbance>,
    /// What one element of throughput is, plural (`matrices`), as the
    /// workload declares it; `None` in older files, where reports add an
    /// `s` to the singular in `unit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_plural: Option<String>,
    /// A counted record's callgrind profile (see [`crate::profile`]): a
    /// path relative to the results file's directory, so that the file
    /// and its profiles move together (the history store files both).
    /// `None` for time records, with `count --no-profiles`, and in older
    /// files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The CPU features the variant needs, as its workload declares them;
    /// empty in older files and for portable variants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Whether the variant is a dispatcher, choosing among the others by a
    /// table `bitbench dispatch` wrote: drawn and compared beside them, but
    /// never a candidate of a decision (it would choose itself).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dispatcher: bool,
    /// On a `cycles` record: the core's clock that converted its samples;
    /// `None` everywhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
}

/// The core's clock over a record's samples, as calibrated between them
/// (see the `cycles` metric).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    /// The median of the calibrations, in GHz.
    pub median_ghz: f64,
    /// The lowest calibration.
    pub low_ghz: f64,
    /// The highest calibration.
    pub high_ghz: f64,
    /// The kernel's clocksource (`tsc`, `kvm-clock`), where it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocksource: Option<String>,
}

/// How many of a record's samples were set aside as disturbed; whether
/// that makes the record's figure doubtful is judged in
/// [`crate::disturbance`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Disturbance {
    /// Samples taken (for `ab`, pairs), kept or set aside.
    pub taken: u32,
    /// Of those, set aside: the thread lost time to something else during
    /// the sample (its wall time well past its CPU time; where it also
    /// waited of its own accord, any preemption).
    pub set_aside: u32,
    /// How samples were watched: `rusage` (the measuring thread's context
    /// switches from `getrusage` and its CPU clock), `proc` (context
    /// switches only, read by the parent from `/proc` for a build that
    /// reports none itself) or `none` (not watched: every sample kept).
    pub probe: String,
}

impl Disturbance {
    /// The share of samples set aside, 0 to 1.
    pub fn share(&self) -> f64 {
        f64::from(self.set_aside) / f64::from(self.taken.max(1))
    }
}

/// A paired A/B of one time record: B's samples against A's, taken
/// alternately, so each pair's ratio cancels the host's drift.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    /// The change, `B ÷ A`, as the decision rule estimates it.
    pub ratio: f64,
    /// Its 95 % interval; `None` when there were too few pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// Each pair's `B ÷ A`, in the order taken.
    pub ratios: Vec<f64>,
    /// The threshold the change was judged against, in percent; `None` in
    /// files written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_pct: Option<f64>,
    /// What the change was judged to be (the `ab` verdict of this record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

/// One named parameter of an input set, e.g. `density` = 0.5.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    /// Its name, e.g. `density`, `rank`, `bytes`.
    pub name: String,
    /// Its value.
    pub value: f64,
    /// What it is, where the workload declared it (see
    /// [`Parameter::meaning`] for what is inferred otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meaning: Option<Meaning>,
}

impl Parameter {
    /// What it is: the declared meaning, else the one its name suggests.
    pub fn meaning(&self) -> Option<Meaning> {
        self.meaning.or_else(|| Meaning::infer(&self.name))
    }
}

impl Record {
    /// The status and its reason as one phrase, `crashed: segmentation
    /// fault (SIGSEGV) on 7`, without saying the status twice when the
    /// reason starts with it (a crash's reason does).
    pub(crate) fn status_reason(&self) -> String {
        let status = self.status.as_str();
        match self.reason.as_deref() {
            Some(why)
                if why
                    .strip_prefix(status)
                    .is_some_and(|rest| rest.starts_with([':', ' '])) =>
            {
                why.to_owned()
            }
            Some(why) => format!("{status}: {why}"),
            None => status.to_owned(),
        }
    }

    /// The identity two runs are compared by.
    pub fn key(&self) -> RecordKey<'_> {
        RecordKey {
            workload: &self.workload,
            variant: &self.variant,
            input_set: &self.input_set,
            target_cpu: &self.target_cpu,
            metric: self.metric,
            unit: &self.unit,
        }
    }
}

/// The identity of a record across runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct RecordKey<'a> {
    /// Workload name.
    pub workload: &'a str,
    /// Variant name.
    pub variant: &'a str,
    /// Input set name.
    pub input_set: &'a str,
    /// Target-cpu level.
    pub target_cpu: &'a str,
    /// Metric.
    pub metric: Metric,
    /// Unit (distinguishes counters of one metric kind).
    pub unit: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_reason_read_as_one_phrase() {
        let with = |status: Status, reason: Option<&str>| Record {
            status,
            reason: reason.map(str::to_owned),
            ..Record::default()
        };
        let crash = "crashed: segmentation fault (SIGSEGV) on 7";
        assert_eq!(with(Status::Crashed, Some(crash)).status_reason(), crash);
        assert_eq!(
            with(Status::Hung, Some("did not finish in 10 s on 12345")).status_reason(),
            "hung: did not finish in 10 s on 12345"
        );
        assert_eq!(
            with(Status::Error, Some("errors in the table")).status_reason(),
            "error: errors in the table"
        );
        assert_eq!(with(Status::Skipped, None).status_reason(), "skipped");
    }

    #[test]
    fn machine_names_are_checked_and_made_from_any_text() {
        assert!(Machine::check_name("lab-1").is_ok());
        assert!(Machine::check_name("ci · AMD EPYC (family 25)").is_ok());
        for bad in ["", "  ", "a/b", "tab\there"] {
            assert!(Machine::check_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(Machine::name_from(" x86/64\n"), "x86-64");
        assert_eq!(Machine::name_from(""), "unknown");
        assert!(Machine::check_name(&Machine::name_from("a/\u{7}b")).is_ok());
    }
}
