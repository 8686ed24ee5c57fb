//! `render`: results files in, a directory of charts and two pages out.
//!
//! The report directory is self-contained — SVG and PNG per chart, an
//! `index.html` and a `report.md` that link them relatively — so it can be
//! uploaded as a CI artifact or pasted into a write-up as is.
//!
//! This module draws the charts and puts the report together; its children
//! each hold one part: what the caller asks for (`options`), what was
//! written (`written`) or why not (`error`), the summary rows and the
//! doubtful records the pages show (`summary`, `doubts`), instructions per cycle (`ipc`), the flame graphs
//! (`flamegraphs`) and the two pages (`page`).

mod absent;
mod doubts;
mod error;
mod flamegraphs;
mod ipc;
mod options;
mod page;
mod summary;
mod written;

pub use error::ReportError;
pub use flamegraphs::FlameGraphFile;
pub use options::ReportOptions;
pub use written::{ChartFile, FigureTable, Report};

use crate::chart::footer::{Footed, Footer};
use crate::chart::{self, Figure};
use crate::dataset::{Facet, Source, WorkloadView};
use crate::disturbance::{Limits, Purpose};
use crate::plan::{self, LevelTable, Planned, PlannedChart};
use crate::results::{Machine, Record, Status};
use page::Contents;
use std::path::Path;
use summary::{SummaryRow, summary_row};

/// Draws every chart the sources support into `out` and writes the pages,
/// marking the time records that may not hold as figures to gate against
/// ([`Purpose::Gate`]).
pub fn render(
    sources: &[Source],
    out: &Path,
    options: &ReportOptions,
) -> Result<Report, ReportError> {
    render_for(sources, out, options, Purpose::Gate)
}

/// [`render`], marking the time records that may not hold for `purpose`.
pub fn render_for(
    sources: &[Source],
    out: &Path,
    options: &ReportOptions,
    purpose: Purpose,
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
    skipped.extend(absent::absent(&views));
    let charts = draw_charts(sources, &views, out, &mut skipped)?;
    let flamegraphs = match &options.flamegraphs {
        Some(root) => flamegraphs::draw(sources, out, root, &mut skipped)?,
        None => Vec::new(),
    };
    let not_measured = not_measured(sources);
    let report = Report {
        dir: out.to_owned(),
        index: out.join("index.html"),
        markdown: out.join("report.md"),
        charts,
        flamegraphs,
        skipped,
    };
    let limits = purpose.limits();
    let summary: Vec<SummaryRow> = views.iter().map(|v| summary_row(v, limits)).collect();
    let levels: Vec<LevelTable> = views.iter().filter_map(|v| plan::level_table(v)).collect();
    let doubts = doubts::doubts(sources, limits);
    let ipc = ipc::ipc(sources);
    let contents = Contents {
        sources,
        report: &report,
        summary: &summary,
        levels: &levels,
        ipc: &ipc,
        not_measured: &not_measured,
        doubts: &doubts,
        limits,
        options,
    };
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| ReportError::Io(path.to_owned(), e))
    };
    write(&report.index, page::html(&contents))?;
    write(&report.markdown, page::markdown(&contents))?;
    Ok(report)
}

/// Draws each view's planned charts into `out`, in page order, and after
/// a workload's last view its decision map, drawn from every source;
/// pushes what the plans leave out to `skipped`.
fn draw_charts(
    sources: &[Source],
    views: &[&WorkloadView<'_>],
    out: &Path,
    skipped: &mut Vec<String>,
) -> Result<Vec<ChartFile>, ReportError> {
    let mut charts: Vec<ChartFile> = Vec::new();
    for (i, view) in views.iter().enumerate() {
        let machine = view.machine.map(str::to_owned);
        let footer = plan::footer(&view.runs);
        let mut planned: Vec<(PlannedChart, Footer, Option<String>)> = plan::plan(view, skipped)
            .into_iter()
            .map(|p| (p, footer.clone(), machine.clone()))
            .collect();
        let last = views.get(i + 1).is_none_or(|next| next.name != view.name);
        if let Some(map) = last
            .then(|| plan::decision_map(&view.name, sources))
            .flatten()
        {
            let runs: Vec<&Machine> = views
                .iter()
                .filter(|v| v.name == view.name)
                .flat_map(|v| v.runs.iter().copied())
                .collect();
            planned.push((map, plan::footer(&runs), None));
        }
        for (mut planned, footer, machine) in planned {
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
            let (stem, footer) = (&planned.stem, &footer);
            let (size, table, laws) = match &planned.figure {
                Planned::Bars(f) => (save(f, footer, out, stem)?, f.table(), f.laws()),
                Planned::Lines(f) => (save(f, footer, out, stem)?, f.table(), f.laws()),
                Planned::Heat(f) => (save(f, footer, out, stem)?, f.table(), f.laws()),
                Planned::Ab(f) => (save(f, footer, out, stem)?, f.table(), f.laws()),
                Planned::Decision(f) => (save(f, footer, out, stem)?, f.table(), f.laws()),
            };
            charts.push(ChartFile {
                workload: view.name.clone(),
                machine,
                title: planned.title,
                caption: planned.caption,
                svg: format!("{}.svg", planned.stem),
                png: format!("{}.png", planned.stem),
                size,
                table,
                laws,
            });
        }
    }
    Ok(charts)
}

/// Every record of `sources` that holds no measurement, with its file's
/// label: faults first, since the pages list a bounded number and a crash
/// or a hang must never be the one left out.
fn not_measured(sources: &[Source]) -> Vec<(String, &Record)> {
    let mut records: Vec<(String, &Record)> = sources
        .iter()
        .flat_map(|s| s.file.records.iter().map(move |r| (s.label.clone(), r)))
        .filter(|(_, r)| r.status != Status::Ok)
        .collect();
    records.sort_by_key(|(_, r)| !r.status.faulted());
    records
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

/// Writes `fig` with `footer` under it to `dir` as `stem.svg` and
/// `stem.png`; their pixel size.
pub(crate) fn save(
    fig: &impl Figure,
    footer: &Footer,
    dir: &Path,
    stem: &str,
) -> Result<(u32, u32), ReportError> {
    let footed = Footed {
        figure: fig,
        footer,
    };
    chart::save(&footed, dir, stem).map_err(ReportError::Draw)?;
    Ok(footed.size())
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
    summary::text_table(&rows)
}
