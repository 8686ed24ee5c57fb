//! Whether a time record can be trusted: the samples a busy machine
//! disturbed, and noise too wide for the record's interval to resolve.
//!
//! `bench` and `ab` watch every sample (see the harness's `disturb`
//! module) and set aside those during which the measuring thread lost
//! time to something else: its wall time ran well past its CPU time (a
//! preemption, a migration, a hypervisor's steal). What is
//! left may still be noisy: the host's other tenants leave no trace in
//! the machine, only in the spread of the samples. Both concerns are
//! judged here, once, so that `bench`, `ab`, `compare` and `report` warn
//! about the same records for the same reasons. The counts themselves,
//! [`Disturbance`], are a record's field and belong to the results schema.
//!
//! How uncertain a record may be depends on what its figure is for
//! ([`Purpose`]): a quick run's speedup table ranks variants, a full run
//! is filed to be gated against. A warning that names a third of a quick
//! run's records on every run stops being read, so each caller says what
//! its records are for, and the line names the few furthest from holding.

pub use crate::results::Disturbance;
use crate::results::{Metric, Record, Status};
use crate::thresholds;

impl Disturbance {
    /// `12 of 80 samples disturbed` (for `ab`, `pairs`) when the share
    /// set aside reaches [`SHARE_LIMIT`].
    pub fn too_busy(&self, what: &str) -> Option<String> {
        self.beyond(SHARE_LIMIT, what)
    }

    /// `12 of 80 samples disturbed` when the share set aside reaches
    /// `limit`.
    fn beyond(&self, limit: f64, what: &str) -> Option<String> {
        (self.share() >= limit)
            .then(|| format!("{} of {} {what} disturbed", self.set_aside, self.taken))
    }
}

/// A share of disturbed samples from which a record counts as measured on
/// a busy machine, where its figure is to be gated (and for `ab`'s pairs):
/// a quiet one disturbs about one 2 ms sample in a hundred (a kernel
/// thread, an interrupt storm).
pub const SHARE_LIMIT: f64 = 0.1;

/// What a run's time records are for. How uncertain a record may be and
/// still hold follows from it: a figure that only ranks variants can be far
/// less certain than one another run will be gated against. [`Purpose::limits`]
/// puts the defaults side by side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Purpose {
    /// A quick run's speedup table (the main job, `bench --quick`): the
    /// figures rank variants by ratios of medians, and variants a table
    /// ranks are seldom within a few per cent of each other.
    Ranking,
    /// Figures a change is judged against: a full `bench` filed for
    /// `compare` or `history`, `compare` itself, a report of such files.
    #[default]
    Gate,
}

impl Purpose {
    /// What a `bench` run's records are for: a `quick` one's ranks
    /// variants, a full one's is filed to be gated against.
    pub fn of_bench(quick: bool) -> Purpose {
        if quick {
            Purpose::Ranking
        } else {
            Purpose::Gate
        }
    }

    /// The limits a record must keep to hold for this purpose.
    pub fn limits(self) -> Limits {
        match self {
            // Within ±10 % each, two variants 1.25× apart keep their order
            // (1.1 ÷ 0.9 < 1.25). A disturbed sample is retaken, so a
            // share only says the retakes may not have been enough when
            // half the samples lost the core: a busy loop sharing it.
            Purpose::Ranking => Limits {
                resolution_pct: 10.0,
                share: 0.5,
            },
            // `compare`'s default time threshold: a record whose interval
            // is wider could not show a change of that size. A quiet
            // machine disturbs about 1 % of the samples: 10 % is a busy one.
            Purpose::Gate => Limits {
                resolution_pct: thresholds::gate(Metric::Time),
                share: SHARE_LIMIT,
            },
        }
    }
}

/// How far a time record may be from certain and still hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The widest 95 % interval, in per cent of the median on either side
    /// (for a paired `ab` record, of the change).
    pub resolution_pct: f64,
    /// The largest share of samples set aside as disturbed, 0 to 1.
    pub share: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Purpose::default().limits()
    }
}

/// Why a time record may not hold, and how far it is from holding.
#[derive(Clone, Debug, PartialEq)]
pub struct Concern {
    /// In words: `12 of 80 samples disturbed, ±8.0 % interval, wider than ±5 %`.
    pub why: String,
    /// How many times over its limits the record is: the larger of its
    /// interval's half-width over the resolution and its disturbed share
    /// over the share allowed; above 1 for every concern.
    pub excess: f64,
}

/// Why a time record's figure may not hold under `limits`, if it may not:
/// too many of its samples were disturbed, or its 95 % interval is wider
/// than the resolution on either side, so a change of that size could not
/// be told from noise. For a paired `ab` record the interval is the
/// change's.
pub fn concern(record: &Record, limits: Limits) -> Option<Concern> {
    if record.status != Status::Ok || !record.metric.descriptor().produced.by_clock() {
        return None;
    }
    let mut why = Vec::new();
    let mut excess: f64 = 0.0;
    if let Some(d) = &record.disturbance
        && let Some(busy) = d.beyond(limits.share, "samples")
    {
        why.push(busy);
        excess = d.share() / limits.share;
    }
    let half_width = match &record.paired {
        Some(p) => p.interval.map(|i| (i.high - i.low) / 2.0 * 100.0),
        None => record
            .interval
            .filter(|_| record.median > 0.0)
            .map(|i| (i.high - i.low) / 2.0 / record.median * 100.0),
    };
    if let Some(h) = half_width.filter(|&h| h > limits.resolution_pct) {
        why.push(format!(
            "±{h:.1} % interval, wider than ±{} %",
            limits.resolution_pct
        ));
        excess = excess.max(h / limits.resolution_pct);
    }
    (!why.is_empty()).then(|| Concern {
        why: why.join(", "),
        excess,
    })
}

/// The one warning line for a command's time records under `limits`:
/// how many of the measured ones may not hold, the furthest from holding
/// first,
/// and what to do (`advice`, e.g. "give it more --seconds"); `None` when
/// every record holds.
pub fn warning<'a>(
    records: impl IntoIterator<Item = &'a Record>,
    limits: Limits,
    advice: &str,
) -> Option<String> {
    let timed: Vec<&Record> = records
        .into_iter()
        .filter(|r| r.metric == Metric::Time && r.status == Status::Ok)
        .collect();
    let mut concerns: Vec<(f64, String)> = timed
        .iter()
        .filter_map(|r| {
            let c = concern(r, limits)?;
            let source = r
                .source
                .as_deref()
                .map_or(String::new(), |s| format!(" ({s})"));
            let name = format!("{} {} {}{source}", r.workload, r.variant, r.input_set);
            Some((c.excess, format!("{name}: {}", c.why)))
        })
        .collect();
    concerns.sort_by(|a, b| b.0.total_cmp(&a.0));
    let named: Vec<String> = concerns.into_iter().map(|(_, n)| n).collect();
    warning_line(
        &named,
        &format!("of {} time record(s)", timed.len()),
        advice,
    )
}

/// Most things a warning line names; the rest it counts.
pub const NAMED: usize = 5;

/// The warning line for `named` things (`workload variant set: why`, the
/// worst first), the first [`NAMED`] spelled out, and the `advice`; `what`
/// follows their count (`time verdict(s)`, `of 80 time record(s)`).
/// `None` when nothing is named.
pub fn warning_line(named: &[String], what: &str, advice: &str) -> Option<String> {
    match named.len() {
        0 => None,
        n => {
            let more = if n > NAMED {
                format!("; and {} more", n - NAMED)
            } else {
                String::new()
            };
            Some(format!(
                "warning: the machine was busy or noisy; {n} {what} may not hold: {}{more}. {advice}",
                named[..n.min(NAMED)].join("; ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::Interval;

    fn timed(median: f64, half: f64, set_aside: u32) -> Record {
        Record {
            workload: "w".into(),
            variant: "v".into(),
            input_set: "s".into(),
            metric: Metric::Time,
            median,
            interval: Some(Interval {
                low: median - half,
                high: median + half,
            }),
            disturbance: Some(Disturbance {
                taken: 100,
                set_aside,
                probe: "rusage".into(),
            }),
            ..Record::default()
        }
    }

    /// `timed`, named `set`.
    fn named(set: &str, half: f64, set_aside: u32) -> Record {
        Record {
            input_set: set.into(),
            ..timed(100.0, half, set_aside)
        }
    }

    #[test]
    fn a_quiet_narrow_record_holds_and_each_concern_is_named() {
        let gate = Purpose::Gate.limits();
        assert_eq!(concern(&timed(100.0, 1.0, 2), gate), None);
        let busy = concern(&timed(100.0, 1.0, 30), gate).unwrap();
        assert!(busy.why.contains("30 of 100 samples disturbed"), "{busy:?}");
        assert!((busy.excess - 3.0).abs() < 1e-9, "{busy:?}");
        let noisy = concern(&timed(100.0, 8.0, 0), gate).unwrap();
        assert!(noisy.why.contains("±8.0 % interval"), "{noisy:?}");
        assert!((noisy.excess - 1.6).abs() < 1e-9, "{noisy:?}");
        // Counts and records without a measurement are never a concern.
        let count = Record {
            metric: Metric::Instructions,
            ..timed(100.0, 8.0, 50)
        };
        assert_eq!(concern(&count, gate), None);
    }

    #[test]
    fn the_limits_follow_what_the_figures_are_for() {
        // A full bench is gated against: `compare`'s default threshold.
        assert_eq!(Purpose::of_bench(false), Purpose::Gate);
        let gate = Purpose::Gate.limits();
        assert_eq!(gate.resolution_pct, thresholds::gate(Metric::Time));
        assert_eq!(gate.share, SHARE_LIMIT);
        assert_eq!(Limits::default(), gate);
        // A quick one ranks variants: wider on both counts.
        assert_eq!(Purpose::of_bench(true), Purpose::Ranking);
        let ranking = Purpose::Ranking.limits();
        assert!(ranking.resolution_pct > gate.resolution_pct);
        assert!(ranking.share > gate.share);
        // Noise a gate cannot judge through still ranks variants...
        let noisy = timed(100.0, 8.0, 30);
        assert!(concern(&noisy, gate).is_some());
        assert_eq!(concern(&noisy, ranking), None);
        // ...but a core lost most of the time, or an interval of ±30 %,
        // does not.
        assert!(concern(&timed(100.0, 1.0, 80), ranking).is_some());
        assert!(concern(&timed(100.0, 30.0, 0), ranking).is_some());
    }

    #[test]
    fn the_warning_is_one_line_naming_the_records_and_the_advice() {
        let records = [
            timed(100.0, 1.0, 0),
            timed(100.0, 1.0, 40),
            timed(100.0, 9.0, 0),
            // Neither a count nor a record not measured is one of the
            // time records counted.
            Record {
                metric: Metric::Instructions,
                ..timed(100.0, 9.0, 0)
            },
            Record {
                status: Status::Skipped,
                ..timed(100.0, 9.0, 0)
            },
        ];
        let gate = Purpose::Gate.limits();
        let line = warning(&records, gate, "try --core").unwrap();
        assert!(!line.contains('\n'));
        assert!(line.starts_with("warning: "), "{line}");
        assert!(
            line.contains("2 of 3 time record(s)") && line.ends_with("try --core"),
            "{line}"
        );
        assert_eq!(warning(&records[..1], gate, "x"), None);
    }

    #[test]
    fn the_warning_names_the_five_furthest_from_holding_first() {
        let gate = Purpose::Gate.limits();
        // How far each is from holding: 2×, 1.2×, 6×, 3×, 1.4×, 8×, 4×;
        // and one that holds.
        let records = [
            named("a", 10.0, 0),
            named("b", 6.0, 0),
            named("c", 1.0, 60),
            named("d", 15.0, 0),
            named("e", 7.0, 0),
            named("f", 40.0, 0),
            named("g", 1.0, 40),
            named("h", 1.0, 0),
        ];
        let line = warning(&records, gate, "advice").unwrap();
        assert!(line.contains("7 of 8 time record(s)"), "{line}");
        let order: Vec<usize> = ["f", "c", "g", "d", "a"]
            .iter()
            .map(|s| line.find(&format!("w v {s}:")).expect(s))
            .collect();
        assert!(order.is_sorted(), "{line}");
        for left_out in ["e", "b", "h"] {
            assert!(!line.contains(&format!("w v {left_out}:")), "{line}");
        }
        assert!(line.contains("; and 2 more."), "{line}");
        // Five or fewer: all named, nothing more counted.
        let line = warning(&records[..5], gate, "advice").unwrap();
        assert!(!line.contains("more"), "{line}");
    }
}
