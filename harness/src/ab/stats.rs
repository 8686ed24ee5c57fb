//! The decision rule of paired A/B timing: a sign test on paired log-ratios.
//!
//! Each pair is one sample of A and one of B taken back to back, so the
//! host's drift is common to both and cancels in `ln(B/A)`. The sign test
//! asks whether more pairs lie beyond the threshold than chance allows; it
//! assumes nothing about the shape of the noise, so the long right tail of
//! a shared machine (preemption) cannot fake a change; a tail on one side
//! only (one build's slow mode) can, and is set aside first (`modes.rs`).
//! Holm's correction across records comes from
//! [`reports::compare::holm_rejects`].
//!
//! How many pairs to take is decided on their spread, never on their
//! ratios: the spread (a scaled median absolute deviation of the
//! log-ratios about their own median) does not move when every ratio
//! moves, so stopping on it leaves the test's error rate as it is.

use reports::interval::Interval;

/// Fewest pairs a record is judged on: ten pairs all one way is already
/// p ≈ 0.002.
pub const MIN_PAIRS: usize = 10;
/// Most pairs per record, bounding memory and the results file.
pub const MAX_PAIRS: usize = 4000;

/// The spread of the pairs' log-ratios: 1.4826 times their median
/// absolute deviation about their median, which is a normal's σ and
/// ignores the long tail; `None` for no pairs.
pub fn spread(pairs: &[(f64, f64)]) -> Option<f64> {
    let d: Vec<f64> = pairs.iter().map(|(a, b)| (b / a).ln()).collect();
    crate::stats::summarize(&d).map(|s| 1.4826 * s.mad)
}

/// The power the stopping rule is built for: a change of twice the
/// threshold is found 99 times in 100 once the pairs are as many as
/// [`pairs_needed`] says.
pub const POWER: f64 = 0.99;

/// `Φ⁻¹(POWER)`.
const Z_POWER: f64 = 2.3263;

/// `Φ⁻¹(1 − α/2)` for the two-sided 5 % level.
const Z_ALPHA: f64 = 1.96;

/// For pairs that spread as `pairs` do, the share `p` of them a change of
/// twice the threshold (at least 1 %) puts beyond the threshold: with the
/// log-ratios normal about the change, `p = Φ((change − threshold) ÷ σ)`.
fn share_beyond(pairs: &[(f64, f64)], threshold_pct: f64) -> Option<f64> {
    let sigma = spread(pairs)?;
    let t = (1.0 + threshold_pct / 100.0).ln();
    let change = (2.0 * t).max(1.01f64.ln());
    Some(normal_cdf((change - t) / sigma.max(1e-12)))
}

/// The pairs the sign test needs, for pairs that spread as `pairs` do,
/// to find a change of twice the threshold [`POWER`] of the time at the
/// 5 % level: a one-sample binomial test of the share beyond the
/// threshold against ½ needs `((1.96 · ½ + z · √(p(1−p))) ÷ (p − ½))²`
/// pairs, `z = Φ⁻¹(POWER)`. At least [`MIN_PAIRS`], at most
/// [`MAX_PAIRS`].
pub fn pairs_needed(pairs: &[(f64, f64)], threshold_pct: f64) -> usize {
    let Some(p) = share_beyond(pairs, threshold_pct) else {
        return MIN_PAIRS;
    };
    let n = ((Z_ALPHA * 0.5 + Z_POWER * (p * (1.0 - p)).sqrt()) / (p - 0.5)).powi(2);
    (n.ceil() as usize).clamp(MIN_PAIRS, MAX_PAIRS)
}

/// The power `pairs` reached: how often pairs as many as these, spread
/// as they are, find a change of twice the threshold (the inverse of
/// [`pairs_needed`]).
pub fn power(pairs: &[(f64, f64)], threshold_pct: f64) -> f64 {
    let Some(p) = share_beyond(pairs, threshold_pct) else {
        return 0.0;
    };
    let n = pairs.len() as f64;
    normal_cdf((n.sqrt() * (p - 0.5) - Z_ALPHA * 0.5) / (p * (1.0 - p)).sqrt().max(1e-12))
}

/// The standard normal distribution function (Abramowitz and Stegun
/// 7.1.26, within 1.5e-7).
pub(super) fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// One record's paired comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The median of `B ÷ A` over the pairs.
    pub ratio: f64,
    /// Its 95 % distribution-free interval (order statistics).
    pub interval: Interval,
    /// The two-sided p-value of "moved beyond the threshold".
    pub p_value: f64,
}

/// Judges pairs `(a, b)` against a threshold in percent; `None` when there
/// are fewer than [`MIN_PAIRS`] pairs.
pub fn judge(pairs: &[(f64, f64)], threshold_pct: f64) -> Option<Judged> {
    if pairs.len() < MIN_PAIRS {
        return None;
    }
    let mut d: Vec<f64> = pairs.iter().map(|(a, b)| (b / a).ln()).collect();
    d.sort_by(f64::total_cmp);
    let t = (1.0 + threshold_pct / 100.0).ln();
    let n = d.len();
    let slower = d.iter().filter(|&&x| x > t).count();
    let faster = d.iter().filter(|&&x| x < -t).count();
    let p_value = (2.0 * upper_tail(n, slower.max(faster))).min(1.0);
    // The median's 95 % interval: the order statistics a Binomial(n, ½)
    // count puts around the middle.
    let half_width = 1.96 * (n as f64).sqrt() / 2.0;
    let low = ((n as f64 / 2.0 - half_width).floor().max(0.0)) as usize;
    let high = ((n as f64 / 2.0 + half_width).ceil() as usize).min(n - 1);
    let median = if n % 2 == 1 {
        d[n / 2]
    } else {
        (d[n / 2 - 1] + d[n / 2]) / 2.0
    };
    Some(Judged {
        ratio: median.exp(),
        interval: Interval {
            low: d[low].exp(),
            high: d[high].exp(),
        },
        p_value,
    })
}

/// `P(X ≥ k)` for `X ~ Binomial(n, ½)`, summed exactly in log space.
pub(super) fn upper_tail(n: usize, k: usize) -> f64 {
    let ln2n = n as f64 * std::f64::consts::LN_2;
    let mut ln_choose = 0.0; // ln C(n, 0)
    let mut sum = 0.0;
    for j in 0..=n {
        if j >= k {
            sum += (ln_choose - ln2n).exp();
        }
        ln_choose += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
    }
    sum.min(1.0)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use reports::compare::{ALPHA, holm_rejects};

    /// A seeded generator of the noise a shared host adds to one sample:
    /// a slow drift common to a pair, 1.5 % jitter of each sample, and one
    /// sample in twenty slowed by up to 30 % (preemption).
    struct Host {
        x: u64,
        drift: f64,
    }

    impl Host {
        fn unit(&mut self) -> f64 {
            self.x = self
                .x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.x >> 11) as f64 / (1u64 << 53) as f64
        }

        fn sample(&mut self, centre: f64) -> f64 {
            let jitter = 1.0 + 0.015 * (self.unit() - 0.5) * 2.0;
            let tail = if self.unit() < 0.05 {
                1.0 + 0.3 * self.unit()
            } else {
                1.0
            };
            centre * self.drift * jitter * tail
        }

        /// `n` pairs of A around 1000 and B `shift` times slower, in the
        /// driver's A B B A order.
        fn pairs(&mut self, n: usize, shift: f64) -> Vec<(f64, f64)> {
            (0..n)
                .map(|i| {
                    self.drift = (self.drift * (1.0 + 0.01 * (self.unit() - 0.5))).clamp(0.9, 1.1);
                    if i % 2 == 0 {
                        let a = self.sample(1000.0);
                        (a, self.sample(1000.0 * shift))
                    } else {
                        let b = self.sample(1000.0 * shift);
                        (self.sample(1000.0), b)
                    }
                })
                .collect()
        }
    }

    /// What 2 s per record holds: pairs of two 2 ms samples plus the
    /// requests' overhead.
    fn planned() -> usize {
        476
    }

    fn flagged(seed: u64, shift: f64, threshold: f64) -> bool {
        let mut host = Host {
            x: seed,
            drift: 1.0,
        };
        let judged = judge(&host.pairs(planned(), shift), threshold).unwrap();
        holm_rejects(&[judged.p_value], ALPHA)[0]
    }

    #[test]
    fn a_a_flags_at_most_5_percent_and_a_1_percent_shift_at_least_90() {
        let runs = 200;
        for threshold in [0.0, 0.5] {
            let a_a = (0..runs).filter(|&s| flagged(s, 1.0, threshold)).count();
            eprintln!("A/A at threshold {threshold}%: {a_a} of {runs} flagged");
            assert!(
                a_a * 20 <= runs as usize,
                "A/A at {threshold}%: {a_a}/{runs}"
            );
        }
        for (shift, seeds) in [(1.01, 1000), (0.99, 5000)] {
            let moved = (0..runs)
                .filter(|&s| flagged(seeds + s, shift, 0.5))
                .count();
            eprintln!("shift {shift} at threshold 0.5%: {moved} of {runs} flagged");
            assert!(moved * 10 >= runs as usize * 9, "{shift}: {moved}/{runs}");
        }
    }

    #[test]
    fn the_interval_holds_the_shift_and_outliers_do_not_move_it() {
        let mut host = Host { x: 7, drift: 1.0 };
        let mut pairs = host.pairs(400, 1.03);
        for p in pairs.iter_mut().take(20) {
            p.1 *= 3.0;
        }
        let j = judge(&pairs, 1.0).unwrap();
        assert!(j.interval.low < 1.03 && j.interval.high > 1.03, "{j:?}");
        assert!(j.interval.high - j.interval.low < 0.01, "{j:?}");
        assert!(j.p_value < 1e-6, "{j:?}");
    }

    #[test]
    fn few_pairs_are_not_judged_and_the_tail_is_exact() {
        assert_eq!(judge(&[(1.0, 2.0); MIN_PAIRS - 1], 1.0), None);
        assert!((upper_tail(10, 10) - 1.0 / 1024.0).abs() < 1e-12);
        assert!((upper_tail(4, 2) - 11.0 / 16.0).abs() < 1e-12);
        assert!((upper_tail(5, 0) - 1.0).abs() < 1e-12);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-4);
        assert!((normal_cdf(-1.0) - 0.158_655).abs() < 1e-5);
    }

    /// Pairs whose log-ratios are `shift` plus a normal-looking spread of
    /// `sigma`, deterministic (quantiles of a normal, shuffled).
    pub(in crate::ab) fn spread_pairs(n: usize, sigma: f64, shift: f64) -> Vec<(f64, f64)> {
        (0..n)
            .map(|i| {
                let u = ((i * 7919) % n) as f64 / n as f64 + 0.5 / n as f64;
                // The logistic quantile is close enough to a normal's.
                let z = (u / (1.0 - u)).ln() / 1.702;
                (1000.0, 1000.0 * (shift + sigma * z).exp())
            })
            .collect()
    }

    #[test]
    fn wide_pairs_need_more_of_them_and_a_shift_does_not_change_how_many() {
        // Quiet: ±0.3 % resolves 0.5 % with the minimum.
        let quiet = pairs_needed(&spread_pairs(100, 0.003, 0.0), 0.5);
        assert!(quiet <= 40, "{quiet}");
        // The host's other tenants: ±3 % needs far more pairs than 100
        // (about 1050 for 99 % power).
        let noisy = pairs_needed(&spread_pairs(100, 0.03, 0.0), 0.5);
        assert!((950..1150).contains(&noisy), "{noisy}");
        // As many as needed reach the power; a tenth of them far less.
        let enough = spread_pairs(noisy, 0.03, 0.0);
        assert!((power(&enough, 0.5) - POWER).abs() < 0.002);
        let few = power(&spread_pairs(noisy / 10, 0.03, 0.0), 0.5);
        assert!((0.2..0.6).contains(&few), "{few}");
        let sigma = spread(&spread_pairs(1000, 0.01, 0.0)).unwrap();
        assert!((sigma - 0.01).abs() < 0.001, "{sigma}");
        // Stopping on the spread is stopping blind to the change.
        for shift in [-0.05, 0.01, 0.2] {
            assert_eq!(
                pairs_needed(&spread_pairs(100, 0.01, shift), 0.5),
                pairs_needed(&spread_pairs(100, 0.01, 0.0), 0.5)
            );
        }
    }
}
