//! The setup chart: each variant's cold start (building its solver and
//! running a first batch in a fresh process, less the warm time of that
//! batch), apart from the per-element charts because it is paid once.

use super::{Planned, PlannedChart, missing, slug, variant_legend};
use crate::chart::bars::{Bar, BarChart, Category, Panel};
use crate::dataset::WorkloadView;
use crate::interval::geomean;
use crate::results::{Metric, Status};
use crate::scale::{parse_time_unit, time_unit};

/// One bar per variant with a setup record, a category per series group;
/// `None` when the results hold no setup records.
pub(super) fn chart(view: &WorkloadView<'_>) -> Option<PlannedChart> {
    let w = &view.title;
    let records: Vec<_> = view.metric(Metric::Setup).collect();
    let setup_ns = |r: &crate::results::Record| -> Option<f64> {
        let (factor, _) = parse_time_unit(&r.unit)?;
        (r.status == Status::Ok && r.median.is_finite()).then(|| r.median.max(0.0) * factor)
    };
    let typical = geomean(records.iter().filter_map(|e| setup_ns(e.record)))?;
    let unit = time_unit(typical);
    let variants: Vec<&str> = view
        .variants
        .iter()
        .map(String::as_str)
        .filter(|v| records.iter().any(|e| e.record.variant == *v))
        .collect();
    let groups = view.groups_with(|r| r.metric == Metric::Setup);
    let naming = view.naming(&groups);
    let categories = groups
        .iter()
        .map(|&g| Category {
            label: naming.parts(g),
            bars: variants
                .iter()
                .map(|v| {
                    let r = records
                        .iter()
                        .find(|e| e.group == g && e.record.variant == *v)?
                        .record;
                    let factor = parse_time_unit(&r.unit).map_or(1.0, |(f, _)| f);
                    Some(match setup_ns(r) {
                        Some(ns) => Bar::Value {
                            value: ns / unit.ns,
                            whisker: Some((
                                r.min.max(0.0) * factor / unit.ns,
                                r.max.max(0.0) * factor / unit.ns,
                            )),
                        },
                        None => missing(r),
                    })
                })
                .collect(),
        })
        .collect();
    let title = format!("{w}: setup per variant (cold start)");
    Some(PlannedChart {
        stem: format!("{}-setup", slug(w)),
        title: title.clone(),
        caption: format!(
            "Setup in {}: building the variant's solver and running its first batch in a fresh process, less the warm time of that batch (median over fresh processes, whiskers min–max); paid once per process, lower is better.",
            unit.symbol
        ),
        figure: Planned::Bars(BarChart {
            title,
            subtitle: "solver() + first batch − warm batch, fresh process; whiskers: min–max"
                .into(),
            y_title: format!("setup ({})", unit.symbol),
            x_title: naming.heading().into(),
            legend_heading: "variant".into(),
            legend: variants.iter().map(|v| variant_legend(view, v)).collect(),
            panels: vec![Panel {
                title: "cold start".into(),
                categories,
            }],
            value_suffix: "",
            reference: None,
        }),
    })
}
