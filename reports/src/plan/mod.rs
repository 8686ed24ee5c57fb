//! From records to charts: which figures a workload gets, and what each
//! one shows.
//!
//! The choices depend only on record fields: every metric present gets
//! its charts whatever the shape of its input sets (bars over plain sets,
//! lines over a swept parameter, a heatmap over two), results holding
//! several target-cpu levels get a level view, setup records their own
//! chart, and a workload whose winner changes with the CPU or the input
//! a decision map. One file per kind of figure; this one picks them.

mod ab;
mod decisions;
mod footer;
mod growth;
mod heatmaps;
mod levels;
mod setup;
mod sweeps;
mod time;

pub(crate) use decisions::decision_map;
pub(crate) use footer::footer;
pub(crate) use levels::{LevelCell, LevelTable, level_table};

use crate::chart::LegendItem;
use crate::chart::ab::AbChart;
use crate::chart::bars::{Bar, BarChart, Category, Panel};
use crate::chart::decision_map::DecisionMap;
use crate::chart::heatmap::Heatmap;
use crate::chart::lines::LineChart;
use crate::dataset::{WorkloadView, ok_median};
use crate::interval;
use crate::metric::Chart;
use crate::palette;
use crate::results::{Metric, Record, Status};
use crate::scale::{parse_time_unit, rate_prefix};

/// Most input sets one bar chart shows; more are listed as skipped.
pub(crate) const MAX_SETS: usize = 12;

/// A chart to write, with the file stem and the caption the pages use.
pub(crate) enum Planned {
    Bars(BarChart),
    Lines(LineChart),
    Heat(Heatmap),
    Ab(AbChart),
    Decision(DecisionMap),
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
pub(crate) fn whisker_ns(r: &Record) -> Option<(f64, f64)> {
    let factor = ns_per_unit(r)?;
    ok_median(r)?;
    Some(match r.interval {
        Some(i) => (i.low * factor, i.high * factor),
        None => (r.min * factor, r.max * factor),
    })
}

/// Nanoseconds per element of a time record, if it holds a value in a time unit.
pub(crate) fn ns(r: &Record) -> Option<f64> {
    ok_median(r).zip(ns_per_unit(r)).map(|(m, f)| m * f)
}

/// Nanoseconds in one of a time record's units (1 for `ns/board`).
pub(crate) fn ns_per_unit(r: &Record) -> Option<f64> {
    parse_time_unit(&r.unit).map(|(factor, _)| factor)
}

/// A figure to draw and its uncertainty as (low, high), where known: a
/// bar's whisker, a line's band.
pub(crate) type Estimate = (f64, Option<(f64, f64)>);

/// `estimate` through `to`, a monotone conversion: a time unit, or a
/// rate (which falls as time rises, so the ends of the spread swap).
pub(crate) fn convert((value, spread): Estimate, to: impl Fn(f64) -> f64) -> Estimate {
    let spread = spread.map(|(low, high)| {
        let (a, b) = (to(low), to(high));
        (a.min(b), a.max(b))
    });
    (to(value), spread)
}

/// A time record's median in nanoseconds per element with its whisker
/// (see [`whisker_ns`]), through `to` (see [`convert`]).
pub(crate) fn time_estimate(r: &Record, to: impl Fn(f64) -> f64) -> Option<Estimate> {
    Some(convert((ns(r)?, whisker_ns(r)), to))
}

/// The speed-up of `r` over `base` (the reference's record on the same
/// set and build), `base`'s time ÷ `r`'s, with its 95 % interval from a
/// bootstrap of both records' rounds where both have samples enough; the
/// reference over itself has none.
pub(crate) fn speedup_estimate(
    view: &WorkloadView<'_>,
    base: &Record,
    r: &Record,
) -> Option<Estimate> {
    let value = ns(base)? / ns(r)?;
    let units = ns_per_unit(base)? / ns_per_unit(r)?;
    let seed = interval::seed_of(&[&view.name, &base.variant, &r.variant, &r.input_set]);
    let interval = (base.variant != r.variant)
        .then(|| interval::ratio_interval(&base.rounds, &r.rounds, seed))
        .flatten()
        .map(|i| (i.low * units, i.high * units));
    Some((value, interval))
}

/// The bar of `r`'s figure `estimate`, or the mark of its missing value.
pub(crate) fn bar(r: &Record, estimate: Option<Estimate>) -> Bar {
    estimate.map_or_else(
        || missing(r),
        |(value, whisker)| Bar::Value { value, whisker },
    )
}

/// The element name the timings of `view` count (`board`, `solve`), or `element`.
pub(crate) fn element(view: &WorkloadView<'_>) -> String {
    let mut names = view
        .metric(Metric::Time)
        .filter_map(|e| parse_time_unit(&e.record.unit).map(|(_, el)| el));
    match names.next() {
        Some(first) if names.all(|n| n == first) => first.to_owned(),
        _ => "element".to_owned(),
    }
}

/// The plural of [`element`]: as the records name it (`unit_plural`,
/// which the workload declares), or by [`plural`] in older files.
fn elements(view: &WorkloadView<'_>) -> String {
    let mut named = view
        .metric(Metric::Time)
        .map(|e| e.record.unit_plural.as_deref());
    match named.next() {
        Some(Some(first)) if named.all(|n| n == Some(first)) => first.to_owned(),
        _ => plural(&element(view)),
    }
}

/// The English plural of a noun, by the rules that cover element names:
/// `matrix` → `matrices` (and `index`, `vertex`), `box` → `boxes`,
/// `query` → `queries`, `board` → `boards`.
pub(crate) fn plural(singular: &str) -> String {
    let vowel = |c: char| "aeiou".contains(c);
    let mut stem = singular.chars();
    let last = stem.next_back();
    let before = stem.clone().next_back();
    if singular.ends_with("ix") || singular.ends_with("ex") {
        format!("{}ices", &singular[..singular.len() - 2])
    } else if ["s", "x", "sh", "ch"].iter().any(|e| singular.ends_with(e)) {
        format!("{singular}es")
    } else if last == Some('y') && before.is_some_and(|c| !vowel(c)) {
        format!("{}ies", stem.as_str())
    } else {
        format!("{singular}s")
    }
}

/// How charts name a throughput: `M boards/s` on axes and in subtitles,
/// `million boards per second` in captions.
pub(crate) struct Throughput {
    symbol: &'static str,
    word: &'static str,
    factor: f64,
    elements: String,
}

impl Throughput {
    /// The throughput of `view`'s timings, its prefix chosen for a
    /// typical time of `typical_ns` per element.
    pub fn new(view: &WorkloadView<'_>, typical_ns: f64) -> Throughput {
        let (symbol, word, factor) = rate_prefix(1e9 / typical_ns);
        Throughput {
            symbol,
            word,
            factor,
            elements: elements(view),
        }
    }

    /// The throughput of `ns` nanoseconds per element, in [`Throughput::unit`].
    pub fn of(&self, ns: f64) -> f64 {
        1e9 / ns / self.factor
    }

    /// The unit for axes and subtitles: `M boards/s`.
    pub fn unit(&self) -> String {
        let space = if self.symbol.is_empty() { "" } else { " " };
        format!("{}{space}{}/s", self.symbol, self.elements)
    }

    /// The unit in words for captions: `million boards per second`.
    pub fn words(&self) -> String {
        let space = if self.word.is_empty() { "" } else { " " };
        format!("{}{space}{} per second", self.word, self.elements)
    }
}

/// The slot of a record without a value, saying why: a wrong answer, a
/// crash and a hang are findings and read as such, never as a bar of 0.
pub(crate) fn missing(r: &Record) -> Bar {
    Bar::Missing(match r.status {
        Status::Error | Status::Crashed | Status::Hung => r.status.as_str(),
        // A count of none (no allocation) is a figure, but no bar on a
        // log axis: it is written where the bar would stand.
        Status::Ok if r.median == 0.0 => "0",
        Status::Ok | Status::Skipped => "skipped",
    })
}

/// Plans every chart of one workload; pushes what it leaves out to `notes`.
pub(crate) fn plan(view: &WorkloadView<'_>, notes: &mut Vec<String>) -> Vec<PlannedChart> {
    let w = &view.title;
    let mut charts = Vec::new();
    // A missing metric is said once for the report (`report/absent.rs`).
    if view.metric(Metric::Time).next().is_some() {
        let sets = view.headline_sets(Metric::Time, None);
        if !sets.is_empty() {
            charts.extend(time::charts(view, &sets, notes));
        }
        charts.extend(sweeps::time(view));
        charts.extend(heatmaps::heatmaps(view));
        if view.paired() {
            notes.push(format!("{w}: A/B results: no throughput or speedup charts, which would set a variant against its other build unpaired or against itself; the paired change per record and its pairs compare B with A"));
        }
    }
    let quantities = quantities(view);
    for q in &quantities {
        let sets = view.headline_sets(q.metric, q.unit.as_deref());
        if !sets.is_empty() {
            charts.push(quantity_bars(view, q, &sets));
        }
        charts.extend(sweeps::quantity(view, q));
    }
    charts.extend(setup::chart(view));
    charts.extend(levels::charts(view, &quantities));
    charts.extend(ab::charts(view));
    charts
}

/// A per-element quantity charted as measured, without throughput or
/// speedup: instructions, a cache-simulation metric, or one workload
/// counter.
pub(crate) struct Quantity {
    pub metric: Metric,
    /// For counters, the one unit this quantity is (`nodes/input`).
    pub unit: Option<String>,
    /// The records' unit, for axis titles (`instructions/board`).
    pub y_title: String,
    /// How titles name it: `instructions`, `D1 misses`, `nodes/input`.
    pub name: String,
    /// The file-name part: `instructions`, `counter-nodes-input`.
    pub stem: String,
    /// What it counts and where it comes from: the start of captions.
    pub caption: String,
}

impl Quantity {
    /// Whether `r` is a record of this quantity.
    pub fn holds(&self, r: &Record) -> bool {
        r.metric == self.metric && self.unit.as_ref().is_none_or(|u| *u == r.unit)
    }
}

/// The quantities `view` holds, in [`Metric::ALL`] order, counters by unit.
fn quantities(view: &WorkloadView<'_>) -> Vec<Quantity> {
    let mut out = Vec::new();
    for metric in Metric::ALL {
        let mut units: Vec<&str> = Vec::new();
        for e in view.metric(metric) {
            if !units.contains(&e.record.unit.as_str()) {
                units.push(&e.record.unit);
            }
        }
        let Some(&first) = units.first() else {
            continue;
        };
        // A chart of zeros says nothing: no variant allocates, or no
        // clock was calibrated.
        if view.metric(metric).all(|e| e.record.median == 0.0) {
            continue;
        }
        let d = metric.descriptor();
        match d.chart {
            Chart::Own => continue,
            Chart::BarsPerUnit => {
                for unit in units {
                    out.push(Quantity {
                        metric,
                        unit: Some(unit.to_owned()),
                        y_title: unit.to_owned(),
                        name: unit.to_owned(),
                        stem: format!("{}-{}", d.name, slug(unit)),
                        caption: format!("{} (`{unit}`).", d.about),
                    });
                }
                continue;
            }
            Chart::Bars => {}
        }
        let (name, about) = (d.label, d.about);
        out.push(Quantity {
            metric,
            unit: None,
            y_title: first.to_owned(),
            name: name.to_owned(),
            stem: slug(name),
            caption: format!("{about} ({first}); lower is better."),
        });
    }
    out
}

/// The bar chart of a quantity over the plain sets.
fn quantity_bars(view: &WorkloadView<'_>, q: &Quantity, sets: &[&str]) -> PlannedChart {
    let w = &view.title;
    let chart = bars(view, sets, q.metric, |r, _, _| {
        if !q.holds(r) {
            return None;
        }
        Some(ok_median(r).map_or_else(
            || missing(r),
            |m| Bar::Value {
                value: m,
                whisker: (r.mad > 0.0).then_some((m - r.mad, m + r.mad)),
            },
        ))
    });
    let (title, subtitle) = if q.metric.descriptor().chart == Chart::BarsPerUnit {
        (
            format!("{w}: {} by variant", q.name),
            "median over samples".to_owned(),
        )
    } else {
        (
            format!("{w}: {} per element", q.name),
            "per element; lower is better".to_owned(),
        )
    };
    PlannedChart {
        stem: format!("{}-{}", slug(w), q.stem),
        title: title.clone(),
        caption: q.caption.clone(),
        figure: Planned::Bars(BarChart {
            title,
            subtitle,
            y_title: q.y_title.clone(),
            ..chart
        }),
    }
}

/// The legend entry of a variant: its colour, and `(oracle)` after the
/// oracle's name.
pub(crate) fn variant_legend(view: &WorkloadView<'_>, v: &str) -> LegendItem {
    LegendItem {
        text: if Some(v) == view.oracle() {
            format!("{v} (oracle)")
        } else {
            v.to_owned()
        },
        color: palette::variant(view.variant_index(v)),
        marker: None,
        dash: 0,
    }
}

/// Builds a bar chart skeleton over `sets`: slots = variants with records,
/// one panel of sets when one series group has records there, else a
/// panel per set with a category per group, named by what differs among
/// those groups. `value` maps a record (with its group and set) to a bar,
/// or `None` to leave the slot empty.
pub(crate) fn bars(
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
    let legend: Vec<LegendItem> = variants.iter().map(|v| variant_legend(view, v)).collect();
    let category = |label: Vec<String>, set: &str, g: usize| Category {
        label,
        bars: variants
            .iter()
            .map(|v| view.find(v, set, g, metric).and_then(|r| value(r, g, set)))
            .collect(),
    };
    let groups = view.groups_with(|r| r.metric == metric && sets.contains(&r.input_set.as_str()));
    let naming = view.naming(&groups);
    let (panels, x_title) = if let [g] = groups[..] {
        let title = format!("target-cpu: {}", view.groups[g].target_cpu);
        let cats = sets
            .iter()
            .map(|s| category(vec![(*s).to_owned()], s, g))
            .collect();
        (
            vec![Panel {
                title,
                categories: cats,
            }],
            "input set".to_owned(),
        )
    } else if sets.len() > groups.len() {
        // More sets than groups (an A/B of many sets, two builds): a panel
        // per group keeps the chart as tall as two panels, not one per set.
        let panels = groups
            .iter()
            .map(|&g| Panel {
                title: format!("{}: {}", naming.heading(), naming.label(g)),
                categories: sets
                    .iter()
                    .map(|s| category(vec![(*s).to_owned()], s, g))
                    .collect(),
            })
            .collect();
        (panels, "input set".to_owned())
    } else {
        let panels = sets
            .iter()
            .map(|s| Panel {
                title: format!("input set: {s}"),
                categories: groups
                    .iter()
                    .map(|&g| category(naming.parts(g), s, g))
                    .collect(),
            })
            .collect();
        (panels, naming.heading().to_owned())
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

#[cfg(test)]
mod tests {
    use super::{Throughput, convert, missing, ns, plural, slug, whisker_ns};
    use crate::chart::bars::Bar;
    use crate::interval::Interval;
    use crate::results::{Record, Status};

    /// A crash or a hang is drawn as what it is, never as a time, even if
    /// a record carried a stray median.
    #[test]
    fn faults_are_marked_never_timed() {
        for (status, mark) in [
            (Status::Crashed, "crashed"),
            (Status::Hung, "hung"),
            (Status::Error, "error"),
            (Status::Skipped, "skipped"),
        ] {
            let r = Record {
                unit: "ns/solve".into(),
                status,
                median: 3.0,
                min: 3.0,
                max: 3.0,
                ..Record::default()
            };
            assert_eq!(ns(&r), None, "{status}");
            assert_eq!(whisker_ns(&r), None, "{status}");
            assert!(
                matches!(missing(&r), Bar::Missing(m) if m == mark),
                "{status}"
            );
        }
    }

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
    fn plurals_of_element_names() {
        for (one, many) in [
            ("board", "boards"),
            ("matrix", "matrices"),
            ("index", "indices"),
            ("vertex", "vertices"),
            ("box", "boxes"),
            ("bus", "buses"),
            ("hash", "hashes"),
            ("match", "matches"),
            ("query", "queries"),
            ("day", "days"),
            ("byte", "bytes"),
        ] {
            assert_eq!(plural(one), many, "{one}");
        }
    }

    #[test]
    fn throughput_units_read_prefix_plural_per_second() {
        let rate = |symbol, word, factor| Throughput {
            symbol,
            word,
            factor,
            elements: "matrices".into(),
        };
        let mega = rate("M", "million", 1e6);
        assert_eq!(mega.unit(), "M matrices/s");
        assert_eq!(mega.words(), "million matrices per second");
        assert_eq!(mega.of(100.0), 10.0);
        let plain = rate("", "", 1.0);
        assert_eq!(plain.unit(), "matrices/s");
        assert_eq!(plain.words(), "matrices per second");
    }

    /// A rate falls as time rises: the whisker of 10 ± 5 ns is 1e8/15 to
    /// 1e8/5, low end first.
    #[test]
    fn a_converted_whisker_keeps_its_low_end_first() {
        let (value, whisker) = convert((10.0, Some((5.0, 15.0))), |t| 1e9 / t);
        assert_eq!(value, 1e8);
        assert_eq!(whisker, Some((1e9 / 15.0, 1e9 / 5.0)));
        assert_eq!(convert((10.0, None), |t| t / 2.0), (5.0, None));
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("Nodes/Input"), "nodes-input");
        assert_eq!(slug("x86-64-v3 · before"), "x86-64-v3-before");
    }
}
