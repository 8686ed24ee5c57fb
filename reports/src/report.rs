//! `render`: results files in, a directory of charts and two pages out.
//!
//! The report directory is self-contained — SVG and PNG per chart, an
//! `index.html` and a `report.md` that link them relatively — so it can be
//! uploaded as a CI artifact or pasted into a write-up as is.

use crate::chart::{self, Figure};
use crate::dataset::{Facet, Source, WorkloadView};
use crate::disturbance::{Limits, Purpose, concern};
use crate::flamegraphs::{self, FlameGraphFile};
use crate::interval::{self, Interval};
use crate::page::{self, Contents};
use crate::plan::{self, LevelTable, Planned, ns};
use crate::reference::speedup_reference;
use crate::results::{Metric, Record, Status};
use crate::scale::geomean;
use std::fmt;
use std::path::{Path, PathBuf};

/// What the report is for, beyond the results themselves.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// The command that produced the report, shown on the pages.
    pub command: String,
    /// Workloads the caller knows about; absent ones are reported as skipped.
    pub expected_workloads: Vec<String>,
    /// `Some(root)`: draw a flame graph of every counted instruction record
    /// that kept its callgrind profile, its stacks rooted at the functions
    /// named like `root` (see [`Flame::root`](crate::profile::Flame::root)).
    pub flamegraphs: Option<String>,
    /// What the time records are for, which sets how uncertain one may be
    /// before the pages mark it (by default, figures to gate against).
    pub purpose: Purpose,
}

/// One chart written to the report directory.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartFile {
    /// Workload the chart belongs to.
    pub workload: String,
    /// The machine whose results it draws, when the report holds several
    /// (each machine's charts are drawn apart).
    pub machine: Option<String>,
    /// Title, also the image's alt text.
    pub title: String,
    /// One or two sentences on what the chart shows.
    pub caption: String,
    /// File name of the SVG, relative to the report directory.
    pub svg: String,
    /// File name of the PNG, relative to the report directory.
    pub png: String,
    /// Pixel size of both images.
    pub size: (u32, u32),
}

/// A written report.
#[derive(Clone, Debug)]
pub struct Report {
    /// The report directory.
    pub dir: PathBuf,
    /// `index.html` inside it.
    pub index: PathBuf,
    /// `report.md` inside it.
    pub markdown: PathBuf,
    /// Every chart, in page order.
    pub charts: Vec<ChartFile>,
    /// Every flame graph (with [`ReportOptions::flamegraphs`]), in file
    /// and record order.
    pub flamegraphs: Vec<FlameGraphFile>,
    /// What was left out and why, one line each.
    pub skipped: Vec<String>,
}

/// Why a report could not be written.
#[derive(Debug)]
pub enum ReportError {
    /// A file or directory could not be written.
    Io(PathBuf, std::io::Error),
    /// A chart could not be drawn.
    Draw(String),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Io(p, e) => write!(f, "{}: cannot write: {e}", p.display()),
            ReportError::Draw(e) => write!(f, "cannot draw chart: {e}"),
        }
    }
}

impl std::error::Error for ReportError {}

/// Draws every chart the sources support into `out` and writes the pages.
pub fn render(
    sources: &[Source],
    out: &Path,
    options: &ReportOptions,
) -> Result<Report, ReportError> {
    std::fs::create_dir_all(out).map_err(|e| ReportError::Io(out.to_owned(), e))?;
    let facets = facet_views(sources);
    let views = by_workload(&facets);
    let mut skipped = Vec::new();
    for w in &options.expected_workloads {
        if !views.iter().any(|v| v.name == *w) {
            skipped.push(format!(
                "{w}: no records in the results; its charts are skipped"
            ));
        }
    }
    if views.is_empty() {
        skipped.push("the results hold no records; no charts".to_owned());
    }
    let mut charts: Vec<ChartFile> = Vec::new();
    for view in &views {
        for mut planned in plan::plan(view, &mut skipped) {
            // Two machine names may make one file name ("lab 1", "lab-1").
            let stem = planned.stem.clone();
            let mut n = 1;
            while charts
                .iter()
                .any(|c| c.svg == format!("{}.svg", planned.stem))
            {
                n += 1;
                planned.stem = format!("{stem}-{n}");
            }
            let size = match &planned.figure {
                Planned::Bars(f) => save(f, out, &planned.stem)?,
                Planned::Lines(f) => save(f, out, &planned.stem)?,
                Planned::Heat(f) => save(f, out, &planned.stem)?,
                Planned::Ab(f) => save(f, out, &planned.stem)?,
            };
            charts.push(ChartFile {
                workload: view.name.clone(),
                machine: view.machine.map(str::to_owned),
                title: planned.title,
                caption: planned.caption,
                svg: format!("{}.svg", planned.stem),
                png: format!("{}.png", planned.stem),
                size,
            });
        }
    }
    let flamegraphs = match &options.flamegraphs {
        Some(root) => flamegraphs::draw(sources, out, root, &mut skipped)?,
        None => Vec::new(),
    };
    let mut not_measured: Vec<(String, &Record)> = sources
        .iter()
        .flat_map(|s| s.file.records.iter().map(move |r| (s.label.clone(), r)))
        .filter(|(_, r)| r.status != Status::Ok)
        .collect();
    // Faults first: the pages list a bounded number, and a crash or a
    // hang must never be the one left out.
    not_measured.sort_by_key(|(_, r)| !r.status.faulted());
    let report = Report {
        dir: out.to_owned(),
        index: out.join("index.html"),
        markdown: out.join("report.md"),
        charts,
        flamegraphs,
        skipped,
    };
    let limits = options.purpose.limits();
    let summary: Vec<SummaryRow> = views.iter().map(|v| summary_row(v, limits)).collect();
    let levels: Vec<LevelTable> = views.iter().filter_map(|v| plan::level_table(v)).collect();
    let doubts = doubts(sources, limits);
    let contents = Contents {
        sources,
        report: &report,
        summary: &summary,
        levels: &levels,
        not_measured: &not_measured,
        doubts: &doubts,
        options,
    };
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| ReportError::Io(path.to_owned(), e))
    };
    write(&report.index, page::html(&contents))?;
    write(&report.markdown, page::markdown(&contents))?;
    Ok(report)
}

/// Why a time record's figure may not hold under `limits` (see
/// [`crate::disturbance::concern`]), if it may not.
fn time_concern(r: &Record, limits: Limits) -> Option<String> {
    (r.metric == Metric::Time)
        .then(|| concern(r, limits).map(|c| c.why))
        .flatten()
}

/// A time record that may not hold: the label of its file, the record,
/// and why.
pub(crate) struct Doubt<'a> {
    pub source: &'a str,
    pub record: &'a Record,
    pub why: String,
}

/// Every time record of `sources` that may not hold under `limits`, in
/// file order.
fn doubts(sources: &[Source], limits: Limits) -> Vec<Doubt<'_>> {
    sources
        .iter()
        .flat_map(|s| s.file.records.iter().map(move |r| (s.label.as_str(), r)))
        .filter_map(|(source, record)| {
            let why = time_concern(record, limits)?;
            Some(Doubt {
                source,
                record,
                why,
            })
        })
        .collect()
}

/// Each machine's workload views (one facet when all share a machine).
fn facet_views(sources: &[Source]) -> Vec<Vec<WorkloadView<'_>>> {
    Facet::all(sources).iter().map(Facet::views).collect()
}

/// Workloads in first-seen order, each followed by its views on the other
/// machines that measured it, so a page keeps a workload's charts and
/// summary rows together.
fn by_workload<'v, 'a>(facets: &'v [Vec<WorkloadView<'a>>]) -> Vec<&'v WorkloadView<'a>> {
    let mut views: Vec<&WorkloadView<'a>> = Vec::new();
    for v in facets.iter().flatten() {
        if !views.iter().any(|seen| seen.name == v.name) {
            views.extend(facets.iter().flatten().filter(|o| o.name == v.name));
        }
    }
    views
}

pub(crate) fn save(fig: &impl Figure, dir: &Path, stem: &str) -> Result<(u32, u32), ReportError> {
    chart::save(fig, dir, stem).map_err(ReportError::Draw)?;
    Ok(fig.size())
}

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
}

impl SummaryRow {
    /// The summary's "fastest" cell, e.g. `swar: 12.9× over naive-bfs`, with
    /// the share of input sets the speedup rests on when the oracle was
    /// skipped on some.
    pub(crate) fn fastest_text(&self) -> String {
        let oracle = &self.oracle;
        match &self.fastest {
            None => format!("- (nothing timed to compare with {oracle})"),
            Some(f) => match f.speedup {
                None => format!("{}: ({oracle} timed on none of its sets)", f.variant),
                Some(s) => {
                    let interval = f.interval.map_or_else(
                        || " (no interval: too few samples)".to_owned(),
                        |i| format!(" ({:.2}–{:.2})", i.low, i.high),
                    );
                    let share = if f.compared == f.timed {
                        String::new()
                    } else {
                        format!(" (on the {} of {} sets {oracle} ran)", f.compared, f.timed)
                    };
                    format!("{}: {s:.1}×{interval} over {oracle}{share}", f.variant)
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
fn summary_row(view: &WorkloadView<'_>, limits: Limits) -> SummaryRow {
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
    let fastest = candidates
        .iter()
        .min_by(|a, b| total(&a.1).total_cmp(&total(&b.1)))
        .map(|(v, t)| {
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

/// A short plain-text table: per workload, the variant count, the fastest
/// variant (least total time over the input sets it shares with the others
/// timed as widely) with its speedup over the oracle (geometric mean over
/// input sets, with its 95 % interval), and how many records are errors,
/// crashed, hung or skipped.
///
/// When the results hold several machines, each workload has a row per
/// machine, named in a `machine` column: which variant wins where.
pub fn summary(sources: &[Source]) -> String {
    let facets = facet_views(sources);
    let rows: Vec<SummaryRow> = by_workload(&facets)
        .into_iter()
        .map(|v| summary_row(v, Limits::default()))
        .collect();
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
    for r in &rows {
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
