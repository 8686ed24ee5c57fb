//! Every metric a record can hold, and everything known about each one,
//! in one table.
//!
//! A metric's name, label and unit, how it is produced, how two runs of
//! it are judged, what `ab` does with it, its caption and its chart used
//! to be spread over the printers, the chart planners, the exports,
//! `compare`, `ab` and `history`, in closed matches that drifted apart (a
//! caption once said "+10 per L1 miss" where the formula added 4). Each
//! of them now reads [`Metric::descriptor`]. Adding a metric is its
//! variant and its entry in [`DESCRIPTORS`] here, plus the code that
//! measures it.
//!
//! Two properties that one word, "exact", used to serve are apart:
//! [`Judged`] (how two runs are compared: statistically like time, or
//! exactly like a count) and [`Produced`] (where the figures come from:
//! only [`Produced::Callgrind`] metrics need valgrind).

use serde::{Deserialize, Serialize};
use std::fmt;

/// What a record measured.
///
/// Non-exhaustive from 0.2.0, so that a metric added later is not a
/// breaking change: a `match` outside this crate needs a `_` arm.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Metric {
    /// Wall-clock nanoseconds per element.
    #[default]
    Time,
    /// Instructions retired per element (callgrind).
    Instructions,
    /// A workload-defined counter per element, such as search nodes.
    Counter,
    /// A variant's setup, as a cold start: building its solver and running
    /// its first batch in a fresh process, less the warm time of that
    /// batch (tables built lazily on first use count). One record per
    /// variant, unit `ns/start`; `input_set` names the batch's set and
    /// each sample is one fresh process.
    Setup,
    /// First-level data cache misses (reads and writes) per element, from
    /// callgrind's cache simulation with fixed cache sizes.
    D1Misses,
    /// Last-level cache misses (instruction and data) per element, from
    /// the same simulation.
    LlMisses,
    /// Cycles per element as callgrind's cache simulation estimates them
    /// (gungraun's: L1 hits + 5 × LL hits + 35 × RAM hits, that is
    /// instructions and data accesses, plus 4 per L1 miss, plus 30 per LL
    /// miss).
    EstimatedCycles,
    /// A variant's preparation of its own input form
    /// (`bitbench::prepared`: text parsed into its crate's type, a buffer
    /// laid out), made outside the timed region and timed on its own: one
    /// record per (variant, input set) that prepares, in the unit of its
    /// time record, each sample one preparation of the whole batch.
    Prepare,
    /// Core cycles per element: each time sample times the core's clock,
    /// calibrated between the samples against dependent instruction
    /// chains (no PMU needed). Not callgrind's [`Metric::EstimatedCycles`].
    Cycles,
    /// Allocations and reallocations per element, counted exactly by
    /// bitbench's counting allocator on one untimed pass over the batch
    /// after verification (every thread counted).
    Allocations,
    /// Bytes asked of the allocator per element, on the same pass.
    AllocatedBytes,
    /// The most bytes live above the pass's start, for the whole batch:
    /// what the variant holds at once, not per element.
    PeakBytes,
}

/// Where a metric's figures come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Produced {
    /// Wall clock, in the measuring process: samples of a batch.
    Timed,
    /// Wall clock, one fresh process a sample.
    FreshProcess,
    /// Wall clock in the measuring process, times the core's clock
    /// calibrated between the samples.
    Calibrated,
    /// Counted under callgrind: the weighted sum of these events, the
    /// same sum gungraun takes for the record (`profile/measure.rs`).
    Callgrind(&'static [(&'static str, u64)]),
    /// Counted by the workload in the measuring process.
    Counted,
    /// Counted by the counting allocator in the measuring process, on one
    /// untimed pass over the verified batch.
    Allocator,
}

impl Produced {
    /// Whether its figures are read off a clock, which another tenant can
    /// disturb.
    pub fn by_clock(self) -> bool {
        matches!(
            self,
            Produced::Timed | Produced::FreshProcess | Produced::Calibrated
        )
    }

    /// Whether it needs callgrind's cache simulation: any event besides
    /// the instructions (`Ir`).
    pub fn needs_cache_sim(self) -> bool {
        matches!(self, Produced::Callgrind(events) if events.iter().any(|(e, _)| *e != "Ir"))
    }
}

/// How two runs of a metric are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// A noisy measurement: medians, intervals, and a threshold wide
    /// enough for run-to-run drift.
    Statistically,
    /// The same build on the same inputs gives the same value: any move
    /// beyond a small threshold is real.
    Exactly,
}

/// What `ab` does with a metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InAb {
    /// Paired samples of both builds, interleaved in one window.
    Paired,
    /// Counted for both builds under callgrind.
    Counted,
    /// Counted by each build's own process on one untimed pass when it
    /// loads a batch (the serve protocol's), compared exactly.
    Loaded,
    /// Not measured by `ab`, for the reason given.
    Not(&'static str),
}

/// How a report charts a metric of its own accord.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// Drawn by planners of its own (time's bars, sweeps and levels;
    /// setup's cold starts).
    Own,
    /// One bar chart of its medians per element.
    Bars,
    /// One bar chart per unit: a workload's counters differ in meaning.
    BarsPerUnit,
}

/// What one figure of a metric is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// This much per element of the workload's unit (`ns` per board).
    PerElement(&'static str),
    /// This much over one pass of the whole batch (`bytes` a pass).
    PerPass(&'static str),
    /// Named by the workload (a counter's own unit).
    Named,
}

/// Everything known about one metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// The metric described.
    pub metric: Metric,
    /// The lowercase name in files and on the command line.
    pub name: &'static str,
    /// What a reader calls it, as a chart's and a table's label.
    pub label: &'static str,
    /// What one figure is counted in.
    pub unit: Unit,
    /// Where its figures come from.
    pub produced: Produced,
    /// How two runs of it are compared.
    pub judged: Judged,
    /// What `ab` does with it.
    pub ab: InAb,
    /// How it is charted.
    pub chart: Chart,
    /// What it is, for a chart's caption; "lower is better" is added.
    pub about: &'static str,
    /// Bencher's measure for it; `None`: a slug of the record's unit.
    pub bencher: Option<&'static str>,
}

/// Every metric's descriptor, in the order charts and tables list them.
pub const DESCRIPTORS: [Descriptor; 12] = [
    Descriptor {
        metric: Metric::Time,
        name: "time",
        label: "time",
        unit: Unit::PerElement("ns"),
        produced: Produced::Timed,
        judged: Judged::Statistically,
        ab: InAb::Paired,
        chart: Chart::Own,
        about: "Wall-clock time per element, the median over samples",
        bencher: Some("latency"),
    },
    Descriptor {
        metric: Metric::Instructions,
        name: "instructions",
        label: "instructions",
        unit: Unit::PerElement("instructions"),
        produced: Produced::Callgrind(&[("Ir", 1)]),
        judged: Judged::Exactly,
        ab: InAb::Counted,
        chart: Chart::Bars,
        about: "Instructions retired, counted under callgrind",
        bencher: Some("instructions"),
    },
    Descriptor {
        metric: Metric::Counter,
        name: "counter",
        label: "counter",
        unit: Unit::Named,
        produced: Produced::Counted,
        judged: Judged::Exactly,
        ab: InAb::Not(
            "a workload's counter comes from bench; compare two bench results files with `compare`",
        ),
        chart: Chart::BarsPerUnit,
        about: "A workload counter per variant (median over samples); shows how much search each variant does",
        bencher: None,
    },
    Descriptor {
        metric: Metric::Setup,
        name: "setup",
        label: "setup",
        unit: Unit::PerElement("ns"),
        produced: Produced::FreshProcess,
        judged: Judged::Statistically,
        ab: InAb::Not(
            "setup is a cold start, a fresh process a sample; compare two bench results files with `compare`",
        ),
        chart: Chart::Own,
        about: "A variant's cold start: building its solver and running its first batch in a fresh process, less the warm time of that batch",
        bencher: Some("setup"),
    },
    Descriptor {
        metric: Metric::Prepare,
        name: "prepare",
        label: "preparation",
        unit: Unit::PerElement("ns"),
        produced: Produced::Timed,
        judged: Judged::Statistically,
        ab: InAb::Not(
            "a preparation is timed outside the timed region by bench; compare two bench results files with `compare`",
        ),
        chart: Chart::Bars,
        about: "Each variant's preparation of its own input form (text parsed into its type, a buffer laid out), made outside the timed region and timed on its own; wall clock, per element like time",
        bencher: Some("prepare"),
    },
    Descriptor {
        metric: Metric::D1Misses,
        name: "d1_misses",
        label: "D1 misses",
        unit: Unit::PerElement("D1 misses"),
        produced: Produced::Callgrind(&[("D1mr", 1), ("D1mw", 1)]),
        judged: Judged::Exactly,
        ab: InAb::Counted,
        chart: Chart::Bars,
        about: "First-level data cache misses (reads and writes) in callgrind's cache simulation, with fixed cache sizes",
        bencher: Some("d1-misses"),
    },
    Descriptor {
        metric: Metric::LlMisses,
        name: "ll_misses",
        label: "LL misses",
        unit: Unit::PerElement("LL misses"),
        produced: Produced::Callgrind(&[("ILmr", 1), ("DLmr", 1), ("DLmw", 1)]),
        judged: Judged::Exactly,
        ab: InAb::Counted,
        chart: Chart::Bars,
        about: "Last-level cache misses (instructions and data) in callgrind's cache simulation, with fixed cache sizes",
        bencher: Some("ll-misses"),
    },
    Descriptor {
        metric: Metric::EstimatedCycles,
        name: "estimated_cycles",
        label: "estimated cycles",
        unit: Unit::PerElement("estimated cycles"),
        // gungraun's EstimatedCycles: L1 hits + 5 × LL hits + 35 × RAM
        // hits over all accesses (Ir + Dr + Dw), which is the accesses
        // plus 4 per L1 miss plus 30 per LL miss.
        produced: Produced::Callgrind(&[
            ("Ir", 1),
            ("Dr", 1),
            ("Dw", 1),
            ("I1mr", 4),
            ("D1mr", 4),
            ("D1mw", 4),
            ("ILmr", 30),
            ("DLmr", 30),
            ("DLmw", 30),
        ]),
        judged: Judged::Exactly,
        ab: InAb::Counted,
        chart: Chart::Bars,
        about: "Cycles as callgrind's cache simulation estimates them (instructions and data accesses, + 4 per L1 miss, + 30 per LL miss)",
        bencher: Some("estimated-cycles"),
    },
    Descriptor {
        metric: Metric::Cycles,
        name: "cycles",
        label: "cycles",
        unit: Unit::PerElement("cycles"),
        produced: Produced::Calibrated,
        judged: Judged::Statistically,
        ab: InAb::Not(
            "paired samples cancel the clock already: judge `time`, whose rows show cycles beside it; compare two bench results files for cycles",
        ),
        chart: Chart::Bars,
        about: "Core cycles per element: each time sample times the clock calibrated beside it against dependent add and imul chains (no PMU); moves with memory-bound code and frequency licences",
        bencher: Some("cycles"),
    },
    Descriptor {
        metric: Metric::Allocations,
        name: "allocations",
        label: "allocations",
        unit: Unit::PerElement("allocations"),
        produced: Produced::Allocator,
        judged: Judged::Exactly,
        ab: InAb::Loaded,
        chart: Chart::Bars,
        about: "Allocations and reallocations per element, counted exactly on one untimed pass after verification (every thread)",
        bencher: Some("allocations"),
    },
    Descriptor {
        metric: Metric::AllocatedBytes,
        name: "allocated_bytes",
        label: "bytes allocated",
        unit: Unit::PerElement("bytes allocated"),
        produced: Produced::Allocator,
        judged: Judged::Exactly,
        ab: InAb::Loaded,
        chart: Chart::Bars,
        about: "Bytes asked of the allocator per element (a reallocation's new size), on the same pass",
        bencher: Some("allocated-bytes"),
    },
    Descriptor {
        metric: Metric::PeakBytes,
        name: "peak_bytes",
        label: "peak bytes",
        unit: Unit::PerPass("peak bytes"),
        produced: Produced::Allocator,
        judged: Judged::Exactly,
        ab: InAb::Loaded,
        chart: Chart::Bars,
        about: "The most bytes live at once above the pass's start, over the whole batch",
        bencher: Some("peak-bytes"),
    },
];

impl Metric {
    /// Every metric, in the order charts and tables list them.
    pub const ALL: [Metric; DESCRIPTORS.len()] = {
        let mut all = [Metric::Time; DESCRIPTORS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = DESCRIPTORS[i].metric;
            i += 1;
        }
        all
    };

    /// Everything known about the metric.
    pub fn descriptor(self) -> &'static Descriptor {
        DESCRIPTORS
            .iter()
            .find(|d| d.metric == self)
            .expect("every metric has a descriptor")
    }

    /// The lowercase name used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        self.descriptor().name
    }

    /// The metric named `name` (as [`Metric::as_str`] spells it).
    pub fn parse(name: &str) -> Option<Metric> {
        DESCRIPTORS
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.metric)
    }

    /// Whether two runs of it are compared exactly ([`Judged::Exactly`]):
    /// the same build on the same inputs gives the same value.
    pub fn judged_exactly(self) -> bool {
        self.descriptor().judged == Judged::Exactly
    }

    /// The callgrind events it sums and their weights; `None` where it is
    /// not counted under callgrind.
    pub fn callgrind_events(self) -> Option<&'static [(&'static str, u64)]> {
        match self.descriptor().produced {
            Produced::Callgrind(events) => Some(events),
            _ => None,
        }
    }

    /// The unit of one record of it per `element` (`ns/board`,
    /// `D1 misses/byte`, `peak bytes/pass`); `None` where the workload
    /// names it (counters).
    pub fn unit(self, element: &str) -> Option<String> {
        match self.descriptor().unit {
            Unit::PerElement(per) => Some(format!("{per}/{element}")),
            Unit::PerPass(what) => Some(format!("{what}/pass")),
            Unit::Named => None,
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_metric_has_one_descriptor_named_as_its_files_spell_it() {
        for (i, d) in DESCRIPTORS.iter().enumerate() {
            assert_eq!(Metric::ALL[i], d.metric);
            assert_eq!(d.metric.descriptor(), d, "{} described twice", d.name);
            let json = serde_json::to_string(&d.metric).unwrap();
            assert_eq!(json, format!("\"{}\"", d.name));
            assert_eq!(Metric::parse(d.name), Some(d.metric));
        }
        assert_eq!(Metric::parse("cycles per banana"), None);
    }

    #[test]
    fn valgrind_and_exact_judgement_are_two_properties() {
        // A workload's counter is judged exactly but never sent to
        // callgrind; time is neither.
        let counter = Metric::Counter.descriptor();
        assert_eq!(counter.judged, Judged::Exactly);
        assert!(!matches!(counter.produced, Produced::Callgrind(_)));
        assert!(!Metric::Time.judged_exactly());
        assert!(!Metric::Instructions.descriptor().produced.needs_cache_sim());
        assert!(Metric::D1Misses.descriptor().produced.needs_cache_sim());
        assert_eq!(
            Metric::D1Misses.unit("byte").as_deref(),
            Some("D1 misses/byte")
        );
        assert_eq!(Metric::Counter.unit("board"), None);
        // An allocation count is exact but needs no valgrind either.
        let allocations = Metric::Allocations.descriptor();
        assert_eq!(allocations.judged, Judged::Exactly);
        assert_eq!(Metric::Allocations.callgrind_events(), None);
        assert_eq!(
            Metric::PeakBytes.unit("board").as_deref(),
            Some("peak bytes/pass")
        );
    }
}
