//! The summary: per workload (and machine), the fastest variant and its
//! speedup over the oracle, and how many records are findings, skipped or
//! doubtful. Both pages show it as a table, and [`summary`](super::summary)
//! prints it as text.

use super::doubts::time_concern;
use crate::dataset::WorkloadView;
use crate::disturbance::Limits;
use crate::interval::geomean;
use crate::interval::{self, Interval};
use crate::numbers::ratio;
use crate::plan::ns;
use crate::reference::speedup_reference;
use crate::results::{Metric, Record, Status};

/// One workload's line in the summary table.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SummaryRow {
    pub workload: String,
    /// The machine, when the results hold several: one row per machine.
    pub machine: Option<String>,
    pub variants: usize,
    pub oracle: String,
    /// The fastest non-oracle variant, if any was timed.
    pub fastest: Option<Fastest>,
    pub errors: usize,
    /// Records whose variant died by a signal: findings, counted apart
    /// from wrong answers.
    pub crashed: usize,
    /// Records whose variant passed its deadline.
    pub hung: usize,
    pub skipped: usize,
    /// Time records that may not hold (a busy or noisy machine).
    pub doubtful: usize,
}

/// The fastest variant of a workload and how it compares with the oracle.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Fastest {
    pub variant: String,
    /// Geometric-mean speedup over the oracle where both were timed.
    pub speedup: Option<f64>,
    /// Its 95 % interval, when every set it rests on has samples enough.
    pub interval: Option<Interval>,
    /// Headline input sets (per build) where both were timed.
    pub compared: usize,
    /// Headline input sets (per build) where the variant was timed.
    pub timed: usize,
    /// The runner-up, when its total time's range overlaps this one's:
    /// which of the two is faster is not known.
    pub tied_with: Option<String>,
}

impl SummaryRow {
    /// The summary's "fastest" cell, e.g. `swar: 13× over naive-bfs`, with
    /// the runner-up it ties with when their times overlap (`swar (tie with
    /// simd): …`), and the share of input sets the speedup rests on when
    /// the oracle was skipped on some.
    pub(crate) fn fastest_text(&self) -> String {
        let oracle = &self.oracle;
        match &self.fastest {
            None => format!("- (nothing timed to compare with {oracle})"),
            Some(f) => match f.speedup {
                None => format!("{}: ({oracle} timed on none of its sets)", f.variant),
                Some(s) => {
                    let interval = f.interval.map_or_else(
                        || " (no interval: too few samples)".to_owned(),
                        |i| format!(" ({}–{})", ratio(i.low), ratio(i.high)),
                    );
                    let share = if f.compared == f.timed {
                        String::new()
                    } else {
                        format!(" (on the {} of {} sets {oracle} ran)", f.compared, f.timed)
                    };
                    let tie = f
                        .tied_with
                        .as_ref()
                        .map_or_else(String::new, |other| format!(" (tie with {other})"));
                    format!(
                        "{}{tie}: {}×{interval} over {oracle}{share}",
                        f.variant,
                        ratio(s)
                    )
                }
            },
        }
    }
}

/// A variant's time per element (ns) on each (headline input set, build).
type Timings<'a> = Vec<((&'a str, usize), f64)>;

/// Per workload (and machine, when the results hold several), the
/// fastest variant: among the non-oracle variants timed on the most
/// headline input sets, the one with the least total time per element over
/// the sets they share (the time to process one element of each — so a
/// variant that skipped the heavy sets cannot win on the light ones). Its
/// speedup over the oracle is the geometric mean over the sets where both
/// were timed.
/// Its records that may not hold under `limits` are counted.
pub(super) fn summary_row(view: &WorkloadView<'_>, limits: Limits) -> SummaryRow {
    let headline = view.summary_sets();
    let rows: Vec<(&str, usize)> = headline
        .iter()
        .flat_map(|s| (0..view.groups.len()).map(move |g| (*s, g)))
        .collect();
    let names: Vec<&str> = view.variants.iter().map(String::as_str).collect();
    let oracle = speedup_reference(view.oracle(), &names, &rows, |v, &(s, g)| {
        view.find(v, s, g, Metric::Time).and_then(ns)
    })
    .map_or_else(
        || view.oracle().unwrap_or("the oracle").to_owned(),
        |r| r.variant.to_owned(),
    );
    let timed = |v: &str| -> Timings<'_> {
        view.metric(Metric::Time)
            .filter(|e| e.record.variant == v && headline.contains(&e.record.input_set.as_str()))
            .filter_map(|e| Some(((e.record.input_set.as_str(), e.group), ns(e.record)?)))
            .collect()
    };
    let timings: Vec<(&String, Timings<'_>)> = view
        .variants
        .iter()
        .filter(|v| **v != oracle)
        .map(|v| (v, timed(v)))
        .filter(|(_, t)| !t.is_empty())
        .collect();
    let most = timings.iter().map(|(_, t)| t.len()).max().unwrap_or(0);
    let candidates: Vec<_> = timings.iter().filter(|(_, t)| t.len() == most).collect();
    let shared = |key: &(&str, usize)| {
        candidates
            .iter()
            .all(|(_, t)| t.iter().any(|(k, _)| k == key))
    };
    let total = |t: &[((&str, usize), f64)]| -> f64 {
        t.iter().filter(|(k, _)| shared(k)).map(|(_, ns)| ns).sum()
    };
    // The range of a variant's total: each record's 95 % interval, or its
    // samples' range where it has too few samples for one.
    let band = |v: &str, t: &[((&str, usize), f64)]| -> (f64, f64) {
        t.iter()
            .filter(|(k, _)| shared(k))
            .fold((0.0, 0.0), |(lo, hi), ((set, group), median)| {
                let record = view.find(v, set, *group, Metric::Time);
                let (l, h) = match record.filter(|r| r.median > 0.0) {
                    Some(r) => {
                        let (l, h) = r.interval.map_or((r.min, r.max), |i| (i.low, i.high));
                        (l * median / r.median, h * median / r.median)
                    }
                    None => (*median, *median),
                };
                (lo + l, hi + h)
            })
    };
    let mut ranked: Vec<_> = candidates.iter().collect();
    ranked.sort_by(|a, b| total(&a.1).total_cmp(&total(&b.1)));
    let tied_with = match ranked.as_slice() {
        [(first, t1), (second, t2), ..] if band(first, t1).1 >= band(second, t2).0 => {
            Some((*second).clone())
        }
        _ => None,
    };
    let fastest = ranked.first().map(|(v, t)| {
        let pairs: Vec<(&Record, &Record)> = t
            .iter()
            .filter_map(|((set, group), _)| {
                let base = view.find(&oracle, set, *group, Metric::Time)?;
                ns(base)?;
                Some((base, view.find(v, set, *group, Metric::Time)?))
            })
            .collect();
        let ratios = pairs.iter().filter_map(|(b, r)| Some(ns(b)? / ns(r)?));
        Fastest {
            variant: (*v).clone(),
            speedup: geomean(ratios),
            interval: geomean_interval(&view.name, &pairs),
            compared: pairs.len(),
            timed: t.len(),
            tied_with,
        }
    });
    let count = |s: Status| view.entries.iter().filter(|e| e.record.status == s).count();
    SummaryRow {
        workload: view.name.clone(),
        machine: view.machine.map(str::to_owned),
        variants: view.variants.len(),
        oracle,
        fastest,
        errors: count(Status::Error),
        crashed: count(Status::Crashed),
        hung: count(Status::Hung),
        skipped: count(Status::Skipped),
        doubtful: view
            .entries
            .iter()
            .filter(|e| time_concern(e.record, limits).is_some())
            .count(),
    }
}

/// The 95 % interval of the geometric mean of `base ÷ variant` over
/// `pairs`: each replicate takes the geometric mean of one bootstrap
/// replicate of every pair. `None` when any pair has too few samples.
fn geomean_interval(workload: &str, pairs: &[(&Record, &Record)]) -> Option<Interval> {
    let replicates: Vec<Vec<f64>> = pairs
        .iter()
        .map(|(base, r)| {
            let seed = interval::seed_of(&[workload, &base.variant, &r.variant, &r.input_set]);
            interval::ratio_replicates(&base.rounds, &r.rounds, seed)
        })
        .collect::<Option<_>>()?;
    interval::geomean_interval(&replicates)
}

/// `rows` as an aligned plain-text table, counts right-aligned, with a
/// `machine` column when the rows name machines.
pub(super) fn text_table(rows: &[SummaryRow]) -> String {
    let machines = rows.iter().any(|r| r.machine.is_some());
    let mut table = vec![vec![
        "workload".to_owned(),
        "variants".to_owned(),
        "fastest (least total time; geomean speedup over oracle)".to_owned(),
        "errors".to_owned(),
        "crashed".to_owned(),
        "hung".to_owned(),
        "skipped".to_owned(),
    ]];
    if machines {
        table[0].insert(1, "machine".to_owned());
    }
    for r in rows {
        let fastest = r.fastest_text();
        let mut row = vec![
            r.workload.clone(),
            r.variants.to_string(),
            fastest,
            r.errors.to_string(),
            r.crashed.to_string(),
            r.hung.to_string(),
            r.skipped.to_string(),
        ];
        if let Some(m) = &r.machine {
            row.insert(1, m.clone());
        }
        table.push(row);
    }
    // Right-aligned: the counts (columns after the machine's shift by one).
    let numeric = |c: usize| {
        c.checked_sub(usize::from(machines))
            .is_some_and(|k| k == 1 || k >= 3)
    };
    let widths: Vec<usize> = (0..table[0].len())
        .map(|c| {
            table
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                if numeric(c) {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
