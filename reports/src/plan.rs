//! From records to charts: which figures a workload gets, and what each
//! one shows.
//!
//! The choices depend only on record fields and input-set names: every
//! workload with timings gets throughput, time and speedup bars; metrics
//! and set-name patterns (`density:P`, `rank:R depth:D`) add the
//! instruction, counter, density and heatmap charts.

use crate::chart::LegendItem;
use crate::chart::bars::{Bar, BarChart, Category, Panel};
use crate::chart::heatmap::{Cell, CellValue, Heatmap};
use crate::chart::lines::{LineChart, Series};
use crate::dataset::{SetKind, WorkloadView, ok_median};
use crate::interval;
use crate::palette;
use crate::reference::{Rule, speedup_reference};
use crate::results::{Metric, Record, Status};
use crate::scale::{geomean, parse_time_unit, rate_prefix, time_unit};

/// Most input sets one bar chart shows; more are listed as skipped.
const MAX_SETS: usize = 12;

/// A chart to write, with the file stem and the caption the pages use.
pub(crate) enum Planned {
    Bars(BarChart),
    Lines(LineChart),
    Heat(Heatmap),
}

/// One planned chart.
pub(crate) struct PlannedChart {
    pub stem: String,
    pub title: String,
    pub caption: String,
    pub figure: Planned,
}

/// Lower-case ASCII letters, digits and dashes, for file names.
pub(crate) fn slug(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

/// A time record's whisker in nanoseconds per element: its 95 % interval,
/// or where it has none (too few samples) its min–max range.
fn whisker_ns(r: &Record) -> Option<(f64, f64)> {
    let (factor, _) = parse_time_unit(&r.unit)?;
    ok_median(r)?;
    Some(match r.interval {
        Some(i) => (i.low * factor, i.high * factor),
        None => (r.min * factor, r.max * factor),
    })
}

/// Nanoseconds per element of a time record, if it holds a value in a time unit.
pub(crate) fn ns(r: &Record) -> Option<f64> {
    let (factor, _) = parse_time_unit(&r.unit)?;
    ok_median(r).map(|m| m * factor)
}

/// The element name the timings of `view` count (`board`, `solve`), or `element`.
fn element(view: &WorkloadView<'_>) -> String {
    let mut names = view
        .metric(Metric::Time)
        .filter_map(|e| parse_time_unit(&e.record.unit).map(|(_, el)| el));
    match names.next() {
        Some(first) if names.all(|n| n == first) => first.to_owned(),
        _ => "element".to_owned(),
    }
}

fn missing(r: &Record) -> Bar {
    Bar::Missing(if r.status == Status::Error {
        "error"
    } else {
        "skipped"
    })
}

/// Plans every chart of one workload; pushes what it leaves out to `notes`.
pub(crate) fn plan(view: &WorkloadView<'_>, notes: &mut Vec<String>) -> Vec<PlannedChart> {
    let w = &view.name;
    let mut charts = Vec::new();
    let has_time = view.metric(Metric::Time).next().is_some();
    if !has_time {
        notes.push(format!("{w}: no timings (metric `time`) in the results; throughput, time and speedup charts skipped"));
    } else {
        let sets = view.headline_sets(Metric::Time, None);
        if sets.is_empty() {
            notes.push(format!(
                "{w}: timings only for sweep input sets; per-set bar charts skipped"
            ));
        } else {
            charts.extend(time_charts(view, &sets, notes));
        }
        charts.extend(sweeps(view));
        charts.extend(heatmaps(view));
    }
    let counted: Vec<&str> = view.headline_sets(Metric::Instructions, None);
    if counted.is_empty() {
        notes.push(format!("{w}: no instruction counts (metric `instructions`) in the results; instructions chart skipped"));
    } else {
        let unit = view
            .metric(Metric::Instructions)
            .map(|e| e.record.unit.clone())
            .next()
            .unwrap_or_default();
        let chart = bars(view, &counted, Metric::Instructions, |r, _, _| {
            Some(ok_median(r).map_or_else(
                || missing(r),
                |m| Bar::Value {
                    value: m,
                    whisker: Some((m - r.mad, m + r.mad)),
                },
            ))
        });
        charts.push(PlannedChart {
            stem: format!("{}-instructions", slug(w)),
            title: format!("{w}: instructions per element"),
            caption: format!("Instructions retired ({unit}, median ± MAD), counted under callgrind; lower is better."),
            figure: Planned::Bars(BarChart {
                title: format!("{w}: instructions per element"),
                subtitle: "median, whiskers: 95% interval (min–max if too few samples); lower is better".into(),
                y_title: unit,
                ..chart
            }),
        });
    }
    let mut counter_units: Vec<String> = Vec::new();
    for e in view.metric(Metric::Counter) {
        if !counter_units.contains(&e.record.unit) {
            counter_units.push(e.record.unit.clone());
        }
    }
    for unit in counter_units {
        let sets = view.headline_sets(Metric::Counter, Some(&unit));
        if sets.is_empty() {
            continue;
        }
        let chart = bars(view, &sets, Metric::Counter, |r, _, _| {
            if r.unit != unit {
                return None;
            }
            Some(ok_median(r).map_or_else(
                || missing(r),
                |m| Bar::Value {
                    value: m,
                    whisker: None,
                },
            ))
        });
        let title = format!("{w}: {unit} by variant");
        charts.push(PlannedChart {
            stem: format!("{}-counter-{}", slug(w), slug(&unit)),
            title: title.clone(),
            caption: format!("Workload counter `{unit}` per variant (median over samples); shows how much search each variant does."),
            figure: Planned::Bars(BarChart { title, subtitle: "median over samples".into(), y_title: unit.clone(), ..chart }),
        });
    }
    charts
}

/// Builds a bar chart skeleton over `sets`: slots = variants with records,
/// categories and panels per the rule in the module docs. `value` maps a
/// record (with its group and set) to a bar, or `None` to leave the slot empty.
fn bars(
    view: &WorkloadView<'_>,
    sets: &[&str],
    metric: Metric,
    value: impl Fn(&Record, usize, &str) -> Option<Bar>,
) -> BarChart {
    let sets = &sets[..sets.len().min(MAX_SETS)];
    let variants: Vec<&str> = view
        .variants
        .iter()
        .map(String::as_str)
        .filter(|v| {
            sets.iter()
                .any(|s| (0..view.groups.len()).any(|g| view.find(v, s, g, metric).is_some()))
        })
        .collect();
    let legend: Vec<LegendItem> = variants
        .iter()
        .map(|v| LegendItem {
            text: if Some(*v) == view.oracle() {
                format!("{v} (oracle)")
            } else {
                (*v).to_owned()
            },
            color: palette::variant(view.variant_index(v)),
            marker: None,
        })
        .collect();
    let category = |label: Vec<String>, set: &str, g: usize| Category {
        label,
        bars: variants
            .iter()
            .map(|v| view.find(v, set, g, metric).and_then(|r| value(r, g, set)))
            .collect(),
    };
    let group_lines = |g: usize| -> Vec<String> {
        let group = &view.groups[g];
        let mut lines = Vec::new();
        if view.several_levels || !view.several_sources {
            lines.push(group.target_cpu.clone());
        }
        if view.several_sources {
            lines.push(group.source.clone());
        }
        lines
    };
    let (panels, x_title) = if !view.grouped() {
        let title = format!("target-cpu: {}", view.groups[0].target_cpu);
        let cats = sets
            .iter()
            .map(|s| category(vec![(*s).to_owned()], s, 0))
            .collect();
        (
            vec![Panel {
                title,
                categories: cats,
            }],
            "input set".to_owned(),
        )
    } else {
        let x_title = match (view.several_levels, view.several_sources) {
            (true, true) => "target-cpu · results file",
            (false, true) => "results file",
            _ => "target-cpu",
        };
        let panels = sets
            .iter()
            .map(|s| Panel {
                title: format!("input set: {s}"),
                categories: (0..view.groups.len())
                    .map(|g| category(group_lines(g), s, g))
                    .collect(),
            })
            .collect();
        (panels, x_title.to_owned())
    };
    BarChart {
        title: String::new(),
        subtitle: String::new(),
        y_title: String::new(),
        x_title,
        legend_heading: "variant".into(),
        legend,
        panels,
        value_suffix: "",
        reference: None,
    }
}

fn time_charts(
    view: &WorkloadView<'_>,
    sets: &[&str],
    notes: &mut Vec<String>,
) -> Vec<PlannedChart> {
    let w = &view.name;
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
                        let seed = interval::seed_of(&[w, &oracle, &r.variant, s]);
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

/// Names of `view`'s parameters swept alone (one per set) or in pairs,
/// in first-seen order.
fn swept<'a>(view: &WorkloadView<'a>, pairs: bool) -> Vec<(&'a str, &'a str)> {
    let mut names: Vec<(&str, &str)> = Vec::new();
    for e in view.metric(Metric::Time) {
        let key = match SetKind::of(e.record) {
            SetKind::Sweep(p) if !pairs => (p.name.as_str(), ""),
            SetKind::Grid(r, c) if pairs => (r.name.as_str(), c.name.as_str()),
            _ => continue,
        };
        if !names.contains(&key) {
            names.push(key);
        }
    }
    names
}

/// One line chart per parameter swept alone: a line per (variant, group)
/// of time per element against the parameter.
fn sweeps(view: &WorkloadView<'_>) -> Vec<PlannedChart> {
    swept(view, false)
        .into_iter()
        .filter_map(|(name, _)| sweep(view, name))
        .collect()
}

fn sweep(view: &WorkloadView<'_>, name: &str) -> Option<PlannedChart> {
    let w = &view.name;
    let el = element(view);
    let point = |r: &Record| match SetKind::of(r) {
        SetKind::Sweep(p) if p.name == name => Some(p.value),
        _ => None,
    };
    let all: Vec<f64> = view
        .metric(Metric::Time)
        .filter(|e| point(e.record).is_some())
        .filter_map(|e| ns(e.record))
        .collect();
    let unit = time_unit(geomean(all.iter().copied())?);
    let mut series = Vec::new();
    for g in 0..view.groups.len() {
        for (vi, v) in view.variants.iter().enumerate() {
            let mut points: Vec<(f64, f64)> = view
                .metric(Metric::Time)
                .filter(|e| e.group == g && e.record.variant == *v)
                .filter_map(|e| Some((point(e.record)?, ns(e.record)? / unit.ns)))
                .collect();
            if points.is_empty() {
                continue;
            }
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut label = v.clone();
            if view.grouped() {
                label = format!("{v} · {}", view.group_label(g));
            }
            series.push(Series {
                label,
                color: palette::variant(vi),
                marker: g,
                points,
            });
        }
    }
    let title = format!("{w}: time per {el} against {name}");
    Some(PlannedChart {
        stem: format!("{}-{}", slug(w), slug(name)),
        title: title.clone(),
        caption: format!(
            "Median time per {el} ({}) on the input sets swept over `{name}`, one line per variant; lower is better.",
            unit.symbol
        ),
        figure: Planned::Lines(LineChart {
            title,
            subtitle: format!("median per input set, by {name}; lower is better"),
            x_title: name.to_owned(),
            y_title: format!("time ({}/{el})", unit.symbol),
            legend_heading: if view.grouped() {
                "variant · build".into()
            } else {
                "variant".into()
            },
            series,
        }),
    })
}

/// One heatmap per (pair of parameters, variant, group): time per element
/// in each cell, rows by the first parameter.
fn heatmaps(view: &WorkloadView<'_>) -> Vec<PlannedChart> {
    let w = &view.name;
    let el = element(view);
    let pairs = swept(view, true);
    let mut out = Vec::new();
    for &(row_name, col_name) in &pairs {
        let cell = |r: &Record| match SetKind::of(r) {
            SetKind::Grid(a, b) if a.name == row_name && b.name == col_name => {
                Some((a.value, b.value))
            }
            _ => None,
        };
        for g in 0..view.groups.len() {
            for v in &view.variants {
                let cells: Vec<(f64, f64, &Record)> = view
                    .metric(Metric::Time)
                    .filter(|e| e.group == g && e.record.variant == *v)
                    .filter_map(|e| cell(e.record).map(|(r, c)| (r, c, e.record)))
                    .collect();
                if cells.is_empty() {
                    continue;
                }
                let axis = |values: Vec<f64>| {
                    let mut values = values;
                    values.sort_by(f64::total_cmp);
                    values.dedup();
                    values
                };
                let rows = axis(cells.iter().map(|c| c.0).collect());
                let cols = axis(cells.iter().map(|c| c.1).collect());
                let index = |axis: &[f64], v: f64| axis.iter().position(|&a| a == v).unwrap_or(0);
                let typical = geomean(cells.iter().filter_map(|c| ns(c.2))).unwrap_or(1.0);
                let unit = time_unit(typical);
                let cells = cells
                    .iter()
                    .map(|&(r, c, rec)| Cell {
                        row: index(&rows, r),
                        col: index(&cols, c),
                        value: match (ns(rec), rec.status) {
                            (Some(t), _) => CellValue::Ns(t),
                            (None, Status::Error) => CellValue::Error,
                            (None, _) => CellValue::Skipped,
                        },
                    })
                    .collect();
                let mut stem = format!("{}-heatmap-{}", slug(w), slug(v));
                if pairs.len() > 1 {
                    stem = format!("{stem}-{}-{}", slug(row_name), slug(col_name));
                }
                let mut which = v.clone();
                if view.grouped() {
                    stem = format!("{stem}-{}", slug(&view.group_label(g)));
                    which = format!("{v}, {}", view.group_label(g));
                }
                let title = format!("{w}: time per {el} by {row_name} and {col_name} ({which})");
                out.push(PlannedChart {
                    stem,
                    title: title.clone(),
                    caption: format!(
                        "Median time per {el} in {} for every input set with parameters `{row_name}` (rows, smallest at the bottom) and `{col_name}` (columns), log colour scale.",
                        unit.symbol
                    ),
                    figure: Planned::Heat(Heatmap {
                        title,
                        subtitle: format!(
                            "median {}/{el} printed in each cell; log colour scale",
                            unit.symbol
                        ),
                        x_title: col_name.to_owned(),
                        y_title: row_name.to_owned(),
                        rows,
                        cols,
                        cells,
                        unit,
                        element: el.clone(),
                    }),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{slug, whisker_ns};
    use crate::interval::Interval;
    use crate::results::Record;

    #[test]
    fn whiskers_are_the_interval_or_else_the_range() {
        let r = Record {
            unit: "µs/solve".into(),
            median: 2.0,
            min: 1.0,
            max: 4.0,
            ..Record::default()
        };
        assert_eq!(whisker_ns(&r), Some((1000.0, 4000.0)));
        let r = Record {
            interval: Some(Interval {
                low: 1.5,
                high: 2.5,
            }),
            ..r
        };
        assert_eq!(whisker_ns(&r), Some((1500.0, 2500.0)));
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("Nodes/Input"), "nodes-input");
        assert_eq!(slug("x86-64-v3 · before"), "x86-64-v3-before");
    }
}
