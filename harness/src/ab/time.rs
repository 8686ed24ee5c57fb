//! One record's time: paired samples when both builds serve, judged on
//! the pairs both sides share; else one `bench --quick` run of each,
//! compared unpaired.

use super::answers::Batch;
use super::build::Build;
use super::options::EXTEND;
use super::plan::Planned;
use super::records::labelled;
use super::table::{Cycles, Row};
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
    row.ratios = pairs.iter().map(|(x, y)| y / x).collect();
    // Judged on the pairs both sides share, one change per pair of
    // processes; a group is one pair of processes, one window, one order.
    let shared = modes::shared(pairs, &measured.taken);
    let kept: Vec<(f64, f64)> = shared.kept.iter().map(|&i| pairs[i]).collect();
    row.outliers = shared.set_aside;
    row.slow_mode = shared.slow.map(|s| s.describe(kept.len()));
    (row.a_geomean, row.b_geomean) = (
        geomean(kept.iter().map(|p| p.0)),
        geomean(kept.iter().map(|p| p.1)),
    );
    row.cycles = Cycles::of(row.a_geomean.zip(row.b_geomean), batch.ghz);
    let changes = stats::process_changes(pairs, &measured.taken, &shared.kept);
    row.processes = changes.len();
    let judged = stats::judge(&changes, threshold, budget.level());
    row.concern = concern(&disturbance);
    // Too few pairs of processes to judge still leave their ratios to
    // draw, about their plain median.
    let median = crate::stats::summarize(&row.ratios).map(|s| s.median);
    let paired = median.map(|median| Paired {
        ratio: judged.as_ref().map_or(median, |j| j.ratio),
        interval: judged.as_ref().map(|j| j.interval),
        ratios: row.ratios.clone(),
        threshold_pct: Some(threshold),
        verdict: None,
    });
    let per_process = instances::per_process(&measured).as_secs_f64();
    match judged {
        Some(j) => {
            row.change_pct = Some((j.ratio - 1.0) * 100.0);
            row.interval_pct = Some(Interval {
                low: (j.interval.low - 1.0) * 100.0,
                high: (j.interval.high - 1.0) * 100.0,
            });
            row.level = Some(j.level);
            row.between_pct = Some(j.between * 100.0);
            row.verdict = verdict(&j, threshold, per_process);
        }
        None => {
            row.verdict = Verdict::Inconclusive(format!(
                "{} pair(s) of processes gave a change, fewer than {}: give it more --seconds",
                changes.len(),
                stats::MIN_PROCESSES
            ));
        }
    }
    if let (Some(last), Some(paired)) = (records.last_mut(), paired) {
        last.paired = Some(Paired {
            verdict: Some(row.verdict.clone()),
            ..paired
        });
    }
    Ok(row)
}

/// The verdict an interval calls for: moved only when it lies wholly
/// beyond the threshold, no change only when wholly within it; else
/// inconclusive, with the power reached and the seconds (at `per_process`
/// seconds a pair of processes) that would settle it.
fn verdict(j: &stats::Judged, threshold: f64, per_process: f64) -> Verdict {
    match j.moved {
        stats::Moved::Slower => Verdict::Regressed,
        stats::Moved::Faster => Verdict::Improved,
        stats::Moved::Within => Verdict::NoChange,
        stats::Moved::Unsettled => Verdict::Inconclusive(format!(
            "the interval straddles ±{threshold} %; {} pairs of processes reached {:.0} % power \
             for a {:.0} % change, about {:.0} s in all would reach {:.0} %",
            j.processes,
            j.power * 100.0,
            2.0 * threshold,
            j.needed.max(j.processes + 1) as f64 * per_process,
            stats::POWER * 100.0
        )),
    }
}

/// Why a paired time's verdict may not hold: too many pairs disturbed.
fn concern(d: &Disturbance) -> Option<String> {
    d.too_busy("pairs").map(|busy| format!("{busy}, set aside"))
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

    fn judged(moved: stats::Moved) -> stats::Judged {
        stats::Judged {
            ratio: 1.0,
            interval: Interval {
                low: 0.99,
                high: 1.01,
            },
            level: 0.99,
            processes: 10,
            between: 0.01,
            moved,
            power: 0.4,
            needed: 30,
        }
    }

    #[test]
    fn an_interval_that_straddles_the_threshold_says_what_would_settle_it() {
        use stats::Moved::*;
        assert_eq!(verdict(&judged(Slower), 1.0, 0.2), Verdict::Regressed);
        assert_eq!(verdict(&judged(Faster), 1.0, 0.2), Verdict::Improved);
        assert_eq!(verdict(&judged(Within), 1.0, 0.2), Verdict::NoChange);
        let Verdict::Inconclusive(why) = verdict(&judged(Unsettled), 1.0, 0.2) else {
            panic!("not inconclusive");
        };
        assert!(
            why.contains("straddles ±1 %")
                && why.contains("40 % power")
                && why.contains("about 6 s"),
            "{why}"
        );
        assert!(!Verdict::Inconclusive(why).fails());
    }

    #[test]
    fn many_pairs_set_aside_are_a_concern() {
        let d = |set_aside: u32| Disturbance {
            taken: 400 + set_aside,
            set_aside,
            probe: "rusage".into(),
        };
        assert_eq!(concern(&d(4)), None);
        let why = concern(&d(100)).expect("a concern");
        assert!(why.contains("100 of 500 pairs disturbed"), "{why}");
    }
}
