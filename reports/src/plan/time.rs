//! The time charts over plain input sets: throughput, time and speedup
//! over the reference as grouped bars, one slot per variant.

use super::{MAX_SETS, Planned, PlannedChart, bars, element, missing, ns, slug, whisker_ns};
use crate::chart::bars::{Bar, BarChart};
use crate::dataset::WorkloadView;
use crate::interval;
use crate::reference::{Rule, speedup_reference};
use crate::results::Metric;
use crate::scale::{geomean, rate_prefix, time_unit};

/// Throughput, time and speedup bars over `sets`; pushes what it leaves
/// out to `notes`.
pub(super) fn charts(
    view: &WorkloadView<'_>,
    sets: &[&str],
    notes: &mut Vec<String>,
) -> Vec<PlannedChart> {
    let w = &view.title;
    let el = element(view);
    if sets.len() > MAX_SETS {
        notes.push(format!(
            "{w}: {} input sets; bar charts show the first {MAX_SETS} ({} left out)",
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
    let mut out = Vec::new();

    let (prefix, factor) = rate_prefix(1e9 / typical);
    let chart = bars(view, sets, Metric::Time, |r, _, _| {
        let rate = |ns: f64| 1e9 / ns / factor;
        Some(match (ns(r), whisker_ns(r)) {
            (Some(t), Some((low, high))) => Bar::Value {
                value: rate(t),
                whisker: Some((rate(high), rate(low))),
            },
            _ => missing(r),
        })
    });
    let title = format!("{w}: throughput by variant");
    out.push(PlannedChart {
        stem: format!("{}-throughput", slug(w)),
        title: title.clone(),
        caption: format!("Throughput in {prefix}{el}s per second (from the median time per {el}; whiskers from its 95% interval, or min–max where too few samples); higher is better."),
        figure: Planned::Bars(BarChart {
            title,
            subtitle: format!("{prefix}{el}s per second; whiskers: 95% interval (min–max if too few samples); higher is better"),
            y_title: format!("throughput ({prefix}{el}s/s)"),
            ..chart
        }),
    });

    let unit = time_unit(typical);
    let chart = bars(view, sets, Metric::Time, |r, _, _| {
        Some(match (ns(r), whisker_ns(r)) {
            (Some(t), Some((low, high))) => Bar::Value {
                value: t / unit.ns,
                whisker: Some((low / unit.ns, high / unit.ns)),
            },
            _ => missing(r),
        })
    });
    let title = format!("{w}: time per {el}");
    out.push(PlannedChart {
        stem: format!("{}-time", slug(w)),
        title: title.clone(),
        caption: format!(
            "Median time per {el} in {}, whiskers its 95% interval (min–max where too few samples); lower is better.",
            unit.symbol
        ),
        figure: Planned::Bars(BarChart {
            title,
            subtitle: "median, whiskers: 95% interval (min–max if too few samples); lower is better".into(),
            y_title: format!("time ({}/{el})", unit.symbol),
            ..chart
        }),
    });

    let rows: Vec<(&str, usize)> = sets
        .iter()
        .flat_map(|s| (0..view.groups.len()).map(move |g| (*s, g)))
        .collect();
    let variants: Vec<&str> = view.variants.iter().map(String::as_str).collect();
    let Some(reference) = speedup_reference(view.oracle(), &variants, &rows, |v, &(s, g)| {
        view.find(v, s, g, Metric::Time).and_then(ns)
    }) else {
        return out;
    };
    let oracle = reference.variant.to_owned();
    // The sets without an oracle time, listed once per reason and group
    // (the oracle skips every deep test for the same reason).
    let mut no_oracle: Vec<(String, String, Vec<&str>)> = Vec::new();
    for s in sets {
        for g in 0..view.groups.len() {
            let base = view.find(&oracle, s, g, Metric::Time);
            if base.and_then(ns).is_none()
                && view
                    .metric(Metric::Time)
                    .any(|e| e.group == g && e.record.input_set == *s)
            {
                let why = base
                    .and_then(|r| r.reason.clone())
                    .unwrap_or_else(|| "not measured".into());
                let group = view.group_label(g);
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
    if !no_oracle.is_empty() {
        let parts: Vec<String> = no_oracle
            .iter()
            .map(|(why, group, listed)| format!("{} ({group}): {why}", listed.join(", ")))
            .collect();
        notes.push(format!(
            "{w}: no speedup where the {} `{oracle}` has no timing: {}",
            match reference.rule {
                Rule::Oracle => "oracle",
                Rule::Slowest { .. } => "reference",
            },
            parts.join("; ")
        ));
    }
    let chart = bars(view, sets, Metric::Time, |r, g, s| {
        let base_record = view.find(&oracle, s, g, Metric::Time);
        let base = base_record.and_then(ns);
        Some(match (ns(r), base) {
            (Some(t), Some(b)) => Bar::Value {
                value: b / t,
                whisker: base_record
                    .filter(|_| r.variant != oracle)
                    .and_then(|br| {
                        let seed = interval::seed_of(&[&view.name, &oracle, &r.variant, s]);
                        interval::ratio_interval(&br.rounds, &r.rounds, seed)
                    })
                    .map(|i| (i.low, i.high)),
            },
            (None, _) => missing(r),
            (Some(_), None) => Bar::Missing("no oracle"),
        })
    });
    let title = format!("{w}: speedup over {reference}");
    out.push(PlannedChart {
        stem: format!("{}-speedup", slug(w)),
        title: title.clone(),
        caption: format!("Speedup over `{reference}` on the same input set and build (its time ÷ variant time; whiskers: 95% interval where both have enough samples); the line marks 1×, higher is better."),
        figure: Planned::Bars(BarChart {
            title,
            subtitle: format!("{oracle} time ÷ variant time, same input set and build; line at 1× = {oracle}"),
            y_title: "speedup (×)".into(),
            value_suffix: "×",
            reference: Some(1.0),
            ..chart
        }),
    });
    out
}
