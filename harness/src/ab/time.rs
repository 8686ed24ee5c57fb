//! One record's time: paired samples when both builds serve, judged on
//! the pairs both sides share; else one `bench --quick` run of each,
//! compared unpaired.

use super::answers::Batch;
use super::build::Build;
use super::options::EXTEND;
use super::plan::Planned;
use super::records::labelled;
use super::table::Row;
use super::{instances, modes, oneshot, pairs, stats};
use crate::error::Error;
use crate::revision::Side;
use reports::compare::{Verdict, compare};
use reports::interval::Interval;
use reports::interval::geomean;
use reports::{Disturbance, Metric, Paired, Record, Status};
use std::path::Path;
use std::time::Duration;

/// Times one record: paired when both builds serve (the batch is loaded),
/// else one `bench --quick` of each, unpaired. Both sides' records go to
/// `records`.
///
/// The pairs are taken on `core` (both children pinned to it) under
/// `budget`; the row says how many were set aside as disturbed and, as
/// its `concern`, why its verdict may not hold.
pub fn time(
    p: &Planned,
    batch: Batch,
    [a, b]: [&mut Build; 2],
    (budget, core): (pairs::Budget, Option<usize>),
    files: &Path,
    records: &mut Vec<Record>,
) -> Result<Row, Error> {
    let threshold = budget.threshold_pct;
    if a.child.is_none() || b.child.is_none() {
        return unpaired(p, [&a.side, &b.side], threshold, files, records);
    }
    let measured = instances::measure(p, &batch, [&mut *a, &mut *b], budget, core)?;
    let pairs = &measured.pairs;
    let (xs, ys): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
    let mut row = Row::new(p, "time", &format!("ns/{}", p.unit));
    row.threshold_pct = threshold;
    let disturbance = Disturbance {
        taken: (pairs.len() + measured.set_aside) as u32,
        set_aside: measured.set_aside as u32,
        probe: measured.probe.to_owned(),
    };
    records.push(p.record(&a.side, &xs, batch.elements, disturbance.clone()));
    records.push(p.record(&b.side, &ys, batch.elements, disturbance.clone()));
    let [ra, rb] = [&records[records.len() - 2], &records[records.len() - 1]];
    (row.a, row.b) = (Some(ra.median), Some(rb.median));
    row.pairs = pairs.len();
    row.set_aside = measured.set_aside;
    row.seconds = measured.elapsed.as_secs_f64();
    row.concern = concern(&measured, &disturbance, threshold);
    row.ratios = pairs.iter().map(|(x, y)| y / x).collect();
    // Judged on the pairs both sides share, the interval widened by the
    // spread between pairs of processes.
    let shared = modes::shared(pairs, &measured.windows);
    let kept: Vec<(f64, f64)> = shared.kept.iter().map(|&i| pairs[i]).collect();
    row.outliers = shared.set_aside;
    row.slow_mode = shared.slow.map(|s| s.describe(kept.len()));
    (row.a_geomean, row.b_geomean) = (
        geomean(kept.iter().map(|p| p.0)),
        geomean(kept.iter().map(|p| p.1)),
    );
    let (tau, slices) = instances::between(&measured, &shared.kept);
    row.processes = slices.max(1);
    row.between_pct = (slices > 1).then_some(tau * 100.0);
    let judged = stats::judge(&kept, threshold).map(|j| stats::Judged {
        interval: instances::widen(j.ratio, j.interval, tau, slices),
        ..j
    });
    // Too few pairs to judge still leave their ratios to draw, about their
    // plain median.
    let median = crate::stats::summarize(&row.ratios).map(|s| s.median);
    if let (Some(last), Some(median)) = (records.last_mut(), median) {
        last.paired = Some(Paired {
            ratio: judged.as_ref().map_or(median, |j| j.ratio),
            interval: judged.as_ref().map(|j| j.interval),
            ratios: row.ratios.clone(),
        });
    }
    match judged {
        Some(j) => {
            row.change_pct = Some((j.ratio - 1.0) * 100.0);
            row.interval_pct = Some(Interval {
                low: (j.interval.low - 1.0) * 100.0,
                high: (j.interval.high - 1.0) * 100.0,
            });
            row.p_value = Some(j.p_value);
        }
        None => {
            row.verdict = Verdict::NotComparable(format!(
                "{} pairs, fewer than {}",
                kept.len(),
                stats::MIN_PAIRS
            ));
        }
    }
    Ok(row)
}

/// Why a paired time's verdict may not hold: too many pairs disturbed, or
/// too few undisturbed ones for how widely they spread.
fn concern(measured: &pairs::Measured, d: &Disturbance, threshold: f64) -> Option<String> {
    let mut why: Vec<String> = d
        .too_busy("pairs")
        .map(|busy| format!("{busy}, set aside"))
        .into_iter()
        .collect();
    if !measured.resolved() {
        let spread = stats::spread(&measured.pairs).unwrap_or(0.0) * 100.0;
        why.push(format!(
            "pairs spread ±{spread:.2} %: resolving {threshold} % needs {} undisturbed pairs for {:.0} % power, {} measured in {:.1} s reached {:.0} %",
            measured.needed,
            stats::POWER * 100.0,
            measured.pairs.len(),
            measured.elapsed.as_secs_f64(),
            stats::power(&measured.pairs, threshold) * 100.0,
        ));
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// The note on how time was measured: the budget, the cap, and the
/// records that went beyond the budget.
pub fn time_note(rows: &[Row], base: Duration) -> String {
    let extended = rows
        .iter()
        .filter(|r| r.seconds > base.as_secs_f64() * 1.1)
        .count();
    format!(
        "time: {:.1} s per record, extended up to {:.1} s where the pairs spread too wide for the threshold ({extended} extended); disturbed pairs set aside",
        base.as_secs_f64(),
        (base * EXTEND).as_secs_f64()
    )
}

/// One `bench --quick` run of each build, compared as `compare` does.
fn unpaired(
    p: &Planned,
    sides: [&Side; 2],
    threshold: f64,
    files: &Path,
    records: &mut Vec<Record>,
) -> Result<Row, Error> {
    let run = |side: &Side| {
        let out = files.join(format!("{}-bench-{}.json", p.stem(), side.label));
        oneshot::measure(
            &side.exe,
            &["bench", "--quick"],
            &p.workload,
            std::slice::from_ref(&p.variant),
            std::slice::from_ref(&p.set),
            1,
            &out,
        )
    };
    let (fa, fb) = (run(sides[0])?, run(sides[1])?);
    let compared = compare(&fa, &fb, &[Metric::Time], Some(threshold));
    let mut row = compared
        .rows
        .iter()
        .find(|r| r.new.variant == p.variant && r.new.input_set == p.set)
        .map(|r| Row::from_compared(r, "time (unpaired)"))
        .ok_or_else(|| Error::failed("no time record in common"))?;
    row.threshold_pct = threshold;
    labelled(records, &fa, sides[0]);
    labelled(records, &fb, sides[1]);
    Ok(row)
}

impl Planned {
    /// A results-file record of one side's samples (ns per element, in
    /// the order taken), split into ten consecutive rounds so the median
    /// gets an interval as `bench`'s do.
    fn record(
        &self,
        side: &Side,
        samples: &[f64],
        elements: u64,
        disturbance: Disturbance,
    ) -> Record {
        let summary = crate::stats::summarize(samples).unwrap_or(crate::stats::Summary {
            median: 0.0,
            mad: 0.0,
            min: 0.0,
            max: 0.0,
        });
        let rounds: Vec<Vec<f64>> = samples
            .chunks(samples.len().div_ceil(10).max(1))
            .map(<[f64]>::to_vec)
            .collect();
        let seed = reports::interval::seed_of(&[&self.workload, &self.variant, &self.set]);
        Record {
            workload: self.workload.clone(),
            variant: self.variant.clone(),
            input_set: self.set.clone(),
            target_cpu: crate::machine::target_cpu().to_owned(),
            metric: Metric::Time,
            unit: format!("ns/{}", self.unit),
            status: Status::Ok,
            median: summary.median,
            mad: summary.mad,
            min: summary.min,
            max: summary.max,
            samples: samples.len() as u32,
            elements_per_sample: elements,
            source: Some(format!("{} {}", side.label, side.name)),
            interval: reports::interval::median_interval(&rounds, seed),
            rounds,
            disturbance: Some(disturbance),
            unit_plural: self.plural.clone(),
            ..Record::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set whose inputs take 1 to 24 ms, each paired with itself (A/A):
    /// the columns are each side's geometric mean over the same inputs, so
    /// they read the same and their ratio is the pairs' own, whatever the
    /// order the inputs came in.
    #[test]
    fn a_a_columns_agree_over_inputs_of_any_length() {
        let pairs: Vec<(f64, f64)> = (1..=24)
            .map(|ms| {
                let t = f64::from(ms) * 1e6;
                (t, t * if ms % 2 == 0 { 1.001 } else { 0.999 })
            })
            .collect();
        let a = geomean(pairs.iter().map(|p| p.0)).unwrap();
        let b = geomean(pairs.iter().map(|p| p.1)).unwrap();
        assert!((b / a - 1.0).abs() < 1e-4, "{a} {b}");
        let ratios = geomean(pairs.iter().map(|p| p.1 / p.0)).unwrap();
        assert!((b / a - ratios).abs() < 1e-12, "{} {ratios}", b / a);
        assert_eq!(geomean([2.0, 8.0].into_iter()), Some(4.0));
        assert_eq!(geomean(std::iter::empty()), None);
    }

    /// `n` pairs about a ratio of 1 whose log-ratios spread evenly over
    /// ±`width`.
    fn pairs(n: usize, width: f64) -> Vec<(f64, f64)> {
        (0..n)
            .map(|i| {
                let u = (i * 37 % n) as f64 / n as f64 - 0.5;
                (100.0, 100.0 * (2.0 * width * u).exp())
            })
            .collect()
    }

    fn measured(pairs: Vec<(f64, f64)>, set_aside: usize) -> (pairs::Measured, Disturbance) {
        let needed = stats::pairs_needed(&pairs, 0.5);
        let d = Disturbance {
            taken: (pairs.len() + set_aside) as u32,
            set_aside: set_aside as u32,
            probe: "rusage".into(),
        };
        let m = pairs::Measured {
            windows: vec![0; pairs.len()],
            instances: vec![0; pairs.len()],
            pairs,
            set_aside,
            probe: "rusage",
            elapsed: Duration::from_secs(2),
            needed,
        };
        (m, d)
    }

    #[test]
    fn noise_from_outside_the_machine_is_named_though_no_sample_was_disturbed() {
        // 400 quiet pairs within ±0.2 %: nothing to say.
        let (m, d) = measured(pairs(400, 0.002), 4);
        assert_eq!(concern(&m, &d, 0.5), None);
        // The same count spread over ±5 %: no pair disturbed, yet too
        // few for the spread.
        let (m, d) = measured(pairs(400, 0.05), 0);
        let why = concern(&m, &d, 0.5).expect("a concern");
        assert!(
            why.contains("pairs spread ±") && why.contains("needs"),
            "{why}"
        );
        // Many pairs set aside is a concern of its own.
        let (m, d) = measured(pairs(400, 0.002), 100);
        let why = concern(&m, &d, 0.5).expect("a concern");
        assert!(why.contains("100 of 500 pairs disturbed"), "{why}");
    }
}
