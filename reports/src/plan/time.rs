//! The time charts over plain input sets: throughput, time and speedup
//! over the reference as grouped bars, one slot per variant.

use super::{
    MAX_SETS, Planned, PlannedChart, Throughput, bar, bars, element, missing, ns, slug,
    speedup_estimate, time_estimate,
};
use crate::chart::bars::{Bar, BarChart};
use crate::dataset::WorkloadView;
use crate::interval::geomean;
use crate::reference::{Reference, Rule, speedup_reference};
use crate::results::Metric;
use crate::scale::time_unit;

/// Throughput, time and speedup bars over `sets`, or only time for an
/// A/B's paired records (see [`WorkloadView::paired`]); pushes what it
/// leaves out to `notes`.
pub(super) fn charts(
    view: &WorkloadView<'_>,
    sets: &[&str],
    notes: &mut Vec<String>,
) -> Vec<PlannedChart> {
    if sets.len() > MAX_SETS {
        notes.push(format!(
            "{}: {} input sets; bar charts show the first {MAX_SETS} ({} left out)",
            view.title,
            sets.len(),
            sets[MAX_SETS..].join(", ")
        ));
    }
    let headline_ns: Vec<f64> = view
        .metric(Metric::Time)
        .filter(|e| sets.contains(&e.record.input_set.as_str()))
        .filter_map(|e| ns(e.record))
        .collect();
    let typical = geomean(headline_ns.iter().copied()).unwrap_or(1.0);
    let largest = headline_ns.iter().copied().fold(typical, f64::max);
    if view.paired() {
        return vec![time(view, sets, largest)];
    }
    let mut out = vec![throughput(view, sets, typical), time(view, sets, largest)];
    out.extend(speedup(view, sets, notes));
    out
}

/// Throughput bars, in the rate unit that suits the `typical` time per
/// element (ns).
fn throughput(view: &WorkloadView<'_>, sets: &[&str], typical: f64) -> PlannedChart {
    let w = &view.title;
    let el = element(view);
    let rate = Throughput::new(view, typical);
    let chart = bars(view, sets, Metric::Time, |r, _, _| {
        Some(bar(r, time_estimate(r, |t| rate.of(t))))
    });
    let title = format!("{w}: throughput by variant");
    PlannedChart {
        stem: format!("{}-throughput", slug(w)),
        title: title.clone(),
        caption: format!(
            "Throughput in {} (from the median time per {el}; whiskers from its 95% interval, or min–max where too few samples); higher is better.",
            rate.words()
        ),
        figure: Planned::Bars(BarChart {
            title,
            subtitle: format!(
                "{}; whiskers: 95% interval (min–max if too few samples); higher is better",
                rate.unit()
            ),
            y_title: format!("throughput ({})", rate.unit()),
            ..chart
        }),
    }
}

/// Time-per-element bars, in the time unit of the `largest` time per
/// element (ns), so no tick counts thousands of a unit (`14.8k µs` reads
/// `14.8 ms`).
fn time(view: &WorkloadView<'_>, sets: &[&str], largest: f64) -> PlannedChart {
    let w = &view.title;
    let el = element(view);
    let unit = time_unit(largest);
    let chart = bars(view, sets, Metric::Time, |r, _, _| {
        Some(bar(r, time_estimate(r, |t| t / unit.ns)))
    });
    let title = format!("{w}: time per {el}");
    PlannedChart {
        stem: format!("{}-time", slug(w)),
        title: title.clone(),
        caption: format!(
            "Median time per {el} in {}, whiskers its 95% interval (min–max where too few samples); lower is better.",
            unit.symbol
        ),
        figure: Planned::Bars(BarChart {
            title,
            subtitle:
                "median, whiskers: 95% interval (min–max if too few samples); lower is better"
                    .into(),
            y_title: format!("time ({}/{el})", unit.symbol),
            ..chart
        }),
    }
}

/// Speedup bars over the speedup reference, if the view has one and two
/// variants or more have a time on `sets` (with one, every bar would be
/// the reference over itself); pushes to `notes` the sets where the
/// reference has no time to divide by.
fn speedup(
    view: &WorkloadView<'_>,
    sets: &[&str],
    notes: &mut Vec<String>,
) -> Option<PlannedChart> {
    let w = &view.title;
    let timed_on_sets = |v: &String| {
        view.metric(Metric::Time).any(|e| {
            e.record.variant == *v
                && sets.contains(&e.record.input_set.as_str())
                && ns(e.record).is_some()
        })
    };
    if view.variants.iter().filter(|v| timed_on_sets(v)).count() < 2 {
        return None;
    }
    let timed = view.groups_with(|r| r.metric == Metric::Time);
    let rows: Vec<(&str, usize)> = sets
        .iter()
        .flat_map(|s| timed.iter().map(move |&g| (*s, g)))
        .collect();
    let variants: Vec<&str> = view.variants.iter().map(String::as_str).collect();
    let reference = speedup_reference(view.oracle(), &variants, &rows, |v, &(s, g)| {
        view.find(v, s, g, Metric::Time).and_then(ns)
    })?;
    let oracle = reference.variant.to_owned();
    notes.extend(no_reference_note(view, sets, &timed, &reference));
    let chart = bars(view, sets, Metric::Time, |r, g, s| {
        let base = view
            .find(&oracle, s, g, Metric::Time)
            .filter(|b| ns(b).is_some());
        Some(match (ns(r), base) {
            (Some(_), Some(base)) => bar(r, speedup_estimate(view, base, r)),
            (None, _) => missing(r),
            (Some(_), None) => Bar::Missing("no oracle"),
        })
    });
    let title = format!("{w}: speedup over {reference}");
    Some(PlannedChart {
        stem: format!("{}-speedup", slug(w)),
        title: title.clone(),
        caption: format!(
            "Speedup over `{reference}` on the same input set and build (its time ÷ variant time; whiskers: 95% interval where both have enough samples); the line marks 1×, higher is better."
        ),
        figure: Planned::Bars(BarChart {
            title,
            subtitle: format!(
                "{oracle} time ÷ variant time, same input set and build; line at 1× = {oracle}"
            ),
            y_title: "speedup (×)".into(),
            value_suffix: "×",
            reference: Some(1.0),
            ..chart
        }),
    })
}

/// The note naming the sets (of the `timed` groups) that some variant
/// ran but the `reference` has no time for, listed once per reason and
/// group (the oracle skips every deep test for the same reason); `None`
/// when it has a time wherever another variant has.
fn no_reference_note(
    view: &WorkloadView<'_>,
    sets: &[&str],
    timed: &[usize],
    reference: &Reference<'_>,
) -> Option<String> {
    let oracle = reference.variant;
    let naming = view.naming(timed);
    let mut no_oracle: Vec<(String, String, Vec<&str>)> = Vec::new();
    for s in sets {
        for &g in timed {
            let base = view.find(oracle, s, g, Metric::Time);
            if base.and_then(ns).is_none()
                && view
                    .metric(Metric::Time)
                    .any(|e| e.group == g && e.record.input_set == *s)
            {
                let why = base
                    .and_then(|r| r.reason.clone())
                    .unwrap_or_else(|| "not measured".into());
                let group = naming.label(g);
                match no_oracle
                    .iter_mut()
                    .find(|(w, gr, _)| *w == why && *gr == group)
                {
                    Some((_, _, listed)) => listed.push(s),
                    None => no_oracle.push((why, group, vec![s])),
                }
            }
        }
    }
    if no_oracle.is_empty() {
        return None;
    }
    let parts: Vec<String> = no_oracle
        .iter()
        .map(|(why, group, listed)| format!("{} ({group}): {why}", listed.join(", ")))
        .collect();
    Some(format!(
        "{}: no speedup where the {} `{oracle}` has no timing: {}",
        view.title,
        match reference.rule {
            Rule::Oracle => "oracle",
            Rule::Slowest { .. } => "reference",
        },
        parts.join("; ")
    ))
}
