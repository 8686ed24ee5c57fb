//! Line charts over a parameter swept alone (a density, a buffer size):
//! for time, the time, throughput and speedup per element; for every
//! other quantity, its value. One line per (variant, series group).

use super::{Planned, PlannedChart, Quantity, element, ns, ok_median, slug};
use crate::chart::lines::{LineChart, Series};
use crate::dataset::{SetKind, WorkloadView};
use crate::palette;
use crate::reference::speedup_reference;
use crate::results::{Metric, Record};
use crate::scale::{geomean, rate_prefix, time_unit};

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

/// The lines of the records that `keep` on the sweep over `param`: one
/// per (group, variant) with any point, `y` giving each point's value.
fn series(
    view: &WorkloadView<'_>,
    param: &str,
    keep: impl Fn(&Record) -> bool,
    y: impl Fn(&Record, usize) -> Option<f64>,
) -> Vec<Series> {
    let mut series = Vec::new();
    for g in 0..view.groups.len() {
        for (vi, v) in view.variants.iter().enumerate() {
            let mut points: Vec<(f64, f64)> = view
                .entries
                .iter()
                .filter(|e| e.group == g && e.record.variant == *v && keep(e.record))
                .filter_map(|e| Some((point(e.record, param)?, y(e.record, e.group)?)))
                .collect();
            if points.is_empty() {
                continue;
            }
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let label = if view.grouped() {
                format!("{v} · {}", view.group_label(g))
            } else {
                v.clone()
            };
            series.push(Series {
                label,
                color: palette::variant(vi),
                marker: g,
                points,
            });
        }
    }
    series
}

fn legend_heading(view: &WorkloadView<'_>) -> String {
    if view.grouped() {
        "variant · build".into()
    } else {
        "variant".into()
    }
}

/// Time, throughput and (where two variants or more ran) speedup against
/// each parameter the timed sets sweep alone.
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
            let mut charts = vec![time_lines(view, param, typical, on)];
            charts.push(throughput_lines(view, param, typical, on));
            charts.extend(speedup_lines(view, param, on));
            charts
        })
        .collect()
}

fn time_lines(
    view: &WorkloadView<'_>,
    param: &str,
    typical: f64,
    on: impl Fn(&Record) -> bool,
) -> PlannedChart {
    let (w, el) = (&view.title, element(view));
    let unit = time_unit(typical);
    let title = format!("{w}: time per {el} against {param}");
    PlannedChart {
        stem: format!("{}-{}", slug(w), slug(param)),
        title: title.clone(),
        caption: format!(
            "Median time per {el} ({}) on the input sets swept over `{param}`, one line per variant; lower is better.",
            unit.symbol
        ),
        figure: Planned::Lines(LineChart {
            title,
            subtitle: format!("median per input set, by {param}; lower is better"),
            x_title: param.to_owned(),
            y_title: format!("time ({}/{el})", unit.symbol),
            legend_heading: legend_heading(view),
            series: series(view, param, on, |r, _| Some(ns(r)? / unit.ns)),
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
    let (prefix, factor) = rate_prefix(1e9 / typical);
    let title = format!("{w}: throughput against {param}");
    PlannedChart {
        stem: format!("{}-{}-throughput", slug(w), slug(param)),
        title: title.clone(),
        caption: format!(
            "Throughput in {prefix}{el}s per second (from the median time per {el}) on the input sets swept over `{param}`, one line per variant; higher is better."
        ),
        figure: Planned::Lines(LineChart {
            title,
            subtitle: format!("{prefix}{el}s per second, by {param}; higher is better"),
            x_title: param.to_owned(),
            y_title: format!("throughput ({prefix}{el}s/s)"),
            legend_heading: legend_heading(view),
            series: series(view, param, on, |r, _| Some(1e9 / ns(r)? / factor)),
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
    let rows: Vec<(&str, usize)> = sets
        .iter()
        .flat_map(|s| (0..view.groups.len()).map(move |g| (*s, g)))
        .collect();
    let variants: Vec<&str> = view.variants.iter().map(String::as_str).collect();
    let time = |v: &str, set: &str, g: usize| view.find(v, set, g, Metric::Time).and_then(ns);
    let reference = speedup_reference(view.oracle(), &variants, &rows, |v, &(s, g)| time(v, s, g))?;
    let base = reference.variant;
    let title = format!("{w}: speedup over {reference} against {param}");
    Some(PlannedChart {
        stem: format!("{}-{}-speedup", slug(w), slug(param)),
        title: title.clone(),
        caption: format!(
            "Speedup over `{reference}` on the same input set and build (its time ÷ variant time) on the input sets swept over `{param}`; 1× is {base}, higher is better."
        ),
        figure: Planned::Lines(LineChart {
            title,
            subtitle: format!("{base} time ÷ variant time, by {param}; higher is better"),
            x_title: param.to_owned(),
            y_title: "speedup (×)".into(),
            legend_heading: legend_heading(view),
            series: series(view, param, on, |r, g| {
                Some(time(base, &r.input_set, g)? / ns(r)?)
            }),
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
                    x_title: param.to_owned(),
                    y_title: q.y_title.clone(),
                    legend_heading: legend_heading(view),
                    series: series(
                        view,
                        param,
                        |r| q.holds(r) && point(r, param).is_some(),
                        |r, _| ok_median(r),
                    ),
                }),
            }
        })
        .collect()
}
