//! What a report says about metrics its files lack, said once.
//!
//! A metric no workload has is one line naming the command that adds it;
//! only where some workloads have it and others do not is each of those
//! others named. Listing every workload each time (six lines saying
//! "no instruction counts" for a file of time alone) buries the one line
//! a reader needs.

use crate::dataset::WorkloadView;
use crate::results::Metric;

/// The metrics whose absence is worth a line: the metric, what its
/// records are called, the charts it would draw, and the command that
/// measures it.
const EXPECTED: [(Metric, &str, &str, &str); 2] = [
    (
        Metric::Time,
        "timings (metric `time`)",
        "throughput, time and speedup charts",
        "`bench`",
    ),
    (
        Metric::Instructions,
        "instruction counts (metric `instructions`)",
        "instructions charts",
        "`count` (under valgrind; needs bitbench's `count` feature)",
    ),
];

/// The lines for `views`' missing metrics, in [`EXPECTED`]'s order.
pub(super) fn absent(views: &[&WorkloadView<'_>]) -> Vec<String> {
    let mut lines = Vec::new();
    if views.is_empty() {
        return lines;
    }
    for (metric, records, charts, command) in EXPECTED {
        let lacking: Vec<&str> = views
            .iter()
            .filter(|v| v.metric(metric).next().is_none())
            .map(|v| v.title.as_str())
            .collect();
        if lacking.len() == views.len() {
            lines.push(format!(
                "{charts}: no {records} in these results; {command} adds them"
            ));
        } else {
            lines.extend(
                lacking
                    .iter()
                    .map(|w| format!("{w}: no {records} in the results; {charts} skipped")),
            );
        }
    }
    lines
}
