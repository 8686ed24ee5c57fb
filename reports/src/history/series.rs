//! Stored runs lined up as series over the commits of one branch.
//!
//! A series is one record identity on one machine, one level per commit
//! in first-parent order; machines are never mixed, so a series moves
//! only with the code (or with its own machine's weather). Runs on
//! commits off the branch, or measured on a dirty tree, are left out and
//! counted, so the page can say what it did not draw.

use super::steps::{self, Levels, Shift};
use super::store::StoredRun;
use crate::results::{Metric, Record, Status};
use serde::Serialize;
use std::collections::BTreeMap;

/// A commit of the branch, as git names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Commit {
    /// The full hash.
    pub sha: String,
    /// The abbreviated hash, for axis labels.
    pub short: String,
    /// The first line of its message.
    pub subject: String,
    /// Its committer date (ISO 8601).
    pub date: String,
}

/// What one chart's lines stand for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum By {
    /// One line per variant, one chart per input set.
    #[default]
    Variant,
    /// One line per input set, one chart per variant.
    InputSet,
}

/// Which records to line up, and the step threshold.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// What a chart's lines stand for.
    pub by: By,
    /// Workloads to keep; empty: all.
    pub workloads: Vec<String>,
    /// Metrics to keep; empty: all.
    pub metrics: Vec<Metric>,
    /// Percent change a step must exceed; `None`: see
    /// [`steps::default_threshold`].
    pub threshold_pct: Option<f64>,
}

/// One commit's level of a series.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Index of the commit in the branch's list.
    pub commit: usize,
    /// The median of the runs' medians at this commit.
    pub value: f64,
    /// The lowest and highest bound of those runs' 95 % intervals (`None`
    /// for exact metrics and runs without an interval).
    pub band: Option<(f64, f64)>,
    /// How many runs measured it.
    pub runs: usize,
}

/// One line of a chart: one record identity over the commits.
#[derive(Clone, Debug)]
pub struct Line {
    /// Its legend text: the variant or the input set.
    pub label: String,
    /// The record's variant.
    pub variant: String,
    /// The record's input set.
    pub input_set: String,
    /// Its levels, oldest commit first.
    pub points: Vec<Point>,
    /// Its steps; `at` indexes `points`.
    pub steps: Vec<Shift>,
}

/// One chart's worth of lines: one machine, workload, metric and unit,
/// target-cpu level and input set (or variant, see [`By`]).
#[derive(Clone, Debug)]
pub struct Trend {
    /// The machine's name (runs are never mixed across names).
    pub machine: String,
    /// Workload name.
    pub workload: String,
    /// The metric.
    pub metric: Metric,
    /// Its unit.
    pub unit: String,
    /// The target-cpu level.
    pub target_cpu: String,
    /// The input set (by variant) or variant (by input set) shared by the lines.
    pub fixed: String,
    /// The lines, by label.
    pub lines: Vec<Line>,
}

/// A step as the report lists it and `steps.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRow {
    /// The commit the new level starts at (full hash).
    pub commit: String,
    /// Its abbreviated hash.
    pub short: String,
    /// Its subject line.
    pub subject: String,
    /// The machine.
    pub machine: String,
    /// The record's workload.
    pub workload: String,
    /// The record's variant.
    pub variant: String,
    /// The record's input set.
    pub input_set: String,
    /// The target-cpu level.
    pub target_cpu: String,
    /// The metric.
    pub metric: Metric,
    /// Its unit.
    pub unit: String,
    /// The level before the commit.
    pub before: f64,
    /// The level from the commit on.
    pub after: f64,
    /// `after ÷ before`.
    pub ratio: f64,
}

/// The series of a store on one branch.
#[derive(Clone, Debug, Default)]
pub struct Lineup {
    /// One per chart, in (machine, workload, metric, ...) order.
    pub trends: Vec<Trend>,
    /// Runs whose commit is not on the branch's first-parent line.
    pub off_branch: usize,
    /// Runs measured on a dirty tree (filed with `--allow-dirty`).
    pub dirty: usize,
}

/// A chart's identity: machine, workload, metric, unit, target-cpu and
/// the input set or variant its lines share.
type ChartKey = (String, String, Metric, String, String, String);

/// A chart's records by line label: (commit index, record).
type Lines<'a> = BTreeMap<String, Vec<(usize, &'a Record)>>;

impl Lineup {
    /// Lines up `runs` over `commits` (oldest first).
    pub fn new(runs: &[StoredRun], commits: &[Commit], selection: &Selection) -> Lineup {
        let mut lineup = Lineup::default();
        let mut grouped: BTreeMap<ChartKey, Lines<'_>> = BTreeMap::new();
        for run in runs {
            if run.dirty {
                lineup.dirty += 1;
                continue;
            }
            let Some(at) = position(commits, &run.commit) else {
                lineup.off_branch += 1;
                continue;
            };
            for r in run.file.records.iter().filter(|r| selection.keeps(r)) {
                let (fixed, label) = match selection.by {
                    By::Variant => (&r.input_set, &r.variant),
                    By::InputSet => (&r.variant, &r.input_set),
                };
                let key = (
                    run.machine.clone(),
                    r.workload.clone(),
                    r.metric,
                    r.unit.clone(),
                    r.target_cpu.clone(),
                    fixed.clone(),
                );
                grouped
                    .entry(key)
                    .or_default()
                    .entry(label.clone())
                    .or_default()
                    .push((at, r));
            }
        }
        for ((machine, workload, metric, unit, target_cpu, fixed), lines) in grouped {
            let threshold = selection.threshold(metric);
            let lines = lines
                .into_iter()
                .map(|(label, records)| line(label, records, metric, threshold))
                .collect();
            lineup.trends.push(Trend {
                machine,
                workload,
                metric,
                unit,
                target_cpu,
                fixed,
                lines,
            });
        }
        lineup
    }

    /// Every step of every line, in chart order.
    pub fn steps(&self, commits: &[Commit]) -> Vec<StepRow> {
        self.trends
            .iter()
            .flat_map(|t| {
                t.lines.iter().flat_map(move |l| {
                    l.steps
                        .iter()
                        .map(move |s| t.row(l, &commits[l.points[s.at].commit], s))
                })
            })
            .collect()
    }
}

impl Lineup {
    /// The lines measured at the newest commit whose newest level starts a
    /// step (see [`steps::newest`]); `None` when no line has a level there.
    pub fn newest(&self, commits: &[Commit], selection: &Selection) -> Option<Vec<StepRow>> {
        let newest = commits.len().checked_sub(1)?;
        let mut measured = false;
        let mut rows = Vec::new();
        for t in &self.trends {
            let threshold = selection.threshold(t.metric);
            for l in &t.lines {
                if l.points.last().is_none_or(|p| p.commit != newest) {
                    continue;
                }
                measured = true;
                let exact = t.metric.judged_exactly();
                if let Some(s) = detect(&l.points, exact, |lv| steps::newest(lv, threshold)) {
                    rows.push(t.row(l, &commits[newest], &s));
                }
            }
        }
        measured.then_some(rows)
    }
}

impl Trend {
    /// The step `shift` of `line` at `commit` as a listed row.
    pub fn row(&self, line: &Line, commit: &Commit, shift: &Shift) -> StepRow {
        StepRow {
            commit: commit.sha.clone(),
            short: commit.short.clone(),
            subject: commit.subject.clone(),
            machine: self.machine.clone(),
            workload: self.workload.clone(),
            variant: line.variant.clone(),
            input_set: line.input_set.clone(),
            target_cpu: self.target_cpu.clone(),
            metric: self.metric,
            unit: self.unit.clone(),
            before: shift.before,
            after: shift.after,
            ratio: shift.ratio,
        }
    }
}

/// Runs `detect` on the levels of `points` and their interval half-widths.
fn detect<T>(points: &[Point], exact: bool, detect: impl FnOnce(Levels<'_>) -> T) -> T {
    let values: Vec<f64> = points.iter().map(|p| p.value).collect();
    let half_widths: Vec<f64> = points
        .iter()
        .filter_map(|p| p.band.map(|(lo, hi)| (hi - lo) / 2.0))
        .collect();
    detect(Levels {
        values: &values,
        half_widths: &half_widths,
        exact,
    })
}

impl Selection {
    /// The step threshold of `metric`, as a fraction.
    pub fn threshold(&self, metric: Metric) -> f64 {
        self.threshold_pct
            .unwrap_or_else(|| steps::default_threshold(metric))
            / 100.0
    }

    fn keeps(&self, r: &Record) -> bool {
        r.status == Status::Ok
            && r.median.is_finite()
            && (self.workloads.is_empty() || self.workloads.contains(&r.workload))
            && (self.metrics.is_empty() || self.metrics.contains(&r.metric))
    }
}

/// The index of `commit` (a full or abbreviated hash) in `commits`.
fn position(commits: &[Commit], commit: &str) -> Option<usize> {
    commits.iter().position(|c| c.sha.starts_with(commit))
}

/// One line from its records (commit index, record), any order.
fn line(label: String, mut records: Vec<(usize, &Record)>, metric: Metric, threshold: f64) -> Line {
    records.sort_by_key(|(at, _)| *at);
    let first = records[0].1;
    let mut points = Vec::new();
    for group in records.chunk_by(|a, b| a.0 == b.0) {
        let mut medians: Vec<f64> = group.iter().map(|(_, r)| r.median).collect();
        let bounds: Vec<(f64, f64)> = group
            .iter()
            .filter(|_| !metric.judged_exactly())
            .filter_map(|(_, r)| r.interval.map(|i| (i.low, i.high)))
            .collect();
        let band = (!bounds.is_empty()).then(|| {
            bounds
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), b| {
                    (lo.min(b.0), hi.max(b.1))
                })
        });
        points.push(Point {
            commit: group[0].0,
            value: crate::interval::median(&mut medians),
            band,
            runs: group.len(),
        });
    }
    let mut line = Line {
        label,
        variant: first.variant.clone(),
        input_set: first.input_set.clone(),
        points,
        steps: Vec::new(),
    };
    line.steps = detect(&line.points, metric.judged_exactly(), |l| {
        steps::steps(l, threshold)
    });
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::Interval;
    use crate::results::{Machine, ResultsFile};

    fn commits(n: usize) -> Vec<Commit> {
        (0..n)
            .map(|i| Commit {
                sha: format!("{i:040x}"),
                short: format!("{i:07x}"),
                subject: format!("change {i}"),
                date: String::new(),
            })
            .collect()
    }

    /// A run at commit `at` on `machine` with one time record per
    /// (variant, set, median).
    fn run(at: usize, machine: &str, records: &[(&str, &str, f64)]) -> StoredRun {
        let mut file = ResultsFile {
            machine: Machine {
                name: machine.into(),
                ..Machine::default()
            },
            ..ResultsFile::default()
        };
        for &(variant, set, median) in records {
            file.records.push(Record {
                workload: "w".into(),
                variant: variant.into(),
                input_set: set.into(),
                unit: "ns/x".into(),
                median,
                interval: Some(Interval {
                    low: median - 1.0,
                    high: median + 1.0,
                }),
                ..Record::default()
            });
        }
        StoredRun {
            path: format!("{at}.json").into(),
            commit: format!("{at:040x}"),
            machine: machine.into(),
            dirty: false,
            file,
        }
    }

    #[test]
    fn machines_are_never_mixed_and_left_out_runs_are_counted() {
        let mut runs = vec![
            run(0, "a", &[("v", "s", 10.0)]),
            run(1, "b", &[("v", "s", 20.0)]),
            run(7, "a", &[("v", "s", 10.0)]),
        ];
        let mut dirty = run(1, "a", &[("v", "s", 10.0)]);
        dirty.dirty = true;
        runs.push(dirty);
        let lineup = Lineup::new(&runs, &commits(3), &Selection::default());
        assert_eq!((lineup.off_branch, lineup.dirty), (1, 1));
        let machines: Vec<&str> = lineup.trends.iter().map(|t| t.machine.as_str()).collect();
        assert_eq!(machines, ["a", "b"]);
        assert!(lineup.trends.iter().all(|t| t.lines[0].points.len() == 1));
    }

    #[test]
    fn runs_at_one_commit_combine_to_the_median_and_the_widest_band() {
        let runs = [
            run(0, "a", &[("v", "s", 10.0)]),
            run(0, "a", &[("v", "s", 14.0)]),
            run(0, "a", &[("v", "s", 11.0)]),
        ];
        let lineup = Lineup::new(&runs, &commits(1), &Selection::default());
        let point = &lineup.trends[0].lines[0].points[0];
        assert_eq!(
            (point.value, point.band, point.runs),
            (11.0, Some((9.0, 15.0)), 3)
        );
    }

    #[test]
    fn lines_are_variants_or_input_sets() {
        let runs = [run(
            0,
            "a",
            &[("v1", "s1", 1.0), ("v2", "s1", 2.0), ("v1", "s2", 3.0)],
        )];
        let by_variant = Lineup::new(&runs, &commits(1), &Selection::default());
        let shape = |l: &Lineup| -> Vec<(String, Vec<String>)> {
            l.trends
                .iter()
                .map(|t| {
                    (
                        t.fixed.clone(),
                        t.lines.iter().map(|l| l.label.clone()).collect(),
                    )
                })
                .collect()
        };
        assert_eq!(
            shape(&by_variant),
            [
                ("s1".into(), vec!["v1".into(), "v2".into()]),
                ("s2".into(), vec!["v1".into()])
            ]
        );
        let selection = Selection {
            by: By::InputSet,
            ..Selection::default()
        };
        let by_set = Lineup::new(&runs, &commits(1), &selection);
        assert_eq!(
            shape(&by_set),
            [
                ("v1".into(), vec!["s1".into(), "s2".into()]),
                ("v2".into(), vec!["s1".into()])
            ]
        );
    }

    #[test]
    fn the_newest_commit_needs_a_run() {
        let runs: Vec<StoredRun> = (0..4)
            .map(|i| run(i, "a", &[("v", "s", if i == 3 { 20.0 } else { 10.0 })]))
            .collect();
        let selection = Selection::default();
        assert_eq!(
            Lineup::new(&runs[..3], &commits(4), &selection).newest(&commits(4), &selection),
            None
        );
        let rows = Lineup::new(&runs, &commits(4), &selection)
            .newest(&commits(4), &selection)
            .unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].short.as_str(), rows[0].ratio), ("0000003", 2.0));
    }
}
