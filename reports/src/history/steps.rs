//! Step detection: the commits where a series moves beyond its noise.
//!
//! The per-commit levels are split into constant segments by exact
//! optimal partitioning (dynamic programming, O(n²) segments over at most
//! a few hundred commits): the cost of a segment is the sum of absolute
//! deviations from its median, so one wild run moves nothing, plus a
//! penalty per segment proportional to the series' noise — asv's
//! regularised piecewise-constant ("Potts") fit with an L1 cost. Every
//! segment holds at least two commits except the newest, so a one-commit
//! spike that returns cannot be cut out (with medians it also saves
//! nothing), while the newest commit may start a step, which is what
//! `history check` asks. Adjacent segments whose levels do not differ by
//! more than the threshold *and* by more than four standard errors of
//! that difference are then merged, so only real shifts are reported.
//!
//! Noise is estimated robustly: for wall time, the larger of the spread of
//! successive differences (1.4826 × their median absolute value ÷ √2,
//! untouched by a single step) and the median of the records' own 95 %
//! intervals (÷ 1.96). Exact counts repeat exactly for one build, so
//! every change between commits is real and only the threshold judges
//! it; their noise is a floor of an eighth of the threshold (relative to
//! the series' median), which every series also gets, so a change below
//! the threshold never pays for a segment.

use crate::results::Metric;
use serde::Serialize;
use std::f64::consts::PI;

/// Standard errors a level difference must exceed to count as a step.
const Z: f64 = 4.0;

/// The default threshold of a step, percent
/// ([`thresholds::step`](crate::thresholds::step)).
pub fn default_threshold(metric: Metric) -> f64 {
    crate::thresholds::step(metric)
}

/// A shift between two segments of a series.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shift {
    /// Index of the first point of the new level.
    pub at: usize,
    /// The level before (median of the segment before).
    pub before: f64,
    /// The level from `at` on (median of the segment after).
    pub after: f64,
    /// `after ÷ before`.
    pub ratio: f64,
}

/// A constant segment `start..end` of a series.
#[derive(Clone, Debug, PartialEq)]
struct Segment {
    start: usize,
    end: usize,
    level: f64,
}

/// What a series is: its levels, one per commit (oldest first), the
/// half-widths of their intervals (may be empty), and whether it is an
/// exact count.
#[derive(Clone, Copy, Debug)]
pub struct Levels<'a> {
    /// One level per commit.
    pub values: &'a [f64],
    /// The levels' interval half-widths, where known.
    pub half_widths: &'a [f64],
    /// Whether the metric is judged exactly (see [`Metric::judged_exactly`]).
    pub exact: bool,
}

impl Levels<'_> {
    /// The first `n` levels.
    fn head(&self, n: usize) -> Levels<'_> {
        Levels {
            values: &self.values[..n],
            half_widths: &self.half_widths[..n.min(self.half_widths.len())],
            exact: self.exact,
        }
    }
}

/// The series' noise as one standard deviation per point, see the module
/// doc; `threshold` is a fraction.
pub fn noise(levels: Levels<'_>, threshold: f64) -> f64 {
    let values = levels.values;
    let mut values_copy = values.to_vec();
    let floor = if values.is_empty() {
        0.0
    } else {
        threshold * crate::interval::median(&mut values_copy).abs() / 8.0
    };
    if levels.exact {
        return floor;
    }
    let mut diffs: Vec<f64> = values.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    let from_diffs = if diffs.is_empty() {
        0.0
    } else {
        1.4826 * crate::interval::median(&mut diffs) / 2f64.sqrt()
    };
    let mut halves: Vec<f64> = levels
        .half_widths
        .iter()
        .copied()
        .filter(|h| h.is_finite())
        .collect();
    let from_intervals = if halves.is_empty() {
        0.0
    } else {
        crate::interval::median(&mut halves) / 1.96
    };
    from_diffs.max(from_intervals).max(floor)
}

/// The steps of a series, see the module doc; `threshold` is a fraction
/// (0.01 for 1 %).
pub fn steps(levels: Levels<'_>, threshold: f64) -> Vec<Shift> {
    let s = noise(levels, threshold);
    let values = levels.values;
    let segments = merge(partition(values, s), values, s, threshold);
    segments.windows(2).map(|w| shift(&w[0], &w[1])).collect()
}

/// Whether the newest value starts a step against the level of the
/// segment it follows; the noise is that of the older values, so the
/// newest cannot hide itself by inflating it.
pub fn newest(levels: Levels<'_>, threshold: f64) -> Option<Shift> {
    let values = levels.values;
    let (&last, older) = values.split_last()?;
    if older.is_empty() {
        return None;
    }
    let s = noise(levels.head(older.len()), threshold);
    let segments = merge(partition(older, s), older, s, threshold);
    let before = segments.last()?.clone();
    let after = Segment {
        start: older.len(),
        end: values.len(),
        level: last,
    };
    significant(&before, &after, s, threshold).then(|| shift(&before, &after))
}

fn shift(before: &Segment, after: &Segment) -> Shift {
    Shift {
        at: after.start,
        before: before.level,
        after: after.level,
        ratio: after.level / before.level,
    }
}

/// Whether two adjacent segments' levels differ beyond the threshold and
/// beyond `Z` standard errors (a median of m points varies as
/// √(π/2m) × s).
fn significant(a: &Segment, b: &Segment, s: f64, threshold: f64) -> bool {
    let var = |seg: &Segment| {
        let m = (seg.end - seg.start) as f64;
        if m < 2.0 { 1.0 } else { PI / (2.0 * m) }
    };
    let diff = (b.level - a.level).abs();
    let relative = diff / a.level.abs().max(f64::MIN_POSITIVE);
    relative > threshold && diff > Z * s * (var(a) + var(b)).sqrt()
}

/// Whether `start..end` may be a segment of a series of `n` points: two
/// points at least, except the newest alone.
fn allowed(start: usize, end: usize, n: usize) -> bool {
    end - start >= 2 || (end == n && end > start)
}

/// The optimal partition of `values` under the L1 cost and a penalty per
/// segment scaled by the noise `s`.
fn partition(values: &[f64], s: f64) -> Vec<Segment> {
    let n = values.len();
    if n == 0 {
        return Vec::new();
    }
    let penalty = 3.0 * s * ((n + 1) as f64).ln();
    let mut best = vec![f64::INFINITY; n + 1];
    let mut from = vec![0; n + 1];
    best[0] = 0.0;
    for start in 0..n {
        if !best[start].is_finite() {
            continue;
        }
        let mut sorted: Vec<f64> = Vec::with_capacity(n - start);
        for end in start + 1..=n {
            let v = values[end - 1];
            let at = sorted.partition_point(|x| *x < v);
            sorted.insert(at, v);
            if !allowed(start, end, n) {
                continue;
            }
            let cost = best[start] + deviation(&sorted) + penalty;
            if cost < best[end] {
                best[end] = cost;
                from[end] = start;
            }
        }
    }
    let mut bounds = vec![n];
    while let Some(&end) = bounds.last() {
        if end == 0 {
            break;
        }
        bounds.push(from[end]);
    }
    bounds.reverse();
    bounds
        .windows(2)
        .map(|w| segment(values, w[0], w[1]))
        .collect()
}

/// Sum of absolute deviations of sorted values from their median.
fn deviation(sorted: &[f64]) -> f64 {
    let m = sorted_median(sorted);
    sorted.iter().map(|x| (x - m).abs()).sum()
}

fn sorted_median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn segment(values: &[f64], start: usize, end: usize) -> Segment {
    let mut part = values[start..end].to_vec();
    Segment {
        start,
        end,
        level: crate::interval::median(&mut part),
    }
}

/// Merges the least different adjacent pair of segments until every
/// boundary left is [`significant`].
fn merge(mut segments: Vec<Segment>, values: &[f64], s: f64, threshold: f64) -> Vec<Segment> {
    loop {
        let weakest = (1..segments.len())
            .filter(|&i| !significant(&segments[i - 1], &segments[i], s, threshold))
            .min_by(|&i, &j| {
                let gap = |k: usize| (segments[k].level - segments[k - 1].level).abs();
                gap(i).total_cmp(&gap(j))
            });
        let Some(i) = weakest else {
            return segments;
        };
        let merged = segment(values, segments[i - 1].start, segments[i].end);
        segments.splice(i - 1..=i, [merged]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time<'a>(values: &'a [f64], half_widths: &'a [f64]) -> Levels<'a> {
        Levels {
            values,
            half_widths,
            exact: false,
        }
    }

    fn exact(values: &[f64]) -> Levels<'_> {
        Levels {
            values,
            half_widths: &[],
            exact: true,
        }
    }

    /// A deterministic noise sequence in -1..1 (a small LCG).
    fn jitter(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
            })
            .collect()
    }

    /// `base` with ±`noise` relative jitter, times `factor` from `from` on.
    fn series(n: usize, noise: f64, from: usize, factor: f64) -> Vec<f64> {
        jitter(n, 7)
            .into_iter()
            .enumerate()
            .map(|(i, j)| 100.0 * (1.0 + noise * j) * if i >= from { factor } else { 1.0 })
            .collect()
    }

    #[test]
    fn a_step_up_is_found_at_its_commit() {
        let values = series(12, 0.01, 6, 1.2);
        let found = steps(time(&values, &[]), 0.01);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].at, 6);
        assert!((found[0].ratio - 1.2).abs() < 0.03, "{found:?}");
    }

    #[test]
    fn a_step_down_and_a_later_step_up_are_both_found() {
        let mut values = series(30, 0.005, 10, 0.8);
        for v in &mut values[20..] {
            *v *= 1.5;
        }
        let at: Vec<usize> = steps(time(&values, &[]), 0.01)
            .iter()
            .map(|s| s.at)
            .collect();
        assert_eq!(at, vec![10, 20]);
        assert!(steps(time(&values, &[]), 0.01)[0].ratio < 0.85);
    }

    #[test]
    fn a_spike_that_returns_and_a_flat_series_have_no_step() {
        let mut spiky = series(12, 0.01, 12, 1.0);
        spiky[5] *= 1.6;
        assert_eq!(steps(time(&spiky, &[]), 0.01), vec![]);
        let flat = series(40, 0.02, 40, 1.0);
        assert_eq!(steps(time(&flat, &[]), 0.01), vec![]);
    }

    #[test]
    fn a_shift_within_the_noise_is_not_a_step() {
        // 3 % apart but each point ±10 %: not beyond the noise.
        let values = series(12, 0.10, 6, 1.03);
        assert_eq!(steps(time(&values, &[]), 0.01), vec![]);
        // Wide intervals say the same even when the points happen to agree.
        let values = series(12, 0.0, 6, 1.03);
        assert_eq!(steps(time(&values, &[20.0; 12]), 0.01), vec![]);
        assert_eq!(steps(time(&values, &[]), 0.01).len(), 1);
    }

    #[test]
    fn exact_series_step_on_any_change_beyond_the_threshold() {
        let mut values = vec![1000.0; 10];
        values[7..].fill(1003.0);
        let found = steps(exact(&values), 0.001);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].at, found[0].before, found[0].after),
            (7, 1000.0, 1003.0)
        );
        // 0.05 % is below the exact threshold; a one-commit spike is no step.
        values[7..].fill(1000.5);
        assert_eq!(steps(exact(&values), 0.001), vec![]);
        let mut spike = vec![1000.0; 10];
        spike[4] = 2000.0;
        assert_eq!(steps(exact(&spike), 0.001), vec![]);
    }

    #[test]
    fn short_series() {
        assert_eq!(steps(time(&[], &[]), 0.01), vec![]);
        assert_eq!(steps(time(&[5.0], &[]), 0.01), vec![]);
        assert_eq!(steps(time(&[5.0, 9.0], &[]), 0.01), vec![]);
        // Three exact points: the newest alone may start a step.
        let found = steps(exact(&[5.0, 5.0, 9.0]), 0.001);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].at, 2);
        assert_eq!(newest(time(&[5.0], &[]), 0.01), None);
        assert_eq!(newest(time(&[5.0, 6.0], &[]), 0.01).map(|s| s.at), Some(1));
    }

    #[test]
    fn the_newest_commit_is_judged_against_the_level_before_it() {
        let mut values = series(13, 0.01, 13, 1.0);
        assert_eq!(newest(time(&values, &[]), 0.01), None);
        values[12] *= 1.15;
        let found = newest(time(&values, &[]), 0.01).expect("a regression");
        assert_eq!(found.at, 12);
        assert!(found.ratio > 1.1, "{found:?}");
        // An older step does not make the newest commit a step.
        let values = series(13, 0.01, 6, 1.2);
        assert_eq!(newest(time(&values, &[]), 0.01), None);
    }
}
