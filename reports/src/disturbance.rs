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
//! about the same records for the same reasons.

use crate::results::{Metric, Record, Status};
use serde::{Deserialize, Serialize};

/// How many of a record's samples were set aside as disturbed.
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

    /// `12 of 80 samples disturbed` (for `ab`, `pairs`) when the share
    /// set aside reaches [`SHARE_LIMIT`].
    pub fn too_busy(&self, what: &str) -> Option<String> {
        (self.share() >= SHARE_LIMIT)
            .then(|| format!("{} of {} {what} disturbed", self.set_aside, self.taken))
    }
}

/// A share of disturbed samples from which a record counts as measured on
/// a busy machine: a quiet one disturbs about one 2 ms sample in a
/// hundred (a kernel thread, an interrupt storm).
pub const SHARE_LIMIT: f64 = 0.1;

/// Why a time record's figure may not hold, if it may not: too many of
/// its samples were disturbed, or its 95 % interval is wider than
/// `resolution_pct` on either side, so a change of that size could not be
/// told from noise. For a paired `ab` record the interval is the change's.
pub fn concern(record: &Record, resolution_pct: f64) -> Option<String> {
    if record.status != Status::Ok || record.metric.exact() {
        return None;
    }
    let mut why: Vec<String> = record
        .disturbance
        .as_ref()
        .and_then(|d| d.too_busy("samples"))
        .into_iter()
        .collect();
    let half_width = match &record.paired {
        Some(p) => p.interval.map(|i| (i.high - i.low) / 2.0 * 100.0),
        None => record
            .interval
            .filter(|_| record.median > 0.0)
            .map(|i| (i.high - i.low) / 2.0 / record.median * 100.0),
    };
    if let Some(h) = half_width.filter(|&h| h > resolution_pct) {
        why.push(format!(
            "±{h:.1} % interval, wider than ±{resolution_pct} %"
        ));
    }
    (!why.is_empty()).then(|| why.join(", "))
}

/// The one warning line for a command's records, naming the ones with a
/// [`concern`] and what to do (`advice`, e.g. "give it more --seconds"),
/// or `None` when every record holds. `resolution_pct` as for [`concern`].
pub fn warning<'a>(
    records: impl IntoIterator<Item = &'a Record>,
    resolution_pct: f64,
    advice: &str,
) -> Option<String> {
    let named: Vec<String> = records
        .into_iter()
        .filter(|r| r.metric == Metric::Time)
        .filter_map(|r| {
            concern(r, resolution_pct).map(|why| {
                let source = r
                    .source
                    .as_deref()
                    .map_or(String::new(), |s| format!(" ({s})"));
                format!(
                    "{} {} {}{source}: {why}",
                    r.workload, r.variant, r.input_set
                )
            })
        })
        .collect();
    warning_line(&named, "record(s)", advice)
}

/// The warning line for `named` things (`workload variant set: why`, each
/// one of `what`, e.g. "record(s)"), the first three spelled out, and the
/// `advice`; `None` when nothing is named.
pub fn warning_line(named: &[String], what: &str, advice: &str) -> Option<String> {
    let shown = 3;
    match named.len() {
        0 => None,
        n => {
            let more = if n > shown {
                format!("; and {} more", n - shown)
            } else {
                String::new()
            };
            Some(format!(
                "warning: the machine was busy or noisy; {n} {what} may not hold: {}{more}. {advice}",
                named[..n.min(shown)].join("; ")
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

    #[test]
    fn a_quiet_narrow_record_holds_and_each_concern_is_named() {
        assert_eq!(concern(&timed(100.0, 1.0, 2), 5.0), None);
        let busy = concern(&timed(100.0, 1.0, 30), 5.0).unwrap();
        assert!(busy.contains("30 of 100 samples disturbed"), "{busy}");
        let noisy = concern(&timed(100.0, 8.0, 0), 5.0).unwrap();
        assert!(noisy.contains("±8.0 % interval"), "{noisy}");
        // Counts and records without a measurement are never a concern.
        let count = Record {
            metric: Metric::Instructions,
            ..timed(100.0, 8.0, 50)
        };
        assert_eq!(concern(&count, 5.0), None);
    }

    #[test]
    fn the_warning_is_one_line_naming_the_records_and_the_advice() {
        let records = [
            timed(100.0, 1.0, 0),
            timed(100.0, 1.0, 40),
            timed(100.0, 9.0, 0),
        ];
        let line = warning(&records, 5.0, "try --core").unwrap();
        assert!(!line.contains('\n'));
        assert!(line.starts_with("warning: "), "{line}");
        assert!(
            line.contains("2 record(s)") && line.ends_with("try --core"),
            "{line}"
        );
        assert_eq!(warning(&records[..1], 5.0, "x"), None);
    }
}
