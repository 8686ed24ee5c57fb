//! The charts of an `ab` results file: per workload, each paired time
//! record's change `B ÷ A` with its interval, and the spread of its pairs'
//! ratios (the change plot of a paired comparison).
//!
//! They read only B's records that carry [`Paired`], so any other results
//! file gets neither chart. For an `ab` file they are the comparison of
//! the builds: its throughput and speedup charts, which would set a
//! variant against its other build unpaired or against itself, are left
//! out (see `time.rs` and `sweeps.rs`).

use super::{Planned, PlannedChart, slug};
use crate::chart::ab::{AbChart, AbRow, AbShow};
use crate::dataset::WorkloadView;
use crate::results::{Metric, Record};

/// Both A/B charts of `view`, or none when it holds no paired records.
pub(super) fn charts(view: &WorkloadView<'_>) -> Vec<PlannedChart> {
    let mut rows: Vec<AbRow> = view
        .entries
        .iter()
        .filter_map(|e| {
            let p = e.record.paired.as_ref()?;
            Some(AbRow {
                label: format!("{} · {}", e.record.variant, e.record.input_set),
                ratio: p.ratio,
                interval: p.interval.map(|i| (i.low, i.high)),
                ratios: p.ratios.clone(),
                verdict: p.verdict.clone(),
            })
        })
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    // The largest slowdown first, the largest speedup last.
    rows.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
    let threshold_pct = view
        .entries
        .iter()
        .find_map(|e| e.record.paired.as_ref()?.threshold_pct);
    let w = &view.title;
    let builds = builds(view).map_or_else(String::new, |(a, b)| format!("{a} → {b}; "));
    let chart =
        |show: AbShow, stem: &str, title: String, subtitle: &str, caption: &str| PlannedChart {
            stem: format!("{}-{stem}", slug(w)),
            title: title.clone(),
            caption: caption.to_owned(),
            figure: Planned::Ab(AbChart {
                title,
                subtitle: format!("{builds}{subtitle}"),
                show,
                rows: rows.clone(),
                threshold_pct,
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

/// The builds compared, as the records name them (`A 1a2b3c4`, `B
/// 5d6e7f8`): B's is the `source` of the paired records, A's that of the
/// time records of the same variant and set without pairs; `None` unless
/// each side has one name.
fn builds(view: &WorkloadView<'_>) -> Option<(String, String)> {
    let paired: Vec<&Record> = view
        .metric(Metric::Time)
        .map(|e| e.record)
        .filter(|r| r.paired.is_some())
        .collect();
    let partner = |r: &&Record| {
        r.paired.is_none()
            && paired
                .iter()
                .any(|b| b.variant == r.variant && b.input_set == r.input_set)
    };
    let a = view.metric(Metric::Time).map(|e| e.record).filter(partner);
    match (one_source(a), one_source(paired.iter().copied())) {
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    }
}

/// The one `source` all of `records` name, if they do.
fn one_source<'a>(records: impl Iterator<Item = &'a Record>) -> Option<String> {
    let mut names = records.map(|r| r.source.as_deref());
    let first = names.next()??;
    names.all(|n| n == Some(first)).then(|| first.to_owned())
}
