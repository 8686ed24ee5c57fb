//! Line charts over a parameter swept alone (a density, a buffer size):
//! for time, the time, throughput and speedup per element, each with its
//! 95 % interval as a band (derived as the bar charts derive their
//! whiskers); for every other quantity, its value. One line per (variant,
//! series group).

use super::growth;
use super::{
    Estimate, Planned, PlannedChart, Quantity, Throughput, element, ns, ok_median, slug,
    speedup_estimate, time_estimate,
};
use crate::chart::lines::{LineChart, Series};
use crate::dataset::{SetKind, WorkloadView};
use crate::interval::geomean;
use crate::meaning::Meaning;
use crate::palette;
use crate::reference::speedup_reference;
use crate::results::{Metric, Record};
use crate::scale::time_unit;

/// Names of the parameters swept alone in records that `keep`, in
/// first-seen order.
fn params<'a>(view: &WorkloadView<'a>, keep: impl Fn(&Record) -> bool) -> Vec<&'a str> {
    let mut names: Vec<&str> = Vec::new();
    for e in &view.entries {
        if let SetKind::Sweep(p) = SetKind::of(e.record)
            && keep(e.record)
            && !names.contains(&p.name.as_str())
        {
            names.push(&p.name);
        }
    }
    names
}

/// Where `r` sits on the sweep over `param`, if it is one of its points.
fn point(r: &Record, param: &str) -> Option<f64> {
    match SetKind::of(r) {
        SetKind::Sweep(p) if p.name == param => Some(p.value),
        _ => None,
    }
}

/// What the swept `param` is, as its first record says (declared, or
/// inferred from its name).
fn meaning(view: &WorkloadView<'_>, param: &str) -> Option<Meaning> {
    view.entries
        .iter()
        .find_map(|e| match SetKind::of(e.record) {
            SetKind::Sweep(p) if p.name == param => p.meaning(),
            _ => None,
        })
}

/// A line chart skeleton (no titles) of the records that `keep` on the
/// sweep over `param`: a line per (group, variant) with any point, `y`
/// giving each point's value and band. A line is named by its variant,
/// and by its group only where the lines come from several groups.
fn lines(
    view: &WorkloadView<'_>,
    param: &str,
    keep: impl Fn(&Record) -> bool,
    y: impl Fn(&Record, usize) -> Option<Estimate>,
) -> LineChart {
    let on = |r: &Record| keep(r) && point(r, param).is_some();
    let groups = view.groups_with(on);
    let naming = view.naming(&groups);
    let mut series = Vec::new();
    for (dash, &g) in groups.iter().enumerate() {
        for (vi, v) in view.variants.iter().enumerate() {
            let mut points: Vec<_> = view
                .entries
                .iter()
                .filter(|e| e.group == g && e.record.variant == *v && on(e.record))
                .filter_map(|e| {
                    let (value, band) = y(e.record, e.group)?;
                    Some((point(e.record, param)?, value, band))
                })
                .collect();
            if points.is_empty() {
                continue;
            }
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            series.push(Series {
                label: naming.line(v, g),
                color: palette::variant(vi),
                marker: vi,
                dash,
                points,
                fitted: Vec::new(),
            });
        }
    }
    LineChart {
        title: String::new(),
        subtitle: String::new(),
        x_title: param.to_owned(),
        x_meaning: meaning(view, param),
        y_title: String::new(),
        legend_heading: if naming.any() {
            format!("variant · {}", naming.heading())
        } else {
            "variant".to_owned()
        },
        series,
        laws: Vec::new(),
    }
}

/// Time, throughput and (where two variants or more ran) speedup against
/// each parameter the timed sets sweep alone; only time for an A/B's
/// paired records (see [`WorkloadView::paired`]).
pub(super) fn time(view: &WorkloadView<'_>) -> Vec<PlannedChart> {
    let timed = |r: &Record| r.metric == Metric::Time;
    params(view, timed)
        .into_iter()
        .flat_map(|param| {
            let on = move |r: &Record| timed(r) && point(r, param).is_some();
            let all: Vec<f64> = view
                .entries
                .iter()
                .filter(|e| on(e.record))
                .filter_map(|e| ns(e.record))
                .collect();
            let Some(typical) = geomean(all.iter().copied()) else {
                return Vec::new();
            };
            let largest = all.iter().copied().fold(typical, f64::max);
            let mut charts = vec![time_lines(view, param, largest, on)];
            if !view.paired() {
                charts.push(throughput_lines(view, param, typical, on));
                charts.extend(speedup_lines(view, param, on));
            }
            charts
        })
        .collect()
}

/// Time-per-element lines, in the time unit of the `largest` time per
/// element (ns).
fn time_lines(
    view: &WorkloadView<'_>,
    param: &str,
    largest: f64,
    on: impl Fn(&Record) -> bool,
) -> PlannedChart {
    let (w, el) = (&view.title, element(view));
    let unit = time_unit(largest);
    let title = format!("{w}: time per {el} against {param}");
    PlannedChart {
        stem: format!("{}-{}", slug(w), slug(param)),
        title: title.clone(),
        caption: format!(
            "Median time per {el} ({}) on the input sets swept over `{param}`, one line per variant, the band its 95% interval (min–max where too few samples); lower is better.",
            unit.symbol
        ),
        figure: Planned::Lines(LineChart {
            title,
            subtitle: format!(
                "median per input set, by {param}; band: 95% interval (min–max if too few samples); lower is better"
            ),
            y_title: format!("time ({}/{el})", unit.symbol),
            ..growth::with_laws(
                view,
                param,
                &on,
                unit.ns,
                lines(view, param, &on, |r, _| time_estimate(r, |t| t / unit.ns)),
            )
        }),
    }
}

fn throughput_lines(
    view: &WorkloadView<'_>,
    param: &str,
    typical: f64,
    on: impl Fn(&Record) -> bool,
) -> PlannedChart {
    let (w, el) = (&view.title, element(view));
    let rate = Throughput::new(view, typical);
    let title = format!("{w}: throughput against {param}");
    PlannedChart {
        stem: format!("{}-{}-throughput", slug(w), slug(param)),
        title: title.clone(),
        caption: format!(
            "Throughput in {} (from the median time per {el}; the band from its 95% interval, or min–max where too few samples) on the input sets swept over `{param}`, one line per variant; higher is better.",
            rate.words()
        ),
        figure: Planned::Lines(LineChart {
            title,
            subtitle: format!(
                "{}, by {param}; band: 95% interval (min–max if too few samples); higher is better",
                rate.unit()
            ),
            y_title: format!("throughput ({})", rate.unit()),
            ..lines(view, param, on, |r, _| time_estimate(r, |t| rate.of(t)))
        }),
    }
}

/// Speedup over the reference (the oracle, or the slowest variant timed
/// on every point) on the same set and build; `None` when fewer than two
/// variants ran the sweep, where it would be one flat line.
fn speedup_lines(
    view: &WorkloadView<'_>,
    param: &str,
    on: impl Fn(&Record) -> bool + Copy,
) -> Option<PlannedChart> {
    let w = &view.title;
    let mut sets: Vec<&str> = Vec::new();
    let mut ran: Vec<&str> = Vec::new();
    for e in view.entries.iter().filter(|e| on(e.record)) {
        if !sets.contains(&e.record.input_set.as_str()) {
            sets.push(&e.record.input_set);
        }
        if ns(e.record).is_some() && !ran.contains(&e.record.variant.as_str()) {
            ran.push(&e.record.variant);
        }
    }
    if ran.len() < 2 {
        return None;
    }
    let groups = view.groups_with(on);
    let rows: Vec<(&str, usize)> = sets
        .iter()
        .flat_map(|s| groups.iter().map(move |&g| (*s, g)))
        .collect();
    let variants: Vec<&str> = view.variants.iter().map(String::as_str).collect();
    let timed = |v: &str, set: &str, g: usize| {
        view.find(v, set, g, Metric::Time)
            .filter(|r| ns(r).is_some())
    };
    let reference = speedup_reference(view.oracle(), &variants, &rows, |v, &(s, g)| {
        timed(v, s, g).and_then(ns)
    })?;
    let base = reference.variant;
    let title = format!("{w}: speedup over {reference} against {param}");
    Some(PlannedChart {
        stem: format!("{}-{}-speedup", slug(w), slug(param)),
        title: title.clone(),
        caption: format!(
            "Speedup over `{reference}` on the same input set and build (its time ÷ variant time; the band its 95% interval where both have enough samples) on the input sets swept over `{param}`; 1× is {base}, higher is better."
        ),
        figure: Planned::Lines(LineChart {
            title,
            subtitle: format!(
                "{base} time ÷ variant time, by {param}; band: 95% interval; higher is better"
            ),
            y_title: "speedup (×)".into(),
            ..lines(view, param, on, |r, g| {
                speedup_estimate(view, timed(base, &r.input_set, g)?, r)
            })
        }),
    })
}

/// A quantity (instructions, cache misses, a counter) against each
/// parameter its sets sweep alone.
pub(super) fn quantity(view: &WorkloadView<'_>, q: &Quantity) -> Vec<PlannedChart> {
    let w = &view.title;
    params(view, |r| q.holds(r))
        .into_iter()
        .map(|param| {
            let title = format!("{w}: {} against {param}", q.name);
            PlannedChart {
                stem: format!("{}-{}-{}", slug(w), slug(param), q.stem),
                title: title.clone(),
                caption: format!(
                    "{} On the input sets swept over `{param}`, one line per variant.",
                    q.caption
                ),
                figure: Planned::Lines(LineChart {
                    title,
                    subtitle: format!("{} per element, by {param}", q.name),
                    y_title: q.y_title.clone(),
                    ..lines(
                        view,
                        param,
                        |r| q.holds(r),
                        |r, _| ok_median(r).map(|m| (m, None)),
                    )
                }),
            }
        })
        .collect()
}
