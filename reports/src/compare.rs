//! Comparing two results files: the regression gate.
//!
//! Records are matched by their identity ([`crate::RecordKey`]). Instruction
//! counts are exact, so any change beyond the threshold counts; wall time
//! is noisy, so a change counts only when it is beyond the threshold AND
//! the two runs' median ± MAD bands do not overlap.

use crate::results::{Metric, Record, RecordKey, ResultsFile, Status};
use std::collections::HashMap;
use std::fmt::Write;

/// The default threshold in percent: tight for exact instruction counts,
/// looser for wall time.
pub fn default_threshold(metric: Metric) -> f64 {
    match metric {
        Metric::Time => 5.0,
        Metric::Instructions | Metric::Counter => 1.0,
    }
}

/// The outcome for one shared record.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Worse beyond the threshold (and the noise, for time).
    Regression,
    /// Better beyond the threshold (and the noise, for time).
    Improvement,
    /// Within the threshold.
    Unchanged,
    /// Beyond the threshold but inside both runs' MADs (time only).
    Noise,
    /// A measured record became an error (wrong answer): gated like a
    /// regression.
    Broke(String),
    /// One side has no measurement (skipped or error in the base).
    NotComparable(String),
}

impl Verdict {
    /// Whether this verdict fails the gate.
    pub fn fails(&self) -> bool {
        matches!(self, Verdict::Regression | Verdict::Broke(_))
    }

    fn label(&self) -> String {
        match self {
            Verdict::Regression => "REGRESSION".to_owned(),
            Verdict::Improvement => "improved".to_owned(),
            Verdict::Unchanged => String::new(),
            Verdict::Noise => "noise".to_owned(),
            Verdict::Broke(why) => format!("BROKE: {why}"),
            Verdict::NotComparable(why) => why.clone(),
        }
    }
}

/// One record present in both files.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    /// The base run's record.
    pub base: &'a Record,
    /// The new run's record.
    pub new: &'a Record,
    /// `(new − base) / base` in percent, when both are measured.
    pub change_pct: Option<f64>,
    /// The threshold applied, in percent.
    pub threshold_pct: f64,
    /// The outcome.
    pub verdict: Verdict,
}

/// The comparison of two results files for some metrics.
#[derive(Clone, Debug, Default)]
pub struct Comparison<'a> {
    /// Records in both files, in the new file's order.
    pub rows: Vec<Row<'a>>,
    /// Records of the compared metrics only in the base file.
    pub only_base: Vec<&'a Record>,
    /// Records of the compared metrics only in the new file.
    pub only_new: Vec<&'a Record>,
}

/// Compares `new` against `base` for the given metrics; `threshold_pct`
/// overrides [`default_threshold`] for all of them.
pub fn compare<'a>(
    base: &'a ResultsFile,
    new: &'a ResultsFile,
    metrics: &[Metric],
    threshold_pct: Option<f64>,
) -> Comparison<'a> {
    let wanted = |r: &&Record| metrics.contains(&r.metric);
    let base_by_key: HashMap<RecordKey<'_>, &Record> = base
        .records
        .iter()
        .filter(wanted)
        .map(|r| (r.key(), r))
        .collect();
    let new_keys: HashMap<RecordKey<'_>, &Record> = new
        .records
        .iter()
        .filter(wanted)
        .map(|r| (r.key(), r))
        .collect();
    let mut comparison = Comparison::default();
    for n in new.records.iter().filter(wanted) {
        match base_by_key.get(&n.key()) {
            Some(b) => {
                let threshold = threshold_pct.unwrap_or_else(|| default_threshold(n.metric));
                let (change_pct, verdict) = judge(b, n, threshold);
                comparison.rows.push(Row {
                    base: b,
                    new: n,
                    change_pct,
                    threshold_pct: threshold,
                    verdict,
                });
            }
            None => comparison.only_new.push(n),
        }
    }
    comparison.only_base = base
        .records
        .iter()
        .filter(wanted)
        .filter(|r| !new_keys.contains_key(&r.key()))
        .collect();
    comparison
}

/// The change in percent and the verdict for one pair of records.
fn judge(base: &Record, new: &Record, threshold: f64) -> (Option<f64>, Verdict) {
    match (base.status, new.status) {
        (Status::Ok, Status::Ok) => {}
        (Status::Ok, Status::Error) => {
            let why = new.reason.clone().unwrap_or_else(|| "error".to_owned());
            return (None, Verdict::Broke(why));
        }
        (Status::Ok, _) => return (None, Verdict::NotComparable("new: skipped".to_owned())),
        (_, Status::Ok) => {
            return (
                None,
                Verdict::NotComparable("base: not measured".to_owned()),
            );
        }
        _ => return (None, Verdict::NotComparable("not measured".to_owned())),
    }
    let diff = new.median - base.median;
    let change = if base.median == 0.0 {
        if diff == 0.0 {
            0.0
        } else {
            f64::INFINITY.copysign(diff)
        }
    } else {
        diff / base.median * 100.0
    };
    let beyond = change.abs() > threshold;
    let verdict = match new.metric {
        Metric::Time if beyond && diff.abs() <= base.mad + new.mad => Verdict::Noise,
        _ if !beyond => Verdict::Unchanged,
        _ if diff > 0.0 => Verdict::Regression,
        _ => Verdict::Improvement,
    };
    (Some(change), verdict)
}

impl Comparison<'_> {
    /// Rows that fail the gate.
    pub fn failures(&self) -> usize {
        self.rows.iter().filter(|r| r.verdict.fails()).count()
    }

    /// Rows that improved.
    pub fn improvements(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict == Verdict::Improvement)
            .count()
    }

    /// The comparison as an aligned text table, then the unmatched records.
    pub fn render(&self) -> String {
        let mut lines: Vec<[String; 8]> = vec![[
            "workload".into(),
            "variant".into(),
            "input set".into(),
            "target cpu".into(),
            "unit".into(),
            "base".into(),
            "new".into(),
            "change".into(),
        ]];
        let mut verdicts = vec![String::new()];
        for row in &self.rows {
            let r = row.new;
            lines.push([
                r.workload.clone(),
                r.variant.clone(),
                r.input_set.clone(),
                r.target_cpu.clone(),
                r.unit.clone(),
                value(row.base),
                value(row.new),
                row.change_pct
                    .map_or_else(|| "-".to_owned(), |c| format!("{c:+.2}%")),
            ]);
            verdicts.push(row.verdict.label());
        }
        let mut widths = [0usize; 8];
        for line in &lines {
            for (w, cell) in widths.iter_mut().zip(line) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for (line, verdict) in lines.iter().zip(&verdicts) {
            for (i, (cell, w)) in line.iter().zip(widths).enumerate() {
                if i >= 5 {
                    let _ = write!(out, "{cell:>w$}  ");
                } else {
                    let _ = write!(out, "{cell:<w$}  ");
                }
            }
            out.push_str(verdict);
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        for (label, records) in [
            ("only in base", &self.only_base),
            ("only in new", &self.only_new),
        ] {
            for r in records.iter() {
                let _ = writeln!(
                    out,
                    "{label}: {}/{}/{} [{}] {}",
                    r.workload, r.variant, r.input_set, r.target_cpu, r.unit
                );
            }
        }
        out
    }
}

/// A record's median ± MAD, or its status.
fn value(r: &Record) -> String {
    match r.status {
        Status::Ok if r.mad > 0.0 => format!("{} ±{}", short(r.median), short(r.mad)),
        Status::Ok => short(r.median),
        Status::Error => "error".to_owned(),
        Status::Skipped => "skipped".to_owned(),
    }
}

/// Three significant digits, whole numbers from 1000 up.
fn short(v: f64) -> String {
    if v.abs() >= 1000.0 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(metric: Metric, median: f64, mad: f64) -> Record {
        Record {
            workload: "w".into(),
            variant: "v".into(),
            input_set: "s".into(),
            target_cpu: "default".into(),
            metric,
            unit: "x".into(),
            median,
            mad,
            ..Record::default()
        }
    }

    fn file(records: Vec<Record>) -> ResultsFile {
        ResultsFile {
            schema: crate::SCHEMA,
            records,
            ..ResultsFile::default()
        }
    }

    #[test]
    fn instruction_changes_are_judged_by_plain_percent() {
        let base = file(vec![record(Metric::Instructions, 1000.0, 0.0)]);
        for (new, verdict) in [
            (1100.0, Verdict::Regression),
            (1005.0, Verdict::Unchanged),
            (900.0, Verdict::Improvement),
        ] {
            let new = file(vec![record(Metric::Instructions, new, 0.0)]);
            let c = compare(&base, &new, &[Metric::Instructions], None);
            assert_eq!(c.rows[0].verdict, verdict, "{new:?}");
        }
    }

    #[test]
    fn time_changes_must_also_leave_the_mads() {
        let base = file(vec![record(Metric::Time, 100.0, 4.0)]);
        // +8% but within 4 + 5 of noise: not a regression.
        let noisy = file(vec![record(Metric::Time, 108.0, 5.0)]);
        let c = compare(&base, &noisy, &[Metric::Time], None);
        assert_eq!(c.rows[0].verdict, Verdict::Noise);
        assert_eq!(c.failures(), 0);
        // +20% with the same noise: a regression.
        let slow = file(vec![record(Metric::Time, 120.0, 5.0)]);
        let c = compare(&base, &slow, &[Metric::Time], None);
        assert_eq!(c.rows[0].verdict, Verdict::Regression);
        assert_eq!(c.failures(), 1);
        // +3%: under the default 5% threshold whatever the noise.
        let close = file(vec![record(Metric::Time, 103.0, 0.0)]);
        let c = compare(&base, &close, &[Metric::Time], None);
        assert_eq!(c.rows[0].verdict, Verdict::Unchanged);
    }

    #[test]
    fn unmatched_and_unmeasured_records_are_listed_not_gated() {
        let base = file(vec![record(Metric::Instructions, 10.0, 0.0)]);
        let mut skipped = record(Metric::Instructions, 0.0, 0.0);
        skipped.status = Status::Skipped;
        let mut other = record(Metric::Instructions, 5.0, 0.0);
        other.variant = "u".into();
        let new = file(vec![skipped, other]);
        let c = compare(&base, &new, &[Metric::Instructions], None);
        assert_eq!(c.failures(), 0);
        assert!(matches!(c.rows[0].verdict, Verdict::NotComparable(_)));
        assert_eq!(c.only_new.len(), 1);
        assert!(c.render().contains("only in new: w/u/s"));
    }

    #[test]
    fn a_record_that_turned_wrong_fails_the_gate() {
        let base = file(vec![record(Metric::Time, 10.0, 0.0)]);
        let mut wrong = record(Metric::Time, 0.0, 0.0);
        wrong.status = Status::Error;
        wrong.reason = Some("wrong answer".into());
        let new = file(vec![wrong]);
        let c = compare(&base, &new, &[Metric::Time], Some(50.0));
        assert_eq!(c.failures(), 1);
        assert!(c.render().contains("BROKE: wrong answer"));
    }
}
