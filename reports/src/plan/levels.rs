//! The level view: each variant at each target-cpu level, whenever the
//! results hold more than one, plain and swept sets alike.
//!
//! What a write-up says about levels is "this variant got 2× faster from
//! x86-64 to v3", so each variant's figure at a level is the geometric
//! mean over the input sets it ran at every level (like for like), and
//! its speed-up is over the same variant at `x86-64` (the level every
//! x86-64 CPU runs) from the same results file. A timed figure's whisker
//! is the 95 % interval of that geometric mean, by a bootstrap that
//! resamples every set's rounds at once (as the summary's speed-up).

use super::{
    Estimate, Planned, PlannedChart, Quantity, Throughput, convert, ns, ns_per_unit, ok_median,
    slug, variant_legend,
};
use crate::chart::LegendItem;
use crate::chart::bars::{Bar, BarChart, Category, Panel};
use crate::dataset::WorkloadView;
use crate::interval;
use crate::interval::geomean;
use crate::palette;
use crate::results::{Metric, Record, Status};

/// What the level view's whiskers are, for its captions.
const WHISKERS: &str = "whiskers: the 95% interval of that geometric mean, a bootstrap over every set's rounds, where each set has enough samples";

/// The level others are compared with: `x86-64` when present, else the
/// first level seen.
const BASELINE: &str = "x86-64";

/// Each group's baseline group: the one of the same source at the
/// baseline level.
fn baselines(view: &WorkloadView<'_>) -> (String, Vec<Option<usize>>) {
    let level = if view.groups.iter().any(|g| g.target_cpu == BASELINE) {
        BASELINE.to_owned()
    } else {
        view.groups[0].target_cpu.clone()
    };
    let of = view
        .groups
        .iter()
        .map(|g| {
            view.groups
                .iter()
                .position(|b| b.source == g.source && b.target_cpu == level)
        })
        .collect();
    (level, of)
}

/// The sets where `variant` has a value (of records `value` reads) in
/// every group where it has any.
fn common_sets<'a>(
    view: &WorkloadView<'a>,
    variant: &str,
    value: &impl Fn(&Record) -> Option<f64>,
) -> Vec<&'a str> {
    let with_value: Vec<(&str, usize)> = view
        .entries
        .iter()
        .filter(|e| e.record.variant == variant && value(e.record).is_some())
        .map(|e| (e.record.input_set.as_str(), e.group))
        .collect();
    let groups: Vec<usize> = (0..view.groups.len())
        .filter(|g| with_value.iter().any(|(_, eg)| eg == g))
        .collect();
    let mut sets: Vec<&str> = Vec::new();
    for (set, _) in &with_value {
        if !sets.contains(set) && groups.iter().all(|g| with_value.contains(&(set, *g))) {
            sets.push(set);
        }
    }
    sets
}

/// A variant's figures in one group: the geometric mean over its common
/// sets, and the geometric mean of the baseline group's ÷ this group's,
/// each with its 95 % interval where every set has samples enough.
struct Cell {
    mean: Estimate,
    speedup: Option<Estimate>,
}

/// Bootstrap replicates of a time record's median in nanoseconds per
/// element, seeded by the record's identity; `None` with too few samples.
fn ns_replicates(r: &Record) -> Option<Vec<f64>> {
    let factor = ns_per_unit(r)?;
    ns(r)?;
    let seed = interval::seed_of(&[&r.workload, &r.variant, &r.input_set, &r.target_cpu]);
    let mut replicates = interval::median_replicates(&r.rounds, seed)?;
    replicates.iter_mut().for_each(|m| *m *= factor);
    Some(replicates)
}

/// One variant's figures in one group, set by set (over its common
/// sets): the values, and every set's bootstrap replicates when each set
/// has some.
struct Column {
    values: Vec<Option<f64>>,
    replicates: Option<Vec<Vec<f64>>>,
}

impl Column {
    /// Set by set, `self` ÷ `bottom`.
    fn ratio(&self, bottom: &Column) -> Column {
        let divide = |t: &[f64], b: &[f64]| t.iter().zip(b).map(|(t, b)| t / b).collect();
        Column {
            values: (self.values.iter().zip(&bottom.values))
                .map(|(t, b)| Some((*t)? / (*b)?))
                .collect(),
            replicates: (self.replicates.as_ref().zip(bottom.replicates.as_ref()))
                .map(|(t, b)| t.iter().zip(b).map(|(t, b)| divide(t, b)).collect()),
        }
    }

    /// The geometric mean over the sets, with its 95 % interval.
    fn mean(&self) -> Option<Estimate> {
        let value = geomean(self.values.iter().flatten().copied())?;
        let interval = self
            .replicates
            .as_deref()
            .and_then(interval::geomean_interval);
        Some((value, interval.map(|i| (i.low, i.high))))
    }
}

/// Per variant (view order, those with any value) and group: its cell.
/// `value` reads a record's figure; `replicates` its bootstrap replicates,
/// where it has any (time records), for the cells' intervals.
fn cells<'v>(
    view: &'v WorkloadView<'_>,
    metric: Metric,
    value: impl Fn(&Record) -> Option<f64>,
    replicates: impl Fn(&Record) -> Option<Vec<f64>>,
) -> Vec<(&'v str, Vec<Option<Cell>>)> {
    let (_, base) = baselines(view);
    let keep = |r: &Record| if r.metric == metric { value(r) } else { None };
    view.variants
        .iter()
        .filter_map(|v| {
            let sets = common_sets(view, v, &keep);
            if sets.is_empty() {
                return None;
            }
            let columns: Vec<Column> = (0..view.groups.len())
                .map(|g| {
                    let records: Vec<Option<&Record>> =
                        sets.iter().map(|s| view.find(v, s, g, metric)).collect();
                    Column {
                        values: records.iter().map(|r| r.and_then(&keep)).collect(),
                        replicates: records.iter().map(|r| r.and_then(&replicates)).collect(),
                    }
                })
                .collect();
            let row = (0..view.groups.len())
                .map(|g| {
                    Some(Cell {
                        mean: columns[g].mean()?,
                        speedup: base[g].and_then(|b| columns[b].ratio(&columns[g]).mean()),
                    })
                })
                .collect();
            Some((v.as_str(), row))
        })
        .collect()
}

/// The groups where any variant has a cell.
fn filled(rows: &[(&str, Vec<Option<Cell>>)]) -> Vec<usize> {
    let groups = rows.first().map_or(0, |(_, row)| row.len());
    (0..groups)
        .filter(|&g| rows.iter().any(|(_, row)| row[g].is_some()))
        .collect()
}

/// The legend of groups: one entry a level (and file, where they differ).
fn group_legend(view: &WorkloadView<'_>, groups: &[usize]) -> Vec<LegendItem> {
    let naming = view.naming(groups);
    groups
        .iter()
        .enumerate()
        .map(|(i, &g)| LegendItem {
            text: naming.label(g),
            color: palette::level(i, groups.len()),
            marker: None,
            dash: 0,
        })
        .collect()
}

/// Why `variant` has no `metric` value in group `g`: the gravest of its
/// findings there (a crash, a hang, a wrong answer), else `not run`.
fn why_missing(view: &WorkloadView<'_>, variant: &str, metric: Metric, g: usize) -> &'static str {
    let statuses: Vec<Status> = view
        .metric(metric)
        .filter(|e| e.group == g && e.record.variant == variant)
        .map(|e| e.record.status)
        .collect();
    [Status::Crashed, Status::Hung, Status::Error]
        .into_iter()
        .find(|s| statuses.contains(s))
        .map_or("not run", Status::as_str)
}

/// A bar chart with a category per variant and a slot per group of
/// `groups`, `bar` giving the figure of a cell.
fn chart(
    view: &WorkloadView<'_>,
    metric: Metric,
    rows: &[(&str, Vec<Option<Cell>>)],
    groups: &[usize],
    bar: impl Fn(&Cell) -> Option<Estimate>,
) -> BarChart {
    let categories = rows
        .iter()
        .map(|(v, row)| Category {
            label: vec![variant_legend(view, v).text],
            bars: groups
                .iter()
                .map(|&g| {
                    Some(match row[g].as_ref().map(&bar) {
                        Some(Some((value, whisker))) => Bar::Value { value, whisker },
                        Some(None) => Bar::Missing("not run"),
                        None => Bar::Missing(why_missing(view, v, metric, g)),
                    })
                })
                .collect(),
        })
        .collect();
    BarChart {
        title: String::new(),
        subtitle: String::new(),
        y_title: String::new(),
        x_title: "variant".into(),
        legend_heading: view.naming(groups).heading().into(),
        legend: group_legend(view, groups),
        panels: vec![Panel {
            title: "geometric mean over the input sets each variant ran at every level".into(),
            categories,
        }],
        value_suffix: "",
        reference: None,
    }
}

/// The level charts of `view`: throughput and speed-up over `x86-64`
/// per variant and level, and each quantity (instructions, cache
/// metrics) per level; none unless the results hold several levels.
pub(super) fn charts(view: &WorkloadView<'_>, quantities: &[Quantity]) -> Vec<PlannedChart> {
    if !view.several_levels {
        return Vec::new();
    }
    let w = &view.title;
    let (level, base) = baselines(view);
    let mut out = Vec::new();
    let timed = cells(view, Metric::Time, ns, ns_replicates);
    if !timed.is_empty() {
        let el = super::element(view);
        let typical = geomean(
            timed
                .iter()
                .flat_map(|(_, r)| r.iter().flatten().map(|c| c.mean.0)),
        );
        let rate = Throughput::new(view, typical.unwrap_or(1.0));
        let groups = filled(&timed);
        let title = format!("{w}: throughput by target-cpu level");
        out.push(PlannedChart {
            stem: format!("{}-levels-throughput", slug(w)),
            title: title.clone(),
            caption: format!("Each variant's throughput in {} at each target-cpu level (geometric mean of its median times per {el} over the input sets it ran at every level; {WHISKERS}); higher is better.", rate.words()),
            figure: Planned::Bars(BarChart {
                title,
                subtitle: format!("{}; whiskers: 95% interval; higher is better", rate.unit()),
                y_title: format!("throughput ({})", rate.unit()),
                ..chart(view, Metric::Time, &timed, &groups, |c| {
                    Some(convert(c.mean, |t| rate.of(t)))
                })
            }),
        });
        let others: Vec<usize> = groups
            .into_iter()
            .filter(|g| base[*g] != Some(*g))
            .collect();
        let title = format!("{w}: speed-up over {level} by target-cpu level");
        out.push(PlannedChart {
            stem: format!("{}-levels-speedup", slug(w)),
            title: title.clone(),
            caption: format!("Each variant's speed-up at each target-cpu level over the same variant built for {level} (geometric mean over the input sets it ran at every level; {WHISKERS}); the line marks 1×, higher is better."),
            figure: Planned::Bars(BarChart {
                title,
                subtitle: format!("{level} time ÷ time at the level, same variant; whiskers: 95% interval; line at 1×"),
                y_title: "speed-up (×)".into(),
                value_suffix: "×",
                reference: Some(1.0),
                ..chart(view, Metric::Time, &timed, &others, |c| c.speedup)
            }),
        });
    }
    for q in quantities
        .iter()
        .filter(|q| q.metric.descriptor().chart != crate::metric::Chart::BarsPerUnit)
    {
        let rows = cells(
            view,
            q.metric,
            |r| ok_median(r).filter(|_| q.holds(r)),
            |_| None,
        );
        let groups = filled(&rows);
        if groups.len() < 2 {
            continue;
        }
        let title = format!("{w}: {} by target-cpu level", q.name);
        out.push(PlannedChart {
            stem: format!("{}-levels-{}", slug(w), q.stem),
            title: title.clone(),
            caption: format!("{} Each variant at each target-cpu level where it was counted (geometric mean over the input sets counted at every such level).", q.caption),
            figure: Planned::Bars(BarChart {
                title,
                subtitle: format!("{} per element; lower is better", q.name),
                y_title: q.y_title.clone(),
                ..chart(view, q.metric, &rows, &groups, |c| Some(c.mean))
            }),
        });
    }
    out
}

/// A variant at a level: the geometric-mean time per element (ns) and,
/// off the baseline level, the speed-up over it.
pub(crate) type LevelCell = (f64, Option<f64>);

/// One workload's times by level, for the pages: what a write-up quotes.
#[derive(Clone, Debug)]
pub(crate) struct LevelTable {
    pub workload: String,
    /// The level speed-ups are over.
    pub baseline: String,
    /// Column labels, one per series group.
    pub groups: Vec<String>,
    /// Per variant: per group, its cell.
    pub rows: Vec<(String, Vec<Option<LevelCell>>)>,
    /// Per group: the geometric mean of every variant's speed-up, and how
    /// many variants it rests on.
    pub overall: Vec<Option<(f64, usize)>>,
}

/// The level table of `view`, when its timings hold several levels.
pub(crate) fn level_table(view: &WorkloadView<'_>) -> Option<LevelTable> {
    if !view.several_levels {
        return None;
    }
    // The pages quote figures, not intervals: no bootstrap.
    let timed = cells(view, Metric::Time, ns, |_| None);
    if timed.is_empty() {
        return None;
    }
    let groups = filled(&timed);
    let (baseline, base) = baselines(view);
    // A speed-up of the baseline over itself says nothing.
    let speedup = |c: &Cell, g: usize| c.speedup.filter(|_| base[g] != Some(g)).map(|s| s.0);
    let overall = groups
        .iter()
        .map(|&g| {
            let ratios: Vec<f64> = timed
                .iter()
                .filter_map(|(_, row)| speedup(row[g].as_ref()?, g))
                .collect();
            geomean(ratios.iter().copied()).map(|m| (m, ratios.len()))
        })
        .collect();
    Some(LevelTable {
        workload: view.title.clone(),
        baseline,
        groups: {
            let naming = view.naming(&groups);
            groups.iter().map(|&g| naming.label(g)).collect()
        },
        rows: timed
            .iter()
            .map(|(v, row)| {
                let cells = groups
                    .iter()
                    .map(|&g| row[g].as_ref().map(|c| (c.mean.0, speedup(c, g))))
                    .collect();
                ((*v).to_owned(), cells)
            })
            .collect(),
        overall,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Source;
    use crate::results::ResultsFile;

    /// One variant on two sets at two levels, exactly twice as fast at
    /// v3, with its samples or without.
    fn two_levels(samples: bool) -> Source {
        let mut file = ResultsFile::default();
        for (cpu, speed) in [("x86-64", 1.0), ("x86-64-v3", 0.5)] {
            for (set, centre) in [("a", 100.0), ("b", 400.0)] {
                let rounds: Vec<Vec<f64>> = (0..3)
                    .map(|k| {
                        (0..8)
                            .map(|i| centre * speed * (1.0 + 0.01 * f64::from((k * 8 + i) % 5)))
                            .collect()
                    })
                    .collect();
                file.records.push(Record {
                    workload: "w".into(),
                    variant: "v".into(),
                    input_set: set.into(),
                    target_cpu: cpu.into(),
                    unit: "ns/item".into(),
                    median: interval::median(&mut rounds.concat()),
                    rounds: if samples { rounds } else { Vec::new() },
                    ..Record::default()
                });
            }
        }
        Source::new("run", "run.json", file)
    }

    /// The v3 cell of the one variant.
    fn v3_cell(source: &Source) -> Cell {
        let view = WorkloadView::of([source]).remove(0);
        let mut rows = cells(&view, Metric::Time, ns, ns_replicates);
        rows.remove(0).1.remove(1).expect("a v3 cell")
    }

    #[test]
    fn timed_level_figures_carry_the_interval_of_their_geometric_mean() {
        let cell = v3_cell(&two_levels(true));
        let (mean, Some((low, high))) = cell.mean else {
            panic!("no interval: {:?}", cell.mean)
        };
        assert!(
            low <= mean && mean <= high && high - low < 0.1 * mean,
            "{mean} in {low}..{high}"
        );
        let Some((speedup, Some((low, high)))) = cell.speedup else {
            panic!("no speed-up interval: {:?}", cell.speedup)
        };
        assert!((speedup - 2.0).abs() < 1e-9, "{speedup}");
        assert!(
            low <= 2.0 && 2.0 <= high && high - low < 0.2,
            "{low}..{high}"
        );

        // Without samples, the figures stand alone.
        let cell = v3_cell(&two_levels(false));
        assert_eq!(cell.mean.1, None);
        assert_eq!(cell.speedup.map(|s| s.1), Some(None));
    }
}
