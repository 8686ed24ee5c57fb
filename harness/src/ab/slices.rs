//! How long each pair of processes measures: the split of a record's
//! time between starting processes and taking pairs that narrows its
//! interval most.
//!
//! A pair of processes costs a restart `r` (both builds started and
//! loaded, a pair not kept) and then `n` pairs at `c` each. Its change,
//! the median of its pairs' log-ratios, varies by `τ² + w²/n`: `τ²` what
//! the processes landed with, fixed for their life (`instances.rs`), and
//! `w²/n` the noise of a median of `n` pairs. The record's change is the
//! mean over the pairs of processes that fit in its time, so its variance
//! is `(τ² + w²/n)(r + n·c)` over the time, least at
//! `n = (w/τ)·√(r/c)`: the optimum of Kalibera and Jones ("Rigorous
//! benchmarking in reasonable time", 2013) for two levels of repetition.
//! Where the processes differ (τ of a percent or more, on shared hosts)
//! that is a few dozen pairs, and slices far shorter than the budget's
//! tenth find as many pairs of processes in a third of the time; where
//! they do not (τ ≈ 0), more pairs a process cost nothing, and the
//! slice stays the budget's tenth.
//!
//! The split follows the spreads and the costs only, never the changes'
//! mean, so the test's error rate holds; it is chosen once
//! [`SETTLE_AFTER`] pairs of processes have each given a change.

use super::pairs::Measured;
use super::stats::{self, MIN_PER_ORDER};
use std::time::Duration;

/// Pairs of processes whose spreads must be known before the slices are
/// shortened: fewer tell `τ` from `w` too poorly.
pub const SETTLE_AFTER: usize = 4;

/// Fewest pairs a slice is made for: four times what a pair of processes
/// needs for its change to count, so that pairs set aside as disturbed
/// rarely leave it short, and a slow mode still shows within it.
const FEWEST_PAIRS: f64 = (4 * 2 * MIN_PER_ORDER) as f64;

/// The two spreads of a record's log-ratios so far.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spreads {
    /// `w`: one pair's spread within a pair of processes, scaled so that
    /// `w²/n` is the variance of a median of `n` of them.
    within: f64,
    /// `τ`: the spread of what the pairs of processes landed with.
    between: f64,
}

/// The spreads of `m`'s pairs: `None` until [`SETTLE_AFTER`] pairs of
/// processes have at least [`MIN_PER_ORDER`] pairs of each order.
fn spreads(m: &Measured) -> Option<Spreads> {
    // Each pair of processes' change, its pairs' MAD about their own
    // order's median, and the pairs whose mean has its change's variance
    // (`n₁` and `n₂` of the two orders: 4 ÷ (1/n₁ + 1/n₂), n when even).
    let groups: Vec<(f64, f64, f64)> = stats::by_process(&m.pairs, &m.taken, 0..m.pairs.len())
        .iter()
        .filter_map(|orders| {
            let change = stats::process_change(orders)?;
            let mut about = Vec::new();
            for d in orders {
                let centre = crate::stats::summarize(d)?.median;
                about.extend(d.iter().map(|x| x - centre));
            }
            let n = 4.0 / orders.iter().map(|d| 1.0 / d.len() as f64).sum::<f64>();
            Some((change, crate::stats::summarize(&about)?.mad, n))
        })
        .collect();
    let k = groups.len();
    if k < SETTLE_AFTER {
        return None;
    }
    // A MAD's σ, and a median's variance π/2 times a mean's.
    let w2: Vec<f64> = groups
        .iter()
        .map(|&(_, mad, _)| std::f64::consts::FRAC_PI_2 * (1.4826 * mad).powi(2))
        .collect();
    let within2 = w2.iter().sum::<f64>() / k as f64;
    let mean = groups.iter().map(|g| g.0).sum::<f64>() / k as f64;
    let observed2 = groups.iter().map(|g| (g.0 - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let noise2 = groups.iter().zip(&w2).map(|(g, w2)| w2 / g.2).sum::<f64>() / k as f64;
    Some(Spreads {
        within: within2.sqrt(),
        between: (observed2 - noise2).max(0.0).sqrt(),
    })
}

/// The slice the next pair of processes measures: `n = (w/τ)·√(r/c)`
/// pairs at `pair` each, a restart costing `restart`, within
/// [`FEWEST_PAIRS`] pairs and `longest`; `longest` until the spreads are
/// known.
pub fn next(m: &Measured, restart: Duration, pair: Duration, longest: Duration) -> Duration {
    let Some(s) = spreads(m) else {
        return longest;
    };
    let c = pair.as_secs_f64().max(1e-9);
    let n = if s.between > 0.0 {
        s.within / s.between * (restart.as_secs_f64() / c).sqrt()
    } else {
        f64::INFINITY
    };
    let fewest = Duration::from_secs_f64(FEWEST_PAIRS * c);
    Duration::from_secs_f64((n * c).min(longest.as_secs_f64())).max(fewest.min(longest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ab::stats::tests::{Normal, taken};

    /// Pairs from `k` pairs of processes of `n` pairs each: each pair of
    /// processes off by its own offset of spread `tau`, each pair by
    /// `within` about it.
    fn measured(k: usize, n: usize, tau: f64, within: f64) -> Measured {
        let mut g = Normal(7);
        let (mut pairs, mut instances) = (Vec::new(), Vec::new());
        for i in 0..k {
            let offset = tau * g.next();
            for _ in 0..n {
                pairs.push((1.0, (offset + within * g.next()).exp()));
                instances.push(i);
            }
        }
        Measured {
            pairs,
            taken: taken(instances.into_iter()),
            set_aside: 0,
            probe: "rusage",
            elapsed: Duration::ZERO,
        }
    }

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn spreads_part_the_processes_offsets_from_the_pairs_noise() {
        let s = spreads(&measured(40, 50, 0.012, 0.02)).unwrap();
        assert!((s.between - 0.012).abs() < 0.004, "{s:?}");
        assert!((s.within - 0.02 * 1.2533).abs() < 0.004, "{s:?}");
        let s = spreads(&measured(40, 50, 0.0, 0.02)).unwrap();
        assert!(s.between < 0.002, "{s:?}");
    }

    #[test]
    fn the_warmth_of_following_oneself_is_neither_spread() {
        // The ratios take turns at about 0.75 and 1.3 (`taken::Taken`).
        let mut m = measured(40, 50, 0.012, 0.02);
        for (pair, t) in m.pairs.iter_mut().zip(&m.taken) {
            pair.1 *= if t.b_first { 0.75 } else { 1.3 };
        }
        let s = spreads(&m).unwrap();
        assert!((s.between - 0.012).abs() < 0.004, "{s:?}");
        assert!((s.within - 0.02 * 1.2533).abs() < 0.004, "{s:?}");
    }

    #[test]
    fn processes_that_differ_get_short_slices() {
        // τ 1.2 %, w 1.25 % (a median's, of pairs spread by 1 %):
        // n = 1.04 · √(20 / 4) ≈ 2.3 pairs, so the fewest, 24 of 4 ms.
        let m = measured(10, 50, 0.012, 0.01);
        assert_eq!(next(&m, MS(20), MS(4), MS(200)), MS(96));
        // A dear restart, and noisy pairs, buy more pairs a process:
        // n ≈ 3.1 · √(2000 / 4) ≈ 70 pairs.
        let m = measured(10, 50, 0.012, 0.03);
        let slice = next(&m, MS(2000), MS(4), MS(800));
        assert!(slice > MS(96) && slice < MS(800), "{slice:?}");
    }

    #[test]
    fn processes_alike_or_too_few_keep_long_slices() {
        // τ 0: only the estimate's own noise shortens the slice, to a
        // length where the restarts cost little.
        let slice = next(&measured(40, 50, 0.0, 0.02), MS(20), MS(4), MS(200));
        assert!(slice >= MS(120), "{slice:?}");
        let few = measured(SETTLE_AFTER - 1, 50, 0.05, 0.01);
        assert_eq!(next(&few, MS(20), MS(4), MS(200)), MS(200));
        // The fewest pairs never make a slice longer than the longest.
        let m = measured(10, 50, 0.05, 0.01);
        assert_eq!(next(&m, MS(20), MS(40), MS(200)), MS(200));
    }
}
