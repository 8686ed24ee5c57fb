//! A results metric as a sum of a profile's callgrind events.
//!
//! Records count instructions, cache misses or estimated cycles; a profile
//! counts callgrind's raw events (`Ir`, `D1mr`, …). Each metric is a fixed
//! weighted sum of events (its descriptor's, `metric.rs`), the same sum
//! gungraun takes for the record, so a profile's total under a metric is
//! the record's value for the batch and every table built on it adds up
//! to the record.

use crate::Metric;
use std::fmt;

/// A metric resolved against one profile's event columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measure {
    metric: Metric,
    /// (event column, weight).
    terms: Vec<(usize, u64)>,
}

impl Measure {
    /// How `metric` sums the events of a profile whose columns are
    /// `events` (callgrind's `events:` line).
    pub fn new(metric: Metric, events: &[String]) -> Result<Measure, MetricError> {
        let formula = metric
            .callgrind_events()
            .ok_or(MetricError::NotCounted(metric))?;
        let terms = formula
            .iter()
            .map(|&(event, weight)| {
                events
                    .iter()
                    .position(|e| e == event)
                    .map(|column| (column, weight))
                    .ok_or(MetricError::MissingEvent { metric, event })
            })
            .collect::<Result<_, _>>()?;
        Ok(Measure { metric, terms })
    }

    /// The metric measured.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The metric's value for one cost (one value per event column).
    pub fn of(&self, costs: &[u64]) -> u64 {
        self.terms.iter().map(|&(c, w)| w * costs[c]).sum()
    }
}

/// Why a profile cannot be measured by a metric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetricError {
    /// The metric is not a callgrind count (time, setup, a counter).
    NotCounted(Metric),
    /// The profile lacks an event the metric sums.
    MissingEvent {
        /// The metric asked for.
        metric: Metric,
        /// The event the profile lacks.
        event: &'static str,
    },
}

impl fmt::Display for MetricError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetricError::NotCounted(metric) => {
                write!(
                    f,
                    "{metric} is not counted by callgrind, so profiles cannot break it down"
                )
            }
            MetricError::MissingEvent { metric, event } => write!(
                f,
                "{metric} needs the event {event}, which the profile lacks \
                 (it was counted without callgrind's cache simulation)"
            ),
        }
    }
}

impl std::error::Error for MetricError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(names: &str) -> Vec<String> {
        names.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn every_counted_metric_sums_its_events() {
        let cache = events("Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw");
        let costs = [858949, 36355, 45368, 54, 594, 3442, 53, 129, 0];
        let value = |m| Measure::new(m, &cache).unwrap().of(&costs);
        assert_eq!(value(Metric::Instructions), 858949);
        assert_eq!(value(Metric::D1Misses), 594 + 3442);
        assert_eq!(value(Metric::LlMisses), 53 + 129);
        // gungraun's summary of this very profile said 962492.
        assert_eq!(value(Metric::EstimatedCycles), 962492);
    }

    #[test]
    fn metrics_callgrind_does_not_count_are_refused_by_name() {
        let err = Measure::new(Metric::Time, &events("Ir")).unwrap_err();
        assert_eq!(err, MetricError::NotCounted(Metric::Time));
        assert!(err.to_string().starts_with("time is not counted"));
        let err = Measure::new(Metric::D1Misses, &events("Ir")).unwrap_err();
        assert!(
            err.to_string().contains("d1_misses needs the event D1mr"),
            "{err}"
        );
    }
}
