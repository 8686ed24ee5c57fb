//! Uncertainty of medians and of their ratios, by a seeded bootstrap.
//!
//! On a shared machine samples within one run agree closely while runs
//! differ (frequency, neighbours), so `bench` measures in several rounds
//! and an interval must reflect both. The bootstrap here is hierarchical:
//! each replicate draws rounds with replacement, then samples within each
//! drawn round, and takes the median of what it drew. Seeded, so the same
//! file always prints the same intervals.

use serde::{Deserialize, Serialize};

/// Replicates per bootstrap: enough for stable 2.5 % and 97.5 % quantiles.
const REPLICATES: usize = 2000;

/// Fewer rounds than this give no interval: the spread between runs, the
/// noise that matters, would be unmeasured.
pub const MIN_ROUNDS: usize = 2;

/// Fewer samples in all than this give no interval either.
pub const MIN_SAMPLES: usize = 6;

/// A 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// Whether `rounds` hold enough samples for an interval.
pub fn enough(rounds: &[Vec<f64>]) -> bool {
    rounds.iter().filter(|r| !r.is_empty()).count() >= MIN_ROUNDS
        && rounds.iter().map(Vec::len).sum::<usize>() >= MIN_SAMPLES
}

/// The 95 % interval of the median of `rounds`, or `None` when there are
/// too few samples (see [`enough`]).
pub fn median_interval(rounds: &[Vec<f64>], seed: u64) -> Option<Interval> {
    median_replicates(rounds, seed).map(|mut m| quantiles(&mut m))
}

/// Bootstrap replicates of the median of `rounds` (as
/// [`median_interval`] draws them), or `None` when there are too few
/// samples: the parts a figure built from several medians resamples.
pub fn median_replicates(rounds: &[Vec<f64>], seed: u64) -> Option<Vec<f64>> {
    replicates(rounds, &mut Rng::new(seed))
}

/// Geometric mean of the positive finite values, if any.
pub fn geomean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u32);
    for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
        sum += v.ln();
        n += 1;
    }
    (n > 0).then(|| (sum / f64::from(n)).exp())
}

/// The 95 % interval of the geometric mean of several bootstrapped
/// figures, from each one's replicates (all of one length, as this module
/// draws them): replicate `k` of the mean is the geometric mean of every
/// figure's replicate `k`. `None` when there are no figures.
pub fn geomean_interval(figures: &[Vec<f64>]) -> Option<Interval> {
    let n = figures.first()?.len();
    let mut means: Vec<f64> = (0..n)
        .filter_map(|k| geomean(figures.iter().map(|f| f[k])))
        .collect();
    (!means.is_empty()).then(|| quantiles(&mut means))
}

/// Bootstrap replicates of `top` ÷ `bottom` (each the median of its
/// rounds, resampled independently), or `None` when either side has too
/// few samples. A speedup is `base ÷ variant`; a change is `new ÷ base`.
pub fn ratio_replicates(top: &[Vec<f64>], bottom: &[Vec<f64>], seed: u64) -> Option<Vec<f64>> {
    let mut rng = Rng::new(seed);
    let top = replicates(top, &mut rng)?;
    let bottom = replicates(bottom, &mut rng)?;
    Some(top.iter().zip(&bottom).map(|(t, b)| t / b).collect())
}

/// The 95 % interval of `Σ top ÷ Σ bottom`, where each side is a sum of
/// medians (a total over several input sets): every part is resampled
/// independently and the replicates summed. `None` when any part has too
/// few samples.
pub fn sum_ratio_interval(
    top: &[&[Vec<f64>]],
    bottom: &[&[Vec<f64>]],
    seed: u64,
) -> Option<Interval> {
    let mut rng = Rng::new(seed);
    let mut sum = |parts: &[&[Vec<f64>]]| -> Option<Vec<f64>> {
        let mut total = vec![0.0; REPLICATES];
        for part in parts {
            for (t, r) in total.iter_mut().zip(replicates(part, &mut rng)?) {
                *t += r;
            }
        }
        Some(total)
    };
    let top = sum(top)?;
    let bottom = sum(bottom)?;
    let mut ratios: Vec<f64> = top.iter().zip(&bottom).map(|(t, b)| t / b).collect();
    Some(quantiles(&mut ratios))
}

/// The 95 % interval of `top` ÷ `bottom`, see [`ratio_replicates`].
pub fn ratio_interval(top: &[Vec<f64>], bottom: &[Vec<f64>], seed: u64) -> Option<Interval> {
    ratio_replicates(top, bottom, seed).map(|mut r| quantiles(&mut r))
}

/// A seed for one record: the same key gives the same intervals.
pub fn seed_of(parts: &[&str]) -> u64 {
    // FNV-1a: stable across runs and platforms, unlike std's hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The median of each bootstrap replicate of `rounds`.
fn replicates(rounds: &[Vec<f64>], rng: &mut Rng) -> Option<Vec<f64>> {
    if !enough(rounds) {
        return None;
    }
    let rounds: Vec<&Vec<f64>> = rounds.iter().filter(|r| !r.is_empty()).collect();
    let mut drawn = Vec::new();
    Some(
        (0..REPLICATES)
            .map(|_| {
                drawn.clear();
                for _ in 0..rounds.len() {
                    let round = rounds[rng.below(rounds.len())];
                    drawn.extend((0..round.len()).map(|_| round[rng.below(round.len())]));
                }
                median(&mut drawn)
            })
            .collect(),
    )
}

/// The median of `values` (reordered).
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// The 2.5 % and 97.5 % quantiles of `values` (reordered, not empty): the
/// 95 % interval of what they are replicates of.
pub(crate) fn quantiles(values: &mut [f64]) -> Interval {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    Interval {
        low: at(0.025),
        high: at(0.975),
    }
}

/// SplitMix64: small, fast and good enough for resampling indices.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds of `n` samples around `centre`, each round shifted by its own
    /// offset (between-run noise) plus a small within-run jitter.
    pub(crate) fn rounds(centre: f64, offsets: &[f64], n: usize, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = Rng::new(seed);
        offsets
            .iter()
            .map(|o| {
                (0..n)
                    .map(|_| centre * (1.0 + o + (rng.next() % 1000) as f64 * 1e-5))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_interval_holds_the_median_and_reflects_rounds() {
        let tight = rounds(100.0, &[0.0, 0.001, -0.001], 10, 1);
        let i = median_interval(&tight, 7).unwrap();
        assert!(
            i.low <= 100.5 && i.high >= 99.9 && i.high - i.low < 1.0,
            "{i:?}"
        );
        // Rounds 5 % apart: the interval widens to span them.
        let spread = rounds(100.0, &[-0.05, 0.0, 0.05], 10, 1);
        let j = median_interval(&spread, 7).unwrap();
        assert!(j.high - j.low > 5.0, "{j:?}");
        assert_eq!(median_interval(&spread, 7), Some(j), "seeded");
    }

    #[test]
    fn too_few_samples_give_no_interval() {
        assert_eq!(median_interval(&[vec![1.0, 2.0, 3.0, 4.0]], 1), None);
        assert_eq!(median_interval(&[vec![1.0], vec![2.0]], 1), None);
        assert!(median_interval(&[vec![1.0; 3], vec![2.0; 3]], 1).is_some());
    }

    #[test]
    fn ratio_intervals_hold_the_ratio() {
        let base = rounds(200.0, &[0.0, 0.01, -0.01], 8, 2);
        let fast = rounds(50.0, &[0.0, 0.01, -0.01], 8, 3);
        let r = ratio_interval(&base, &fast, 9).unwrap();
        assert!(
            r.low < 4.0 && r.high > 4.0 && r.low > 3.8 && r.high < 4.2,
            "{r:?}"
        );
    }

    /// The geometric mean of 100 and 400 is 200; its interval holds the
    /// geometric mean of the two medians, and rounds 1 % apart keep it
    /// within a few percent.
    #[test]
    fn geomean_intervals_hold_the_geometric_mean() {
        let noise = [0.0, 0.01, -0.01];
        let (a, b) = (rounds(100.0, &noise, 8, 1), rounds(400.0, &noise, 8, 2));
        let mean = (median(&mut a.concat()) * median(&mut b.concat())).sqrt();
        let figures = [
            median_replicates(&a, 3).unwrap(),
            median_replicates(&b, 4).unwrap(),
        ];
        let i = geomean_interval(&figures).unwrap();
        assert!(
            i.low <= mean && mean <= i.high && i.high - i.low < 10.0,
            "{i:?} around {mean}"
        );
        assert_eq!(geomean_interval(&[]), None);
    }

    /// A total's speedup is the ratio of sums, dominated by its largest
    /// part: 1000 + 10 over 100 + 10 is 9.2×, not the small part's 1×.
    #[test]
    fn sum_ratio_intervals_hold_the_ratio_of_sums() {
        let noise = [0.0, 0.01, -0.01];
        let (slow_big, slow_small) = (rounds(1000.0, &noise, 8, 4), rounds(10.0, &noise, 8, 5));
        let (fast_big, fast_small) = (rounds(100.0, &noise, 8, 6), rounds(10.0, &noise, 8, 7));
        let r =
            sum_ratio_interval(&[&slow_big, &slow_small], &[&fast_big, &fast_small], 3).unwrap();
        let want = 1010.0 / 110.0;
        assert!(
            r.low < want && r.high > want && r.high - r.low < 0.5,
            "{r:?}"
        );
        assert_eq!(
            sum_ratio_interval(&[&slow_big, &[vec![1.0]]], &[&fast_big, &fast_small], 3),
            None,
            "a part with too few samples"
        );
    }
}
