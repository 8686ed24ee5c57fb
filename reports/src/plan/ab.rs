//! The charts of an `ab` results file: per workload, each paired time
//! record's change `B ÷ A` with its interval, and the spread of its pairs'
//! ratios (the change plot of a paired comparison).
//!
//! They read only B's records that carry [`Paired`], so any other results
//! file gets neither chart.

use super::{Planned, PlannedChart, slug};
use crate::chart::ab::{AbChart, AbRow, AbShow};
use crate::dataset::WorkloadView;
use crate::results::Paired;

/// Both A/B charts of `view`, or none when it holds no paired records.
pub(super) fn charts(view: &WorkloadView<'_>) -> Vec<PlannedChart> {
    let rows: Vec<AbRow> = view
        .entries
        .iter()
        .filter_map(|e| {
            let Paired {
                ratio,
                interval,
                ratios,
            } = e.record.paired.as_ref()?;
            Some(AbRow {
                label: format!("{} · {}", e.record.variant, e.record.input_set),
                ratio: *ratio,
                interval: interval.map(|i| (i.low, i.high)),
                ratios: ratios.clone(),
            })
        })
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    let w = &view.title;
    let chart =
        |show: AbShow, stem: &str, title: String, subtitle: &str, caption: &str| PlannedChart {
            stem: format!("{}-{stem}", slug(w)),
            title: title.clone(),
            caption: caption.to_owned(),
            figure: Planned::Ab(AbChart {
                title,
                subtitle: subtitle.to_owned(),
                show,
                rows: rows.clone(),
            }),
        };
    vec![
        chart(
            AbShow::Change,
            "ab-change",
            format!("{w}: A/B change per record (B ÷ A)"),
            "median of the paired ratios; bars: 95 % interval",
            "Each record's change from build A to build B, the median of its paired time ratios B ÷ A with its 95 % interval; the line at 1 is no change, right of it B is slower.",
        ),
        chart(
            AbShow::Pairs,
            "ab-pairs",
            format!("{w}: A/B paired ratios per record"),
            "one dot per pair (samples of A and B back to back); red: the change",
            "Every pair's B ÷ A per record, one dot each (the middle 98 % sets the axis): a narrow strip is a steady measurement; a change shows as the strip off the line at 1.",
        ),
    ]
}
