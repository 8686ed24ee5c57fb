//! History: runs kept across commits, drawn as trends, searched for steps.
//!
//! One comparison of two files forgets; a regression often only shows in
//! a series. Runs are kept in a plain-directory [`store`] keyed by commit
//! and machine; [`render`] lines them up over a branch's commits (which
//! the caller reads from git and passes as data), finds the [`steps`] and
//! writes a trend chart per machine, workload, metric and input set, an
//! `index.html`, a `report.md` and `steps.json`.

mod page;
pub mod series;
pub mod steps;
pub mod store;

pub use page::steps as step_table;
pub use series::{By, Commit, Lineup, Selection, StepRow};
pub use store::{Added, HistoryError, Store, StoredRun, admit, machine_id};

use crate::chart::trend::{TrendChart, TrendLine};
use crate::palette;
use crate::plan::{footer, slug};
use crate::report::{ChartFile, ReportError, save};
use crate::results::Machine;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What the history report shows, beyond the runs and commits.
#[derive(Clone, Debug, Default)]
pub struct HistoryOptions {
    /// Which records, how they are grouped, the step threshold.
    pub selection: Selection,
    /// A URL with `{commit}` where the full hash goes; `None`: no links.
    pub commit_url: Option<String>,
    /// The command that produced the report, shown on the pages.
    pub command: String,
    /// The branch (or revision) whose first-parent line is drawn.
    pub branch: String,
}

/// One trend chart written, with where its commit columns are.
#[derive(Clone, Debug)]
pub struct TrendFile {
    /// The chart's files, title and caption.
    pub chart: ChartFile,
    /// The commit (index into the branch's list) of each column.
    pub columns: Vec<usize>,
    /// Each column's pixel span, left to right.
    pub spans: Vec<(i32, i32)>,
    /// The columns' top and bottom pixel.
    pub rows: (i32, i32),
}

/// A written history report.
#[derive(Clone, Debug)]
pub struct HistoryReport {
    /// `index.html`.
    pub index: PathBuf,
    /// `report.md`.
    pub markdown: PathBuf,
    /// `steps.json`: every step, as [`StepRow`]s.
    pub steps_json: PathBuf,
    /// Every chart, in page order.
    pub charts: Vec<TrendFile>,
    /// Every step found.
    pub steps: Vec<StepRow>,
    /// Runs drawn.
    pub runs: usize,
    /// Runs left out: their commit is not on the branch's first-parent line.
    pub off_branch: usize,
    /// Runs left out: measured on a dirty tree.
    pub dirty: usize,
}

impl HistoryReport {
    /// What was drawn and what was left out, in one sentence.
    pub fn counts(&self) -> String {
        format!(
            "{} run(s) drawn in {} chart(s); {} run(s) on commits off the branch and {} dirty run(s) left out; {} step(s)",
            self.runs,
            self.charts.len(),
            self.off_branch,
            self.dirty,
            self.steps.len()
        )
    }
}

/// Draws `runs` over `commits` (the branch's first-parent line, oldest
/// first) into `out`.
pub fn render(
    runs: &[StoredRun],
    commits: &[Commit],
    out: &Path,
    options: &HistoryOptions,
) -> Result<HistoryReport, ReportError> {
    std::fs::create_dir_all(out).map_err(|e| ReportError::Io(out.to_owned(), e))?;
    let lineup = Lineup::new(runs, commits, &options.selection);
    let mut stems = BTreeSet::new();
    let mut charts = Vec::new();
    for trend in &lineup.trends {
        let (figure, columns) = figure(trend, commits, options.selection.by);
        let mut stem = slug(&format!(
            "{}-{}-{}-{}-{}",
            trend.workload, trend.metric, trend.fixed, trend.target_cpu, trend.machine
        ));
        while !stems.insert(stem.clone()) {
            stem.push('_');
        }
        let footer = footer(&trend_runs(runs, trend, &columns, commits));
        let size = save(&figure, &footer, out, &stem)?;
        charts.push(TrendFile {
            chart: ChartFile {
                workload: trend.workload.clone(),
                machine: Some(trend.machine.clone()),
                title: figure.title.clone(),
                caption: caption(trend),
                svg: format!("{stem}.svg"),
                png: format!("{stem}.png"),
                size,
                // The history page prints its own table of every commit.
                table: None,
                laws: Vec::new(),
            },
            columns,
            spans: figure.spans(),
            rows: figure.rows(),
        });
    }
    let steps = lineup.steps(commits);
    let report = HistoryReport {
        index: out.join("index.html"),
        markdown: out.join("report.md"),
        steps_json: out.join("steps.json"),
        charts,
        runs: runs.len() - lineup.off_branch - lineup.dirty,
        off_branch: lineup.off_branch,
        dirty: lineup.dirty,
        steps,
    };
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| ReportError::Io(path.to_owned(), e))
    };
    write(&report.index, page::html(&report, commits, options))?;
    write(&report.markdown, page::markdown(&report, options))?;
    write(
        &report.steps_json,
        step_table(&report.steps, crate::compare::Format::Json),
    )?;
    Ok(report)
}

/// The machine of each run drawn in `trend`'s `columns` (commit indices):
/// what its footer names.
fn trend_runs<'a>(
    runs: &'a [StoredRun],
    trend: &series::Trend,
    columns: &[usize],
    commits: &[Commit],
) -> Vec<&'a Machine> {
    let drawn = |run: &StoredRun| {
        columns
            .iter()
            .any(|&c| commits[c].sha.starts_with(&run.commit))
    };
    runs.iter()
        .filter(|run| run.machine == trend.machine && !run.dirty && drawn(run))
        .map(|run| &run.file.machine)
        .collect()
}

/// The chart of one trend and the commit of each of its columns: only
/// commits some line measured get a column.
fn figure(trend: &series::Trend, commits: &[Commit], by: By) -> (TrendChart, Vec<usize>) {
    let columns: Vec<usize> = trend
        .lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.commit))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let column = |commit: usize| columns.partition_point(|&c| c < commit);
    let lines = trend
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| TrendLine {
            label: l.label.clone(),
            color: palette::variant(i),
            marker: i,
            points: l
                .points
                .iter()
                .map(|p| (column(p.commit), p.value, p.band))
                .collect(),
            steps: l
                .steps
                .iter()
                .map(|s| {
                    let (old, new) = (&l.points[s.at - 1], &l.points[s.at]);
                    (column(old.commit), column(new.commit), s.ratio)
                })
                .collect(),
        })
        .collect();
    let mut subtitle = format!(
        "{}, {}",
        trend.machine,
        match by {
            By::Variant => format!("input set {}", trend.fixed),
            By::InputSet => format!("variant {}", trend.fixed),
        }
    );
    if trend.target_cpu != "default" && !trend.target_cpu.is_empty() {
        subtitle.push_str(&format!(", target-cpu {}", trend.target_cpu));
    }
    let figure = TrendChart {
        title: format!("{} {} over commits", trend.workload, trend.metric),
        subtitle,
        y_title: trend.unit.clone(),
        legend_heading: match by {
            By::Variant => "variant",
            By::InputSet => "input set",
        }
        .to_owned(),
        columns: columns.iter().map(|&c| commits[c].short.clone()).collect(),
        lines,
    };
    (figure, columns)
}

fn caption(trend: &series::Trend) -> String {
    let level = if trend.metric.judged_exactly() {
        "exact counts, the median where a commit has several runs"
    } else {
        "the median of each commit's runs, the band from the lowest to the highest bound of their 95 % intervals"
    };
    format!(
        "{} {} on {} per commit ({level}); vertical lines mark detected steps with their change.",
        trend.workload, trend.metric, trend.machine
    )
}
