//! Heatmaps over two swept parameters: time per element in each cell, one
//! chart per (pair of parameters, variant, series group).

use super::{Planned, PlannedChart, element, ns, slug};
use crate::chart::heatmap::{Cell, CellValue, Heatmap};
use crate::dataset::{SetKind, WorkloadView};
use crate::interval::geomean;
use crate::results::{Metric, Record, Status};
use crate::scale::time_unit;

/// Names of the parameter pairs `view`'s timed sets sweep, in first-seen
/// order.
fn pairs<'a>(view: &WorkloadView<'a>) -> Vec<(&'a str, &'a str)> {
    let mut names: Vec<(&str, &str)> = Vec::new();
    for e in view.metric(Metric::Time) {
        if let SetKind::Grid(r, c) = SetKind::of(e.record) {
            let key = (r.name.as_str(), c.name.as_str());
            if !names.contains(&key) {
                names.push(key);
            }
        }
    }
    names
}

/// One heatmap per (pair of parameters, variant, group): time per element
/// in each cell, rows by the first parameter.
pub(super) fn heatmaps(view: &WorkloadView<'_>) -> Vec<PlannedChart> {
    let w = &view.title;
    let el = element(view);
    let pairs = pairs(view);
    let mut out = Vec::new();
    for &(row_name, col_name) in &pairs {
        let cell = |r: &Record| match SetKind::of(r) {
            SetKind::Grid(a, b) if a.name == row_name && b.name == col_name => {
                Some((a.value, b.value))
            }
            _ => None,
        };
        let groups = view.groups_with(|r| r.metric == Metric::Time && cell(r).is_some());
        let naming = view.naming(&groups);
        for &g in &groups {
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
                            (None, Status::Crashed) => CellValue::Crashed,
                            (None, Status::Hung) => CellValue::Hung,
                            (None, Status::Ok | Status::Skipped) => CellValue::Skipped,
                        },
                    })
                    .collect();
                let mut stem = format!("{}-heatmap-{}", slug(w), slug(v));
                if pairs.len() > 1 {
                    stem = format!("{stem}-{}-{}", slug(row_name), slug(col_name));
                }
                let mut which = v.clone();
                if naming.any() {
                    stem = format!("{stem}-{}", slug(&naming.label(g)));
                    which = format!("{v}, {}", naming.label(g));
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
