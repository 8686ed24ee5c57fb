//! Comparing two results files: the regression gate.
//!
//! Records are matched by their identity ([`crate::RecordKey`]), and each
//! shared record gets one verdict. Instruction counts are exact, so a
//! change beyond the threshold counts. Wall time is noisy, above all
//! between runs, so a time record is judged on the bootstrap distribution
//! of `new ÷ base` over both records' measuring rounds: it changed only
//! when that ratio is beyond the threshold with a p-value that survives
//! Holm's correction for the number of records compared (criterion's rule,
//! "the whole interval beyond the threshold", made safe for many records).
//! Records without enough samples for a distribution are not comparable,
//! and say why; they never pass or fail by accident.

use crate::interval::{self, Interval};
use crate::numbers::{byte_rate, is_bytes, sig3};
use crate::results::{Machine, Metric, Record, RecordKey, ResultsFile, Status};
use crate::scale::parse_time_unit;
pub use crate::verdict::Verdict;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write;

/// The family-wise error rate of the time verdicts.
pub const ALPHA: f64 = 0.05;

/// The metrics a gate judges and its checked threshold, as `compare` and
/// `ab` take them from their command lines: no metric named means time and
/// instructions; a threshold must be a finite percentage of 0 or more.
pub fn gate(threshold_pct: Option<f64>, metrics: &[Metric]) -> Result<Vec<Metric>, String> {
    if let Some(t) = threshold_pct.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        return Err(format!(
            "--threshold {t}: expected a percentage of 0 or more"
        ));
    }
    Ok(if metrics.is_empty() {
        vec![Metric::Time, Metric::Instructions]
    } else {
        metrics.to_vec()
    })
}

/// The default threshold in percent: tight for exact instruction counts,
/// looser for wall time ([`thresholds::gate`](crate::thresholds::gate)).
pub fn default_threshold(metric: Metric) -> f64 {
    crate::thresholds::gate(metric)
}

/// One record present in both files.
#[derive(Clone, Debug, Serialize)]
pub struct Row<'a> {
    /// The base run's record.
    #[serde(skip)]
    pub base: &'a Record,
    /// The new run's record.
    #[serde(skip)]
    pub new: &'a Record,
    /// `(new − base) / base` in percent, when both are measured.
    pub change_pct: Option<f64>,
    /// The 95 % interval of the change in percent (time records with
    /// enough samples).
    pub interval_pct: Option<Interval>,
    /// The p-value of "moved beyond the threshold", before correction.
    pub p_value: Option<f64>,
    /// The threshold applied, in percent.
    pub threshold_pct: f64,
    /// The outcome.
    #[serde(flatten)]
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

/// The fields in which two files' machines or builds differ, each as
/// `field ('base' vs 'new')`: comparing their times would compare the
/// machines, not the code.
pub fn mismatches(base: &ResultsFile, new: &ResultsFile) -> Vec<String> {
    let (b, n) = (&base.machine, &new.machine);
    // A file from before machine names (schema 5) is named by its CPU
    // model alone; it matches a named machine of that model, so a kept
    // baseline still gates.
    let cpu_named = |m: &Machine| m.name == Machine::name_from(&m.cpu_model);
    let same_machine = b.name == n.name || (cpu_named(b) || cpu_named(n));
    let machine = if same_machine {
        None
    } else {
        Some(format!("machine ('{}' vs '{}')", b.name, n.name))
    };
    let fields = [
        ("cpu_model", &base.machine.cpu_model, &new.machine.cpu_model),
        ("rustc", &base.machine.rustc, &new.machine.rustc),
        ("profile", &base.build.profile, &new.build.profile),
        ("target_cpu", &base.build.target_cpu, &new.build.target_cpu),
    ];
    machine
        .into_iter()
        .chain(
            fields
                .iter()
                .filter(|(_, b, n)| b != n)
                .map(|(field, b, n)| format!("{field} ('{b}' vs '{n}')")),
        )
        .collect()
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
    let by_key = |file: &'a ResultsFile| -> HashMap<RecordKey<'a>, &'a Record> {
        file.records
            .iter()
            .filter(wanted)
            .map(|r| (r.key(), r))
            .collect()
    };
    let (base_by_key, new_by_key) = (by_key(base), by_key(new));
    let mut comparison = Comparison::default();
    for n in new.records.iter().filter(wanted) {
        match base_by_key.get(&n.key()) {
            Some(b) => {
                let threshold = threshold_pct.unwrap_or_else(|| default_threshold(n.metric));
                comparison.rows.push(judge(b, n, threshold));
            }
            None => comparison.only_new.push(n),
        }
    }
    comparison.only_base = base
        .records
        .iter()
        .filter(wanted)
        .filter(|r| !new_by_key.contains_key(&r.key()))
        .collect();
    holm(&mut comparison.rows);
    comparison
}

/// One pair of records, judged alone: exact metrics get their verdict;
/// time gets its p-value, and [`compare`]'s Holm correction decides its
/// verdict (until then it reads "no change").
pub fn judge<'a>(base: &'a Record, new: &'a Record, threshold: f64) -> Row<'a> {
    let mut row = Row {
        base,
        new,
        change_pct: None,
        interval_pct: None,
        p_value: None,
        threshold_pct: threshold,
        verdict: Verdict::NoChange,
    };
    match (base.status, new.status) {
        (Status::Ok, Status::Ok) => {}
        (Status::Ok, Status::Error) => {
            let why = new.reason.clone().unwrap_or_else(|| "error".to_owned());
            row.verdict = Verdict::Broke(why);
            return row;
        }
        // A variant that now dies or never returns broke, as surely as
        // one that now answers wrongly; the verdict names which.
        (Status::Ok, Status::Crashed | Status::Hung) => {
            row.verdict = Verdict::Broke(new.status_reason());
            return row;
        }
        (Status::Ok, Status::Skipped) => {
            row.verdict = Verdict::NotComparable("new: skipped".to_owned());
            return row;
        }
        // A fault fixed is good news, but there is no base time to judge
        // the new one by.
        (status @ (Status::Crashed | Status::Hung), _) => {
            row.verdict = Verdict::NotComparable(format!("base: not measured ({status})"));
            return row;
        }
        _ => {
            row.verdict = Verdict::NotComparable("base: not measured".to_owned());
            return row;
        }
    }
    let ratio = if base.median == 0.0 {
        if new.median == 0.0 {
            1.0
        } else {
            f64::INFINITY
        }
    } else {
        new.median / base.median
    };
    row.change_pct = Some((ratio - 1.0) * 100.0);
    let t = threshold / 100.0;
    if new.metric.judged_exactly() {
        row.verdict = if (ratio - 1.0).abs() <= t {
            Verdict::NoChange
        } else if ratio > 1.0 {
            Verdict::Regressed
        } else {
            Verdict::Improved
        };
        return row;
    }
    let seed = interval::seed_of(&[&new.workload, &new.variant, &new.input_set, &new.target_cpu]);
    let Some(mut ratios) = interval::ratio_replicates(&new.rounds, &base.rounds, seed) else {
        row.verdict = Verdict::NotComparable(format!(
            "too few samples for an interval (base {}, new {}; need {} rounds and {} samples)",
            samples(base),
            samples(new),
            interval::MIN_ROUNDS,
            interval::MIN_SAMPLES
        ));
        return row;
    };
    let b = ratios.len() as f64;
    let p_slower = (ratios.iter().filter(|&&r| r <= 1.0 + t).count() as f64 + 1.0) / (b + 1.0);
    let p_faster = (ratios.iter().filter(|&&r| r >= 1.0 - t).count() as f64 + 1.0) / (b + 1.0);
    row.p_value = Some((2.0 * p_slower.min(p_faster)).min(1.0));
    let i = interval::quantiles(&mut ratios);
    row.interval_pct = Some(Interval {
        low: (i.low - 1.0) * 100.0,
        high: (i.high - 1.0) * 100.0,
    });
    row
}

/// `R rounds, S samples` of a record.
fn samples(r: &Record) -> String {
    format!(
        "{} rounds, {} samples",
        r.rounds.len(),
        r.rounds.iter().map(Vec::len).sum::<usize>()
    )
}

/// Holm's correction applied to the time rows with a p-value: those whose
/// p survives moved beyond the threshold, in the direction of their change.
fn holm(rows: &mut [Row<'_>]) {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].p_value.is_some())
        .collect();
    let p: Vec<f64> = tested.iter().filter_map(|&i| rows[i].p_value).collect();
    for (&i, moved) in tested.iter().zip(holm_rejects(&p, ALPHA)) {
        if moved {
            rows[i].verdict = if rows[i].change_pct.unwrap_or(0.0) > 0.0 {
                Verdict::Regressed
            } else {
                Verdict::Improved
            };
        }
    }
}

/// Holm's step-down procedure: which of the hypotheses with p-values `p`
/// are rejected at family-wise error rate `alpha`. The smallest p is
/// tested at α/m, the next at α/(m−1), ... until one fails; those before it
/// are rejected.
pub fn holm_rejects(p: &[f64], alpha: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let m = p.len();
    let mut rejected = vec![false; m];
    for (k, &i) in order.iter().enumerate() {
        if p[i] > alpha / (m - k) as f64 {
            break;
        }
        rejected[i] = true;
    }
    rejected
}

/// The output formats of [`Comparison::render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An aligned table for a terminal.
    Text,
    /// A Markdown table (a CI step summary, a pull-request comment).
    Markdown,
    /// One JSON document for scripts.
    Json,
}

impl Comparison<'_> {
    /// Rows that fail the gate.
    pub fn failures(&self) -> usize {
        self.rows.iter().filter(|r| r.verdict.fails()).count()
    }

    /// How many rows got each verdict: regressed (incl. broke), improved,
    /// no change, not comparable.
    pub fn counts(&self) -> [usize; 4] {
        let mut counts = [0; 4];
        for r in &self.rows {
            counts[match r.verdict {
                Verdict::Regressed | Verdict::Broke(_) => 0,
                Verdict::Improved | Verdict::Fixed(_) => 1,
                Verdict::NoChange => 2,
                Verdict::Inconclusive(_) | Verdict::NotComparable(_) => 3,
            }] += 1;
        }
        counts
    }

    /// The one-line summary under the table.
    pub fn summary(&self) -> String {
        let [regressed, improved, same, other] = self.counts();
        format!(
            "{} record(s) compared: {regressed} regressed, {improved} improved, {same} no change, \
             {other} not comparable (time: bootstrap over rounds, Holm-corrected at {:.0}%; \
             counts: exact)",
            self.rows.len(),
            ALPHA * 100.0
        )
    }

    /// The records only one file has, labelled by which.
    fn unmatched(&self) -> impl Iterator<Item = (&'static str, &Record)> + '_ {
        let base = self.only_base.iter().map(|r| ("only in base", *r));
        base.chain(self.only_new.iter().map(|r| ("only in new", *r)))
    }

    /// The comparison in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Json => self.json(),
        }
    }

    fn cells(row: &Row<'_>) -> [String; 9] {
        let r = row.new;
        [
            r.workload.clone(),
            r.variant.clone(),
            r.input_set.clone(),
            r.target_cpu.clone(),
            r.unit.clone(),
            value(row.base),
            value(row.new),
            match (row.change_pct, row.interval_pct) {
                (Some(c), Some(i)) => format!("{c:+.1}% ({:+.1}…{:+.1})", i.low, i.high),
                (Some(c), None) => format!("{c:+.2}%"),
                (None, _) => "-".to_owned(),
            },
            row.verdict.label(),
        ]
    }

    const HEADER: [&'static str; 9] = [
        "workload",
        "variant",
        "input set",
        "target cpu",
        "unit",
        "base",
        "new",
        "change (95% interval)",
        "verdict",
    ];

    fn text(&self) -> String {
        let mut lines: Vec<[String; 9]> = vec![Self::HEADER.map(str::to_owned)];
        lines.extend(self.rows.iter().map(Self::cells));
        let mut widths = [0usize; 9];
        for line in &lines {
            for (w, cell) in widths.iter_mut().zip(line) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for line in &lines {
            for (i, (cell, w)) in line.iter().zip(widths).enumerate() {
                if (5..8).contains(&i) {
                    let _ = write!(out, "{cell:>w$}  ");
                } else {
                    let _ = write!(out, "{cell:<w$}  ");
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        for (label, r) in self.unmatched() {
            let _ = writeln!(
                out,
                "{label}: {}/{}/{} [{}] {}",
                r.workload, r.variant, r.input_set, r.target_cpu, r.unit
            );
        }
        let _ = writeln!(out, "\n{}", self.summary());
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!(
            "| {} |\n|{}\n",
            Self::HEADER.join(" | "),
            "---|".repeat(Self::HEADER.len())
        );
        for row in &self.rows {
            let mut cells = Self::cells(row);
            if row.verdict.fails() {
                cells[8] = format!("**{}**", cells[8]);
            }
            let _ = writeln!(out, "| {} |", cells.join(" | ").replace('\n', " "));
        }
        let _ = write!(out, "\n{}\n", self.summary());
        for (label, r) in self.unmatched() {
            let _ = writeln!(
                out,
                "- {label}: `{}/{}/{}` [{}]",
                r.workload, r.variant, r.input_set, r.target_cpu
            );
        }
        out
    }

    fn json(&self) -> String {
        #[derive(Serialize)]
        struct JsonRow<'a> {
            workload: &'a str,
            variant: &'a str,
            input_set: &'a str,
            target_cpu: &'a str,
            metric: Metric,
            unit: &'a str,
            base: f64,
            new: f64,
            #[serde(flatten)]
            row: &'a Row<'a>,
        }
        #[derive(Serialize)]
        struct Document<'a> {
            rows: Vec<JsonRow<'a>>,
            regressed: usize,
            improved: usize,
            no_change: usize,
            not_comparable: usize,
            only_base: Vec<RecordKey<'a>>,
            only_new: Vec<RecordKey<'a>>,
        }
        let [regressed, improved, no_change, not_comparable] = self.counts();
        let doc = Document {
            rows: self
                .rows
                .iter()
                .map(|row| JsonRow {
                    workload: &row.new.workload,
                    variant: &row.new.variant,
                    input_set: &row.new.input_set,
                    target_cpu: &row.new.target_cpu,
                    metric: row.new.metric,
                    unit: &row.new.unit,
                    base: row.base.median,
                    new: row.new.median,
                    row,
                })
                .collect(),
            regressed,
            improved,
            no_change,
            not_comparable,
            only_base: self.only_base.iter().map(|r| r.key()).collect(),
            only_new: self.only_new.iter().map(|r| r.key()).collect(),
        };
        serde_json::to_string_pretty(&doc).expect("the comparison serialises") + "\n"
    }
}

/// A record's median, or its status; a time per byte also as a rate.
fn value(r: &Record) -> String {
    match r.status {
        Status::Ok => match parse_time_unit(&r.unit) {
            Some((factor, element)) if is_bytes(element) => {
                format!("{} ({})", short(r.median), byte_rate(r.median * factor))
            }
            _ => short(r.median),
        },
        status => status.as_str().to_owned(),
    }
}

/// Three significant digits (more decimals below 1), whole numbers from
/// 1000 up.
fn short(v: f64) -> String {
    if v.abs() >= 1000.0 {
        format!("{v:.0}")
    } else {
        sig3(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(metric: Metric, median: f64) -> Record {
        Record {
            workload: "w".into(),
            variant: "v".into(),
            input_set: "s".into(),
            target_cpu: "default".into(),
            metric,
            unit: "x".into(),
            median,
            ..Record::default()
        }
    }

    /// A time record of `rounds` rounds of `n` samples around `centre`:
    /// each round offset by up to ±`between` (the noise between runs) and
    /// each sample by up to ±1 % (within a run), from a seeded generator.
    fn timed(name: &str, centre: f64, rounds: usize, n: usize, between: f64, seed: u64) -> Record {
        let mut x = seed;
        let mut unit = move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let rounds: Vec<Vec<f64>> = (0..rounds)
            .map(|_| {
                let offset = between * unit();
                (0..n)
                    .map(|_| centre * (1.0 + offset + 0.01 * unit()))
                    .collect()
            })
            .collect();
        let mut all: Vec<f64> = rounds.iter().flatten().copied().collect();
        Record {
            variant: name.into(),
            median: interval::median(&mut all),
            rounds,
            ..record(Metric::Time, 0.0)
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
    fn values_keep_three_digits_and_bytes_read_as_a_rate() {
        let r = Record {
            unit: "ns/byte".into(),
            ..record(Metric::Time, 0.0207)
        };
        assert_eq!(value(&r), "0.0207 (48.3 GB/s)");
        assert_eq!(value(&record(Metric::Time, 0.0290)), "0.0290");
        assert_eq!(value(&record(Metric::Instructions, 12_345.6)), "12346");
    }

    #[test]
    fn instruction_changes_are_judged_by_plain_percent() {
        let base = file(vec![record(Metric::Instructions, 1000.0)]);
        for (new, verdict) in [
            (1100.0, Verdict::Regressed),
            (1005.0, Verdict::NoChange),
            (900.0, Verdict::Improved),
        ] {
            let new = file(vec![record(Metric::Instructions, new)]);
            let c = compare(&base, &new, &[Metric::Instructions], None);
            assert_eq!(c.rows[0].verdict, verdict, "{new:?}");
        }
    }

    /// Forty records drawn twice from the same distributions (an A/A
    /// comparison with 3 % noise between rounds): nothing is flagged. The
    /// same with one record 15 % slower: that one is, and only that one.
    #[test]
    fn identical_distributions_pass_and_a_shift_is_flagged() {
        let run = |seed: u64, slow: Option<usize>| {
            file(
                (0..40)
                    .map(|i| {
                        let centre = if Some(i) == slow { 115.0 } else { 100.0 };
                        timed(
                            &format!("v{i}"),
                            centre,
                            3,
                            10,
                            0.03,
                            seed * 1000 + i as u64,
                        )
                    })
                    .collect(),
            )
        };
        let (base, again) = (run(1, None), run(2, None));
        let c = compare(&base, &again, &[Metric::Time], None);
        assert_eq!(c.counts(), [0, 0, 40, 0], "{}", c.render(Format::Text));
        let slower = run(3, Some(7));
        let c = compare(&base, &slower, &[Metric::Time], None);
        assert_eq!(c.counts(), [1, 0, 39, 0], "{}", c.render(Format::Text));
        assert_eq!(c.rows[7].verdict, Verdict::Regressed);
        let i = c.rows[7].interval_pct.unwrap();
        assert!(i.low > 5.0 && i.high < 25.0, "{i:?}");
    }

    #[test]
    fn too_few_samples_are_not_comparable_never_a_pass() {
        let base = file(vec![timed("v", 100.0, 1, 20, 0.0, 1)]);
        let new = file(vec![timed("v", 200.0, 1, 20, 0.0, 2)]);
        let c = compare(&base, &new, &[Metric::Time], None);
        match &c.rows[0].verdict {
            Verdict::NotComparable(why) => assert!(why.contains("too few samples"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn machines_and_builds_must_match() {
        let base = file(Vec::new());
        let mut other = file(Vec::new());
        assert!(mismatches(&base, &other).is_empty());
        other.machine.cpu_model = "AMD EPYC 9454P".into();
        other.build.profile = "bench".into();
        let found = mismatches(&base, &other);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("cpu_model ('' vs 'AMD EPYC 9454P')"));
        assert!(found[1].starts_with("profile"));
    }

    #[test]
    fn machines_match_by_name_and_older_files_by_cpu_model() {
        let named = |name: &str| {
            let mut f = file(Vec::new());
            f.machine.cpu_model = "AMD EPYC 9454P".into();
            f.machine.name = name.into();
            f
        };
        let (lab1, lab2) = (named("lab-1"), named("lab-2"));
        assert!(mismatches(&lab1, &named("lab-1")).is_empty());
        // Same CPU model, different hosts: still different machines.
        assert_eq!(mismatches(&lab1, &lab2), ["machine ('lab-1' vs 'lab-2')"]);
        // An older file, named by its CPU model, matches either host of it.
        let old = named("AMD EPYC 9454P");
        assert!(mismatches(&old, &lab2).is_empty());
        assert!(mismatches(&lab1, &old).is_empty());
    }

    #[test]
    fn unmatched_and_unmeasured_records_are_listed_not_gated() {
        let base = file(vec![record(Metric::Instructions, 10.0)]);
        let mut skipped = record(Metric::Instructions, 0.0);
        skipped.status = Status::Skipped;
        let mut other = record(Metric::Instructions, 5.0);
        other.variant = "u".into();
        let new = file(vec![skipped, other]);
        let c = compare(&base, &new, &[Metric::Instructions], None);
        assert_eq!(c.failures(), 0);
        assert!(matches!(c.rows[0].verdict, Verdict::NotComparable(_)));
        assert_eq!(c.only_new.len(), 1);
        assert!(c.render(Format::Text).contains("only in new: w/u/s"));
    }

    #[test]
    fn a_record_that_turned_wrong_fails_the_gate() {
        let base = file(vec![record(Metric::Time, 10.0)]);
        let mut wrong = record(Metric::Time, 0.0);
        wrong.status = Status::Error;
        wrong.reason = Some("wrong answer".into());
        let new = file(vec![wrong]);
        let c = compare(&base, &new, &[Metric::Time], Some(50.0));
        assert_eq!(c.failures(), 1);
        assert!(c.render(Format::Text).contains("BROKE: wrong answer"));
        let md = c.render(Format::Markdown);
        assert!(md.contains("| **BROKE: wrong answer** |"), "{md}");
        let json: serde_json::Value = serde_json::from_str(&c.render(Format::Json)).unwrap();
        assert_eq!(json["regressed"], 1);
        assert_eq!(json["rows"][0]["verdict"], "broke");
    }

    /// A variant that now crashes or hangs broke, like one that now answers
    /// wrongly, whatever the threshold; one that stopped crashing fails
    /// nothing (there is no base time to judge it by).
    #[test]
    fn a_record_that_now_crashes_or_hangs_fails_the_gate() {
        let fault = |status: Status, reason: &str| Record {
            status,
            reason: Some(reason.into()),
            ..record(Metric::Time, 0.0)
        };
        let crash = "crashed: segmentation fault (SIGSEGV) on 0x2500810802063824";
        let hang = "did not finish in 10 s on 12345";
        let base = file(vec![record(Metric::Time, 10.0)]);
        for (new, label) in [
            (fault(Status::Crashed, crash), format!("BROKE: {crash}")),
            (fault(Status::Hung, hang), format!("BROKE: hung: {hang}")),
        ] {
            let new = file(vec![new]);
            let c = compare(&base, &new, &[Metric::Time], Some(1000.0));
            assert_eq!(c.failures(), 1, "{label}");
            assert_eq!(c.rows[0].verdict.label(), label);
            assert_eq!(c.counts(), [1, 0, 0, 0]);
            let text = c.render(Format::Text);
            assert!(text.contains(&label), "{text}");
            let md = c.render(Format::Markdown);
            assert!(md.contains(&format!("| **{label}** |")), "{md}");
            let json: serde_json::Value = serde_json::from_str(&c.render(Format::Json)).unwrap();
            assert_eq!(json["rows"][0]["verdict"], "broke");
            assert_eq!(json["regressed"], 1);
        }
        assert_eq!(value(&fault(Status::Crashed, crash)), "crashed");
        assert_eq!(value(&fault(Status::Hung, hang)), "hung");

        let crashed = file(vec![fault(Status::Crashed, crash)]);
        let fixed = compare(&crashed, &base, &[Metric::Time], None);
        assert_eq!(fixed.failures(), 0);
        assert_eq!(
            fixed.rows[0].verdict,
            Verdict::NotComparable("base: not measured (crashed)".into())
        );
    }
}
