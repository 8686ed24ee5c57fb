//! What `ab` prints: one row per (record, metric) with its verdict, as an
//! aligned table, Markdown or JSON, and the exit the verdicts call for.

use super::plan::Planned;
use crate::attribution::Attribution;
use crate::error::Error;
use crate::revision::Side;
use reports::compare::{self, Format, Verdict};
use reports::interval::Interval;
use serde::Serialize;
use std::fmt::Write;

/// One judged (record, metric).
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Workload name.
    pub workload: String,
    /// Variant name.
    pub variant: String,
    /// Input set.
    pub input_set: String,
    /// `time`, `time (unpaired)`, `instructions` or `answers`.
    pub metric: String,
    /// Unit of `a` and `b`.
    pub unit: String,
    /// A's median.
    pub a: Option<f64>,
    /// B's median.
    pub b: Option<f64>,
    /// Paired time: the geometric mean of A's times over the pairs judged,
    /// the column printed for A. Both sides' means run over the same
    /// inputs, so the two columns agree with the change between them where
    /// each side's median lands on whichever input sits in its middle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_geomean: Option<f64>,
    /// The same for B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_geomean: Option<f64>,
    /// `B ÷ A − 1` in percent (paired time: the mean change of the pairs
    /// of processes, each the median of its pairs).
    pub change_pct: Option<f64>,
    /// Its interval in percent, at `level` (paired time) or 95 %.
    pub interval_pct: Option<Interval>,
    /// The two-sided level of the paired time's interval: the run's,
    /// `1 − α ÷ m` for its m records, and the verdict is read from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
    /// The p-value of "moved beyond the threshold", before Holm (unpaired
    /// time, judged as `compare` judges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
    /// The threshold applied, in percent.
    pub threshold_pct: f64,
    /// Undisturbed pairs judged (paired time).
    pub pairs: usize,
    /// Pairs set aside as disturbed (paired time).
    pub set_aside: usize,
    /// Of the undisturbed pairs, those not judged: too far from the rest
    /// of their window's (paired time; see `modes.rs`).
    pub outliers: usize,
    /// One build's samples fell into a slow mode: which, and how often
    /// (paired time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slow_mode: Option<String>,
    /// Pairs of processes that gave a change, the units judged (paired
    /// time; see `instances.rs`).
    pub processes: usize,
    /// The spread of the change between them (its σ), in percent: what
    /// the interval is made of (paired time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub between_pct: Option<f64>,
    /// Seconds the pairs took (paired time).
    pub seconds: f64,
    /// The paired time's columns in cycles, shown beside it and never
    /// judged (the pairs cancel the clock already).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycles: Option<Cycles>,
    /// Why the verdict may not hold: a busy or noisy machine (paired time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concern: Option<String>,
    /// The outcome.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Each pair's `B ÷ A`, in the order taken (paired time).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ratios: Vec<f64>,
    /// Commands that reproduce a broken answer with each build.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repro: Vec<String>,
    /// Where a changed count, or a time regression, changed: the
    /// functions ranked by their change, and the flame graphs.
    #[serde(rename = "where", skip_serializing_if = "Option::is_none")]
    pub attribution: Option<Attribution>,
}

impl Row {
    pub(super) fn new(p: &Planned, metric: &str, unit: &str) -> Row {
        Row {
            workload: p.workload.clone(),
            variant: p.variant.clone(),
            input_set: p.set.clone(),
            metric: metric.to_owned(),
            unit: unit.to_owned(),
            a: None,
            b: None,
            a_geomean: None,
            b_geomean: None,
            change_pct: None,
            interval_pct: None,
            level: None,
            p_value: None,
            threshold_pct: 0.0,
            pairs: 0,
            set_aside: 0,
            outliers: 0,
            slow_mode: None,
            processes: 0,
            between_pct: None,
            seconds: 0.0,
            cycles: None,
            concern: None,
            verdict: Verdict::NoChange,
            ratios: Vec::new(),
            repro: Vec::new(),
            attribution: None,
        }
    }

    /// A row of `compare`'s, base A and new B.
    pub(super) fn from_compared(r: &compare::Row<'_>, metric: &str) -> Row {
        Row {
            workload: r.new.workload.clone(),
            variant: r.new.variant.clone(),
            input_set: r.new.input_set.clone(),
            metric: metric.to_owned(),
            unit: r.new.unit.clone(),
            // A record without a measurement (wrong, crashed, hung,
            // skipped) has no value to show, not 0.
            a: (r.base.status == reports::Status::Ok).then_some(r.base.median),
            b: (r.new.status == reports::Status::Ok).then_some(r.new.median),
            a_geomean: None,
            b_geomean: None,
            change_pct: r.change_pct,
            interval_pct: r.interval_pct,
            level: None,
            p_value: r.p_value,
            threshold_pct: r.threshold_pct,
            pairs: 0,
            set_aside: 0,
            outliers: 0,
            slow_mode: None,
            processes: 0,
            between_pct: None,
            seconds: 0.0,
            cycles: None,
            concern: None,
            verdict: r.verdict.clone(),
            ratios: Vec::new(),
            repro: Vec::new(),
            attribution: None,
        }
    }

    /// The row's name in the sections under the table.
    fn title(&self) -> String {
        format!(
            "{} {} {} {}: {}",
            self.workload,
            self.variant,
            self.input_set,
            self.metric,
            self.verdict.label()
        )
    }

    fn cells(&self) -> [String; 8] {
        let value = |v: Option<f64>| v.map_or("-".to_owned(), short);
        [
            self.workload.clone(),
            self.variant.clone(),
            self.input_set.clone(),
            if self.unit.is_empty() {
                self.metric.clone()
            } else {
                format!("{} ({})", self.metric, self.unit)
            },
            value(self.a_geomean.or(self.a)),
            value(self.b_geomean.or(self.b)),
            match (self.change_pct, self.interval_pct) {
                (Some(c), Some(i)) => format!("{c:+.2}% ({:+.2}…{:+.2})", i.low, i.high),
                (Some(c), None) => format!("{c:+.2}%"),
                (None, _) => "-".to_owned(),
            },
            self.verdict.label(),
        ]
    }
}

/// The table's header; `family`: the records whose paired times share
/// the run's level (0: none paired).
fn header(family: usize) -> [String; 8] {
    let change = if family == 0 {
        "B/A change (95% interval)".to_owned()
    } else {
        format!(
            "B/A change ({}% interval, adjusted for {family} records)",
            percent(super::stats::level(family))
        )
    };
    [
        "workload",
        "variant",
        "input set",
        "metric",
        "A",
        "B",
        &change,
        "verdict",
    ]
    .map(str::to_owned)
}

/// A level as a percentage with as many decimals as tell it from 100:
/// `99`, `99.929`.
fn percent(level: f64) -> String {
    let miss = (1.0 - level) * 100.0;
    let decimals = (-miss.log10()).ceil().max(0.0) as usize + 1;
    let text = format!("{:.decimals$}", level * 100.0);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A paired time's columns read in cycles: each side's geometric mean
/// times the clock its child calibrated as it loaded the batch.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cycles {
    /// A's cycles per element.
    pub a: f64,
    /// B's.
    pub b: f64,
    /// A's clock, GHz.
    pub a_ghz: f64,
    /// B's.
    pub b_ghz: f64,
}

impl Cycles {
    /// The cycles of the columns `(a, b)` (ns per element) at the clocks
    /// `ghz`, where both are known.
    pub fn of(columns: Option<(f64, f64)>, ghz: [Option<f64>; 2]) -> Option<Cycles> {
        let ((a, b), [Some(a_ghz), Some(b_ghz)]) = (columns?, ghz) else {
            return None;
        };
        Some(Cycles {
            a: a * a_ghz,
            b: b * b_ghz,
            a_ghz,
            b_ghz,
        })
    }

    /// The line under the table: `cycles per board: A 812 · B 815 (clock
    /// 3.48 · 3.49 GHz as each build loaded the batch; not judged)`.
    fn line(&self, r: &Row) -> String {
        let per = r.unit.strip_prefix("ns/").unwrap_or(&r.unit);
        format!(
            "{} {} {}: cycles per {per} A {} · B {} (clock {:.2} · {:.2} GHz as each build loaded the batch; not judged)",
            r.workload,
            r.variant,
            r.input_set,
            short(self.a),
            short(self.b),
            self.a_ghz,
            self.b_ghz
        )
    }
}

/// Where the builds ran.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "pinned", content = "cores", rename_all = "snake_case")]
pub enum Pinning {
    /// On the core `--core` named.
    Named(usize),
    /// Each record on the core least busy when it started: these.
    LeastBusy(Vec<usize>),
    /// Not pinned (nothing timed, or cores cannot be pinned here).
    None,
}

/// Each record's "where it changed" block once, titled: the rows of one
/// record whose blocks read the same (time and instructions ranked by the
/// same counts) share it, their metrics and verdicts named together.
fn wheres(rows: &[Row]) -> Vec<(String, &Attribution)> {
    let mut blocks: Vec<(&Row, String, &Attribution)> = Vec::new();
    for r in rows {
        let Some(attribution) = &r.attribution else {
            continue;
        };
        let same = blocks.iter_mut().find(|(first, _, seen)| {
            (&first.workload, &first.variant, &first.input_set)
                == (&r.workload, &r.variant, &r.input_set)
                && seen.text() == attribution.text()
        });
        match same {
            Some((_, title, _)) => {
                let _ = write!(title, ", {}: {}", r.metric, r.verdict.label());
            }
            None => blocks.push((r, r.title(), attribution)),
        }
    }
    blocks.into_iter().map(|(_, t, a)| (t, a)).collect()
}

/// The whole comparison.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Build A.
    pub a: Side,
    /// Build B.
    pub b: Side,
    /// The cores the builds were pinned to.
    pub pinning: Pinning,
    /// The one warning line, when a time verdict may not hold: printed on
    /// stderr, and in the Markdown and JSON documents.
    pub warning: Option<String>,
    /// Every judged (record, metric).
    pub rows: Vec<Row>,
    /// The records timed in pairs, the family the level of their
    /// intervals holds for; 0 when none was.
    pub family: usize,
    /// What was not judged, or how, in a sentence each.
    pub notes: Vec<String>,
}

impl Outcome {
    /// Counts of rows: regressed, broke, improved, no change,
    /// inconclusive, not comparable.
    fn counts(&self) -> [usize; 6] {
        let mut counts = [0; 6];
        for r in &self.rows {
            counts[match r.verdict {
                Verdict::Regressed => 0,
                Verdict::Broke(_) => 1,
                Verdict::Improved | Verdict::Fixed(_) => 2,
                Verdict::NoChange => 3,
                Verdict::Inconclusive(_) => 4,
                Verdict::NotComparable(_) => 5,
            }] += 1;
        }
        counts
    }

    fn summary(&self) -> String {
        let [regressed, broke, improved, same, unsettled, other] = self.counts();
        let time = if self.family == 0 {
            format!("time: Holm-corrected at {:.0}%", compare::ALPHA * 100.0)
        } else {
            format!(
                "time: Student's t over pairs of processes, each interval at {}% so that a run \
                 of {} records raises a false alarm at most {}% of the time; moved only when \
                 the interval lies beyond the threshold, no change only when within it",
                percent(super::stats::level(self.family)),
                self.family,
                super::stats::ALPHA_RUN * 100.0
            )
        };
        format!(
            "{regressed} regressed, {broke} broke, {improved} improved, {same} no change, \
             {unsettled} inconclusive, {other} not comparable ({time}; counts: exact; \
             answers: canonical text)"
        )
    }

    fn builds(&self) -> String {
        let pinned = match &self.pinning {
            Pinning::Named(c) => format!("pinned to core {c} (--core)"),
            Pinning::LeastBusy(cores) => format!(
                "pinned at each record to the least busy core (used: {})",
                crate::cores::list(cores)
            ),
            Pinning::None => "not pinned".to_owned(),
        };
        format!(
            "A: {}\nB: {}\nchildren {pinned}, samples alternated A B B A",
            self.a.name, self.b.name
        )
    }

    /// The outcome in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Json => self.json(),
        }
    }

    fn text(&self) -> String {
        let mut lines: Vec<[String; 8]> = vec![header(self.family)];
        lines.extend(self.rows.iter().map(Row::cells));
        let mut widths = [0usize; 8];
        for line in &lines {
            for (w, cell) in widths.iter_mut().zip(line) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = format!("{}\n\n", self.builds());
        for line in &lines {
            for (i, (cell, w)) in line.iter().zip(widths).enumerate() {
                if (4..7).contains(&i) {
                    let _ = write!(out, "{cell:>w$}  ");
                } else {
                    let _ = write!(out, "{cell:<w$}  ");
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        for r in &self.rows {
            for command in &r.repro {
                let _ = writeln!(out, "  reproduce: {command}");
            }
            if let Some(mode) = &r.slow_mode {
                let _ = writeln!(out, "  {}: {mode}", r.title());
            }
            if let Some(c) = &r.cycles {
                let _ = writeln!(out, "  {}", c.line(r));
            }
        }
        for note in &self.notes {
            let _ = writeln!(out, "{note}");
        }
        let _ = writeln!(out, "\n{}", self.summary());
        for (title, attribution) in wheres(&self.rows) {
            let _ = write!(out, "\nwhere {title}\n{}", attribution.text());
        }
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!(
            "{}\n\n| {} |\n|{}\n",
            self.builds().replace('\n', "  \n"),
            header(self.family).join(" | "),
            "---|".repeat(8)
        );
        for row in &self.rows {
            let mut cells = row.cells();
            if row.verdict.fails() {
                cells[7] = format!("**{}**", cells[7]);
            }
            let _ = writeln!(out, "| {} |", cells.join(" | ").replace('\n', " "));
        }
        let _ = writeln!(out);
        for r in &self.rows {
            for command in &r.repro {
                let _ = writeln!(out, "- reproduce: `{command}`");
            }
            if let Some(mode) = &r.slow_mode {
                let _ = writeln!(out, "- {}: {mode}", r.title());
            }
            if let Some(c) = &r.cycles {
                let _ = writeln!(out, "- {}", c.line(r));
            }
        }
        for note in &self.notes {
            let _ = writeln!(out, "- {note}");
        }
        let _ = write!(out, "\n{}\n", self.summary());
        if let Some(warning) = &self.warning {
            let _ = write!(out, "\n> **{warning}**\n");
        }
        // Where each changed record changed, after the verdicts.
        for (title, attribution) in wheres(&self.rows) {
            let _ = write!(out, "\n#### Where {title}\n\n{}", attribution.markdown());
        }
        out
    }

    fn json(&self) -> String {
        #[derive(Serialize)]
        struct Build<'a> {
            name: &'a str,
            exe: String,
        }
        #[derive(Serialize)]
        struct Document<'a> {
            a: Build<'a>,
            b: Build<'a>,
            pinning: &'a Pinning,
            #[serde(skip_serializing_if = "Option::is_none")]
            warning: &'a Option<String>,
            rows: &'a [Row],
            notes: &'a [String],
            regressed: usize,
            broke: usize,
            improved: usize,
            no_change: usize,
            inconclusive: usize,
            not_comparable: usize,
            #[serde(skip_serializing_if = "Option::is_none")]
            level: Option<f64>,
        }
        fn build(s: &Side) -> Build<'_> {
            Build {
                name: &s.name,
                exe: s.exe.display().to_string(),
            }
        }
        let [
            regressed,
            broke,
            improved,
            no_change,
            inconclusive,
            not_comparable,
        ] = self.counts();
        let doc = Document {
            a: build(&self.a),
            b: build(&self.b),
            pinning: &self.pinning,
            warning: &self.warning,
            rows: &self.rows,
            notes: &self.notes,
            regressed,
            broke,
            improved,
            no_change,
            inconclusive,
            not_comparable,
            level: (self.family > 0).then(|| super::stats::level(self.family)),
        };
        serde_json::to_string_pretty(&doc).expect("the outcome serialises") + "\n"
    }

    /// `Err(Failed)` when a row regressed or broke; `Err(Usage)` when no
    /// row could be judged (a gate that cannot judge does not pass). An
    /// inconclusive row was judged: it passes, listed in the summary.
    pub fn exit(&self) -> Result<(), Error> {
        let [regressed, broke, improved, same, unsettled, _] = self.counts();
        if regressed + broke > 0 {
            return Err(Error::failed(format!(
                "{regressed} record(s) regressed, {broke} broke"
            )));
        }
        if improved + same + unsettled == 0 {
            return Err(Error::usage(
                "ab: no record could be judged (see the reasons above)",
            ));
        }
        Ok(())
    }
}

/// Three significant digits, whole numbers from 1000 up.
fn short(v: f64) -> String {
    if v.abs() >= 1000.0 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reports::Metric;

    fn row(metric: &str, verdict: Verdict, note: &str) -> Row {
        let planned = Planned {
            workload: "w".into(),
            variant: "v".into(),
            set: "s".into(),
            unit: "board".into(),
            plural: None,
        };
        Row {
            verdict,
            attribution: Some(Attribution::note(Metric::Instructions, note)),
            ..Row::new(&planned, metric, "")
        }
    }

    /// The header names the level the verdicts were read from, with the
    /// digits that tell it from 100 %.
    #[test]
    fn the_header_says_the_level_and_the_family_it_is_adjusted_for() {
        assert_eq!(percent(super::super::stats::level(1)), "99");
        assert_eq!(percent(super::super::stats::level(14)), "99.929");
        assert_eq!(percent(super::super::stats::level(200)), "99.995");
        assert_eq!(
            header(14)[6],
            "B/A change (99.929% interval, adjusted for 14 records)"
        );
        assert_eq!(header(0)[6], "B/A change (95% interval)");
    }

    /// A paired time reads in cycles only where both children calibrated,
    /// each at its own clock, and says it is not judged.
    #[test]
    fn cycles_beside_a_paired_time_need_both_clocks() {
        assert_eq!(Cycles::of(Some((2.0, 3.0)), [Some(3.5), None]), None);
        assert_eq!(Cycles::of(None, [Some(3.5), Some(3.0)]), None);
        let c = Cycles::of(Some((200.0, 300.0)), [Some(3.5), Some(3.0)]).expect("both clocks");
        assert_eq!((c.a, c.b), (700.0, 900.0));
        let mut r = row("time", Verdict::NoChange, "");
        r.unit = "ns/board".into();
        assert_eq!(
            c.line(&r),
            "w v s: cycles per board A 700.0 · B 900.0 (clock 3.50 · 3.00 GHz as each build loaded the batch; not judged)"
        );
    }

    /// A record whose time and instructions both moved prints where once.
    #[test]
    fn one_where_block_for_a_record_whose_metrics_share_it() {
        let rows = [
            row("time", Verdict::Regressed, "f grew"),
            row("instructions", Verdict::Regressed, "f grew"),
            row("d1_misses", Verdict::Improved, "other"),
        ];
        let titles: Vec<String> = wheres(&rows).into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            titles,
            [
                "w v s time: REGRESSED, instructions: REGRESSED",
                "w v s d1_misses: improved"
            ]
        );
    }
}
