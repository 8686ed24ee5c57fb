//! The growth laws of a size sweep's time lines (see [`crate::growth`]):
//! each line's law in a sentence for the pages, and its fitted curve drawn
//! thinly under the measured points, in the chart's unit.

use crate::chart::lines::LineChart;
use crate::dataset::WorkloadView;
use crate::growth::of_records;
use crate::results::Record;

/// Points sampled along a fitted curve.
const CURVE_POINTS: u32 = 64;

/// `chart` with the law of each of its lines over `param` fitted to the
/// records that `on` keeps, where the parameter is a size: its curve in
/// the chart's unit (`unit_ns` nanoseconds) and its sentence.
pub(super) fn with_laws(
    view: &WorkloadView<'_>,
    param: &str,
    on: impl Fn(&Record) -> bool,
    unit_ns: f64,
    mut chart: LineChart,
) -> LineChart {
    let groups = view.groups_with(&on);
    let naming = view.naming(&groups);
    for &g in &groups {
        for v in &view.variants {
            let records: Vec<&Record> = view
                .entries
                .iter()
                .filter(|e| e.group == g && e.record.variant == *v && on(e.record))
                .map(|e| e.record)
                .collect();
            let Some(sweep) = of_records(&records, param) else {
                continue;
            };
            let name = naming.line(v, g);
            let Some(series) = chart.series.iter_mut().find(|s| s.label == name) else {
                continue;
            };
            let (lo, hi) = series
                .points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                    (a.min(p.0), b.max(p.0))
                });
            let geometric = lo > 0.0 && hi / lo > 8.0;
            series.fitted = (0..=CURVE_POINTS)
                .map(|i| {
                    let t = f64::from(i) / f64::from(CURVE_POINTS);
                    let n = if geometric {
                        lo * (hi / lo).powf(t)
                    } else {
                        lo + (hi - lo) * t
                    };
                    (n, sweep.per_element_ns(n) / unit_ns)
                })
                .collect();
            chart.laws.push(format!("{name}: {}", sweep.law.line()));
        }
    }
    chart
}
