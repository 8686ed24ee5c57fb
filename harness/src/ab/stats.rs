//! The decision rule of paired A/B timing: Student's t over pairs of
//! processes, at the level the run's family of records calls for.
//!
//! Each pair is one sample of A and one of B taken back to back, so the
//! host's drift is common to both and cancels in `ln(B/A)`. But pairs
//! from one pair of processes all carry what those processes landed with
//! (addresses, pages, the core's predictors: `instances.rs`), so they are
//! not independent: the independent unit is the pair of processes. Each
//! one's change is the median of its pairs' log-ratios (which the long
//! right tail of a shared machine, preemption, cannot move), taken for
//! each order of the pair apart and averaged, since a sample that follows
//! its own build's last one runs warmer (`taken::Taken`); the record's
//! change is their mean, and its interval Student's t with k − 1 degrees
//! of freedom for k pairs of processes.
//!
//! One level for the whole run: `1 − α ÷ m` for the m records timed, so
//! the chance that any record of the run is called moved when none moved
//! beyond the threshold is at most α ([`ALPHA_RUN`], 1 %; Bonferroni,
//! Holm's first step, chosen over Holm's later steps so that every row's
//! printed interval is the one its verdict was read from). Three
//! outcomes from that interval and the threshold `t`: regressed or
//! improved only when it lies wholly beyond `±t`, no change when it lies
//! within `±t`, inconclusive otherwise.
//!
//! How many pairs of processes to take is decided on their spread, never
//! on their mean: the spread does not move when every ratio moves, so
//! stopping on it leaves the error rate as it is ([`processes_needed`]).

use super::student;
use super::taken::Taken;
use reports::interval::Interval;

/// The run's family-wise false-alarm rate: at most one run in a hundred
/// calls a record moved beyond the threshold when none did.
pub const ALPHA_RUN: f64 = 0.01;

/// Fewest undisturbed pairs of each order a pair of processes needs for
/// its change to count; a slice cut short by the cap may have fewer.
pub const MIN_PER_ORDER: usize = 3;

/// Fewest pairs of processes a record is judged on.
pub const MIN_PROCESSES: usize = 2;

/// Most pairs per record, bounding memory and the results file.
pub const MAX_PAIRS: usize = 4000;

/// The power the stopping rule is built for: a change of twice the
/// threshold is found 95 times in 100 once the pairs of processes are as
/// many as [`processes_needed`] says.
pub const POWER: f64 = 0.95;

/// The two-sided level of every time interval of a run of `records`.
pub fn level(records: usize) -> f64 {
    1.0 - ALPHA_RUN / records.max(1) as f64
}

/// Each pair of processes' change ([`process_change`]), for the pairs
/// `kept` of `pairs`, taken as `taken` says; a pair of processes with
/// fewer than [`MIN_PER_ORDER`] kept pairs of either order gives none.
pub fn process_changes(pairs: &[(f64, f64)], taken: &[Taken], kept: &[usize]) -> Vec<f64> {
    by_process(pairs, taken, kept.iter().copied())
        .iter()
        .filter_map(process_change)
        .collect()
}

/// One pair of processes' change from its log-ratios of each order (A
/// first, B first): the mean of the two orders' medians, so what
/// following oneself is worth cancels (`taken::Taken`); `None` with fewer
/// than [`MIN_PER_ORDER`] of either.
pub fn process_change(orders: &[Vec<f64>; 2]) -> Option<f64> {
    let [x, y] = orders.each_ref().map(|d| {
        (d.len() >= MIN_PER_ORDER)
            .then(|| crate::stats::summarize(d).map(|s| s.median))
            .flatten()
    });
    Some((x? + y?) / 2.0)
}

/// The log-ratios `ln(B ÷ A)` of the pairs `kept` of `pairs`, grouped by
/// the pair of processes that took them (`taken`), and within one by
/// order: A first, then B first. A group may be empty.
pub fn by_process(
    pairs: &[(f64, f64)],
    taken: &[Taken],
    kept: impl Iterator<Item = usize>,
) -> Vec<[Vec<f64>; 2]> {
    let mut by: Vec<[Vec<f64>; 2]> = Vec::new();
    for i in kept {
        let Taken {
            instance, b_first, ..
        } = taken[i];
        if by.len() <= instance {
            by.resize(instance + 1, Default::default());
        }
        let (a, b) = pairs[i];
        by[instance][usize::from(b_first)].push((b / a).ln());
    }
    by
}

/// The mean and the standard deviation of `changes` (at least two).
fn mean_sd(changes: &[f64]) -> (f64, f64) {
    let k = changes.len() as f64;
    let mean = changes.iter().sum::<f64>() / k;
    let var = changes.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / (k - 1.0);
    (mean, var.sqrt())
}

/// The t interval's half-width, in standard errors, for `k` pairs of
/// processes at `level`.
fn half_width(k: usize, level: f64) -> f64 {
    student::quantile(1.0 - (1.0 - level) / 2.0, (k - 1) as f64)
}

/// How a record's time moved, read from its interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    /// The interval lies wholly beyond `+t`.
    Slower,
    /// The interval lies wholly beyond `−t`.
    Faster,
    /// The interval lies within `±t`.
    Within,
    /// The interval holds `±t` or straddles one of them.
    Unsettled,
}

/// One record's paired comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// `B ÷ A`: the exponential of the mean change of the pairs of processes.
    pub ratio: f64,
    /// Its interval at `level`.
    pub interval: Interval,
    /// The two-sided level of the interval.
    pub level: f64,
    /// The pairs of processes judged.
    pub processes: usize,
    /// The spread of their changes, a log-ratio's σ.
    pub between: f64,
    /// What the interval says against the threshold.
    pub moved: Moved,
    /// How often pairs of processes as many as these, spread as they are,
    /// find a change of twice the threshold.
    pub power: f64,
    /// The pairs of processes that would reach [`POWER`].
    pub needed: usize,
}

/// Judges the changes of the pairs of processes (log-ratios) against a
/// threshold in percent at `level`; `None` with fewer than
/// [`MIN_PROCESSES`].
pub fn judge(changes: &[f64], threshold_pct: f64, level: f64) -> Option<Judged> {
    let k = changes.len();
    if k < MIN_PROCESSES {
        return None;
    }
    let (mean, sd) = mean_sd(changes);
    let se = sd / (k as f64).sqrt();
    let half = half_width(k, level) * se;
    let (low, high) = (mean - half, mean + half);
    // The threshold in percent on both sides, as the interval is printed,
    // so that no row's verdict contradicts the figures beside it.
    let (up, down) = (
        (1.0 + threshold_pct / 100.0).ln(),
        (1.0 - threshold_pct / 100.0).ln(),
    );
    let moved = if low > up {
        Moved::Slower
    } else if high < down {
        Moved::Faster
    } else if low >= down && high <= up {
        Moved::Within
    } else {
        Moved::Unsettled
    };
    Some(Judged {
        ratio: mean.exp(),
        interval: Interval {
            low: low.exp(),
            high: high.exp(),
        },
        level,
        processes: k,
        between: sd,
        moved,
        power: power(k, sd, up, level),
        needed: processes_needed(sd, threshold_pct, level),
    })
}

/// How often `k` pairs of processes whose changes spread by `sd` find a
/// change of twice the log threshold `t`: how often the interval's lower
/// end lies beyond `t`. That is a noncentral t's tail beyond the
/// quantile `q`, with noncentrality `δ = t ÷ se`; its normal
/// approximation `Φ((δ − q(1 − 1/4ν)) ÷ √(1 + q²/2ν))`, ν = k − 1, holds
/// within a point or two where a shifted central t claims several more.
fn power(k: usize, sd: f64, t: f64, level: f64) -> f64 {
    let se = (sd / (k as f64).sqrt()).max(1e-12);
    let (q, nu) = (half_width(k, level), (k - 1) as f64);
    normal_cdf((t / se - q * (1.0 - 0.25 / nu)) / (1.0 + q * q / (2.0 * nu)).sqrt())
}

/// The standard normal distribution function (Abramowitz and Stegun
/// 7.1.26, within 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
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

/// The pairs of processes whose changes spread by `sd` (a log-ratio's σ)
/// need for a change of twice the threshold to be found [`POWER`] of the
/// time at `level`: the fewest k whose [`power`] reaches it, at least
/// [`MIN_PROCESSES`] and at most 1000.
pub fn processes_needed(sd: f64, threshold_pct: f64, level: f64) -> usize {
    let t = (1.0 + threshold_pct / 100.0).ln();
    // The power grows with k: a binary search over the counts.
    let ks: Vec<usize> = (MIN_PROCESSES..=1000).collect();
    ks[ks
        .partition_point(|&k| power(k, sd, t, level) < POWER)
        .min(ks.len() - 1)]
}

/// Whether `changes` of the pairs of processes so far are enough for
/// their spread: as many as [`processes_needed`] and at least three.
pub fn settled(changes: &[f64], threshold_pct: f64, level: f64) -> bool {
    changes.len() >= 3
        && changes.len() >= processes_needed(mean_sd(changes).1, threshold_pct, level)
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

    /// A seeded source of normal deviates (Box–Muller over an LCG).
    pub(in crate::ab) struct Normal(pub(in crate::ab) u64);

    impl Normal {
        fn unit(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        }

        pub(in crate::ab) fn next(&mut self) -> f64 {
            let (u, v) = (self.unit(), self.unit());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        }
    }

    /// One record's changes from `k` pairs of processes: the true change
    /// `shift` (a log-ratio), each pair of processes off by its own fixed
    /// offset of spread `tau`, and its median of pairs off by `within`.
    fn record(n: &mut Normal, k: usize, shift: f64, tau: f64, within: f64) -> Vec<f64> {
        (0..k)
            .map(|_| shift + tau * n.next() + within * n.next())
            .collect()
    }

    /// What the printed interval says, read as a reader of the table
    /// reads it: in percent against the threshold.
    fn read_off(j: &Judged, threshold_pct: f64) -> Moved {
        let (low, high) = (
            (j.interval.low - 1.0) * 100.0,
            (j.interval.high - 1.0) * 100.0,
        );
        if low > threshold_pct {
            Moved::Slower
        } else if high < -threshold_pct {
            Moved::Faster
        } else if low >= -threshold_pct && high <= threshold_pct {
            Moved::Within
        } else {
            Moved::Unsettled
        }
    }

    /// How many of `runs` runs of `records` records each, at threshold
    /// 1 % and the run's level, call some record moved.
    fn alarms(runs: usize, records: usize, k: usize, shift: f64, tau: f64) -> usize {
        let mut n = Normal(42);
        (0..runs)
            .filter(|_| {
                (0..records).any(|_| {
                    let changes = record(&mut n, k, shift, tau, 0.001);
                    let j = judge(&changes, 1.0, level(records)).unwrap();
                    assert_eq!(j.moved, read_off(&j, 1.0), "{j:?}");
                    matches!(j.moved, Moved::Slower | Moved::Faster)
                })
            })
            .count()
    }

    /// The failure the rule replaces: 14 records, each pair of processes
    /// off by a fixed 1.6 % offset of its own. Judged on the pairs of
    /// processes, at the run's level, a run calls a record moved at most
    /// one time in a hundred, even when every record sits exactly on the
    /// threshold (the worst case for a false alarm).
    #[test]
    fn a_run_of_14_records_false_alarms_at_most_1_in_100() {
        let runs = 400;
        for (shift, tau) in [(0.0, 0.016), (0.0, 0.002), (1.01f64.ln(), 0.004)] {
            let a_a = alarms(runs, 14, 10, shift, tau);
            assert!(
                a_a * 100 <= runs,
                "shift {shift}, tau {tau}: {a_a} of {runs} runs"
            );
        }
    }

    /// Twice the threshold is found at least 95 times in 100 with as many
    /// pairs of processes as the spread asks for, and the rule says so.
    #[test]
    fn twice_the_threshold_is_found_with_the_processes_the_spread_needs() {
        let (tau, level) = (0.004, level(14));
        let k = processes_needed(tau, 1.0, level);
        assert!((6..40).contains(&k), "{k}");
        let mut n = Normal(7);
        let runs = 400;
        let found = (0..runs)
            .filter(|_| {
                let changes = record(&mut n, k, 1.02f64.ln(), tau, 0.0);
                judge(&changes, 1.0, level).unwrap().moved == Moved::Slower
            })
            .count();
        assert!(found * 100 >= runs * 93, "{found} of {runs}");
        // The power the rule promises is what it reports at that count,
        // and one fewer falls short.
        let t = 1.01f64.ln();
        assert!(
            power(k, tau, t, level) >= POWER,
            "{}",
            power(k, tau, t, level)
        );
        assert!(power(k - 1, tau, t, level) < POWER);
    }

    #[test]
    fn the_interval_reads_three_ways_against_the_threshold() {
        let level = level(1);
        let around = |c: f64| [c - 0.001, c, c + 0.001, c - 0.0005, c + 0.0005];
        let read = |c: f64| judge(&around(c), 1.0, level).unwrap();
        assert_eq!(read(0.05).moved, Moved::Slower);
        assert_eq!(read(-0.05).moved, Moved::Faster);
        assert_eq!(read(0.0).moved, Moved::Within);
        assert_eq!(read(1.01f64.ln()).moved, Moved::Unsettled);
        let j = read(0.05);
        assert!((j.ratio - 0.05f64.exp()).abs() < 1e-12, "{j:?}");
        assert!(
            j.interval.low < j.ratio && j.ratio < j.interval.high,
            "{j:?}"
        );
        assert_eq!((j.processes, j.level), (5, 0.99));
        // One pair of processes: nothing says how far the next would be.
        assert_eq!(judge(&[0.01], 1.0, level), None);
    }

    #[test]
    fn wider_processes_need_more_of_them_and_the_level_follows_the_family() {
        let one = level(1);
        assert!((one - 0.99).abs() < 1e-12 && (level(10) - 0.999).abs() < 1e-12);
        let quiet = processes_needed(0.001, 1.0, one);
        let busy = processes_needed(0.01, 1.0, one);
        assert!(quiet <= 4 && busy > 5 * quiet, "{quiet} {busy}");
        assert!(processes_needed(0.004, 1.0, level(14)) > processes_needed(0.004, 1.0, one));
        assert!(settled(&[0.0, 0.001, -0.001, 0.0005], 1.0, one));
        assert!(!settled(&[0.0, 0.03, -0.03, 0.01], 1.0, one));
        assert!(!settled(&[0.0, 0.0], 1.0, one));
    }

    #[test]
    fn each_pair_of_processes_gives_the_median_of_its_own_pairs() {
        let pairs: Vec<(f64, f64)> = (0..30)
            .map(|i| (100.0, if i < 15 { 101.0 } else { 103.0 }))
            .collect();
        let taken = taken((0..30).map(|i| i / 15));
        let all: Vec<usize> = (0..30).collect();
        let c = process_changes(&pairs, &taken, &all);
        assert_eq!(c.len(), 2);
        assert!((c[0] - 1.01f64.ln()).abs() < 1e-12 && (c[1] - 1.03f64.ln()).abs() < 1e-12);
        // Too few kept pairs of one order in the second: it gives nothing.
        let some: Vec<usize> = (0..20).collect();
        assert_eq!(process_changes(&pairs, &taken, &some).len(), 1);
    }

    /// A B B A …: the sample after its own build's runs warm. With the
    /// ratios taking turns at 0.75 and 1.3 and a few pairs of one order
    /// set aside, the median of all of them lands on one mode or the
    /// other; each order's median, averaged, lands on the change.
    #[test]
    fn following_oneself_cancels_between_the_orders() {
        let (warm, change) = (0.27f64, 0.02f64);
        let pairs: Vec<(f64, f64)> = (0..60)
            .map(|i| {
                let b_first = i % 2 == 1;
                let d = change + if b_first { -warm } else { warm };
                (
                    1000.0,
                    1000.0 * (d + 0.001 * ((i * 37 % 11) as f64 - 5.0)).exp(),
                )
            })
            .collect();
        let taken = taken(std::iter::repeat_n(0, 60));
        // Four pairs of one order set aside, as disturbance does.
        let kept: Vec<usize> = (0..60).filter(|i| ![3, 9, 15, 21].contains(i)).collect();
        let c = process_changes(&pairs, &taken, &kept);
        assert!((c[0] - change).abs() < 0.003, "{c:?}");
        let whole = median_change(&kept.iter().map(|&i| pairs[i]).collect::<Vec<_>>()).unwrap();
        assert!((whole - change).abs() > 0.2, "{whole}");
    }

    /// The median of the pairs' log-ratios `ln(B ÷ A)`, orders pooled;
    /// `None` for no pairs.
    pub(in crate::ab) fn median_change(pairs: &[(f64, f64)]) -> Option<f64> {
        let d: Vec<f64> = pairs.iter().map(|(a, b)| (b / a).ln()).collect();
        crate::stats::summarize(&d).map(|s| s.median)
    }

    /// Where pairs were taken: by the pair of processes `instances` names,
    /// in the order A B, B A, A B, … as `pairs.rs` takes them.
    pub(in crate::ab) fn taken(instances: impl Iterator<Item = usize>) -> Vec<Taken> {
        instances
            .enumerate()
            .map(|(k, instance)| Taken {
                instance,
                window: 0,
                b_first: k % 2 == 1,
            })
            .collect()
    }

    #[test]
    fn the_tails_are_exact() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-4);
        assert!((normal_cdf(-1.0) - 0.158_655).abs() < 1e-5);
        assert!((upper_tail(10, 10) - 1.0 / 1024.0).abs() < 1e-12);
        assert!((upper_tail(4, 2) - 11.0 / 16.0).abs() < 1e-12);
        assert!((upper_tail(5, 0) - 1.0).abs() < 1e-12);
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
}
