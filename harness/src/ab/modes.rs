//! A slow mode on one side: judged on what both sides share.
//!
//! A build's samples can fall into a slow mode that no probe sees: the
//! time is lost inside the thread's CPU time (a predictor or cache state
//! of the core, a placement of the process's pages), and it can hit one
//! build far more than the other. Then a share of the pairs reads `B ÷ A`
//! well off the rest, all on one side, and the median of the ratios
//! follows them: a true +1 % has read −0.29 %, and once "improved −2.39 %".
//!
//! The pairs of one window of the batch, taken by one pair of processes
//! in one order, do the same work in the same processes from the same
//! cache state, so their log ratios gather about one value (the two
//! orders do not: a sample after its own build's runs warm,
//! `taken::Taken`, and pooled they are two modes). Its place is the middle of the shortest interval
//! holding half of them (the shorth), which a quarter of the pairs off to
//! one side does not move. The pairs' spread about their groups' centres
//! is found once over all the groups (the shorth's length as a normal's
//! σ), since a group holds a few dozen pairs at most; the pairs further
//! from their centre than [`BAND`] times it are set aside on both sides
//! alike, and the rest are judged. A window whose work changed moves as
//! a whole, so a change on some inputs only is not set aside.
//!
//! The centre is found within one pair of processes, never across them:
//! each pair of processes carries an offset of its own (`instances.rs`),
//! and the t interval over pairs of processes takes that in. Pooled, the
//! pairs of processes whose sides landed differently (A fast and B slow,
//! where most had both slow) looked like a slow mode, and the rule below
//! judged them alone. That is how an A/A record of the hex example can
//! read "+62 % regressed", as one did (the first test below is a model
//! of it).
//!
//! When the pairs set aside lie mostly on one side (over all pairs of
//! processes), one build's samples were bimodal, and the row says which:
//! the side whose own time (against its time in the band's pairs of its
//! group) moved in them. If that side's time rose there, the band is
//! what both share. If the other side's time fell there, in at least
//! [`FAST_SHARE`] of the pairs, the slow mode is that side's usual state
//! (more than half its samples, as once "improved −2.39 %" was): the
//! pairs beyond the band are where both run at their fast level, and
//! they are judged instead. In fewer, they are the exceptions of a real
//! change (a fast path now and then), set aside with the other outliers.

use super::stats;

/// How far from the pairs' centre, in units of their spread, a pair is
/// still judged: a normal's pairs are all kept (6 in 100 000 lie beyond).
const BAND: f64 = 4.0;

/// Fewest pairs of one group for its centre to be found; a group with
/// fewer keeps them all. Half of eight is four: a quarter of them off to
/// one side still leaves the shortest half in the rest.
const FEWEST_IN_GROUP: usize = 8;

/// Fewest pairs, over the groups with a centre, for their spread about
/// the centres to be found; with fewer, every pair is kept.
const FEWEST: usize = 20;

/// The p-value below which the pairs set aside are lopsided.
const LOPSIDED: f64 = 0.001;

/// The least share of the pairs (of the groups with a centre) where one
/// side sped up for them to be that side's fast level, its usual time a
/// slow mode. Fewer are the exceptions of a real change: a build planted
/// 70 % slower at 128 B ran at its old speed in 4 % of the pairs, and
/// judged on those alone it read +28 %, inconclusive. The slow mode this
/// rule is for held three quarters of a side's samples, and in a second
/// of pairs from nine pairs of processes its fast level has been found
/// in 30 of 198 pairs, 15 %: a tenth lies between, 2.5 times from 4 %.
const FAST_SHARE: f64 = 0.1;

/// A slow mode one build's samples fell into.
#[derive(Clone, Debug, PartialEq)]
pub struct SlowMode {
    /// `A` or `B`.
    pub side: &'static str,
    /// Its pairs set aside: that side's sample beyond the band.
    pub pairs: usize,
    /// The other side's pairs set aside.
    pub other: usize,
    /// The median slowdown of that side's pairs set aside, in percent.
    pub slower_pct: f64,
}

impl SlowMode {
    /// The sentence the row's concern gives it.
    pub fn describe(&self, judged: usize) -> String {
        format!(
            "{}'s samples are bimodal: {} of {} pairs {:.1} % slower on its side (against {} on the other), set aside with the other outliers",
            self.side,
            self.pairs,
            judged + self.pairs + self.other,
            self.slower_pct,
            self.other
        )
    }
}

/// The pairs to judge, as indices into the pairs, and what was set aside.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    /// The pairs both sides share.
    pub kept: Vec<usize>,
    /// Pairs set aside as outliers, either side.
    pub set_aside: usize,
    /// The slow mode, when the pairs set aside are lopsided.
    pub slow: Option<SlowMode>,
}

/// One pair beyond the band: its index, how far (a positive log-ratio),
/// and how far each side's own time lies from that side's time in the
/// band's pairs of its group (logs).
#[derive(Clone, Copy, Debug)]
struct Outlier {
    index: usize,
    off: f64,
    a: f64,
    b: f64,
}

/// The pairs `(a, b)` both sides share; `groups[i]` names the pair of
/// processes that took pair `i` and the inputs it ran, (instance,
/// window): pairs of one group do the same work in the same processes.
pub fn shared<G: Ord + Copy>(pairs: &[(f64, f64)], groups: &[G]) -> Shared {
    let d: Vec<f64> = pairs.iter().map(|(a, b)| (b / a).ln()).collect();
    // The pairs' indices in order of group (in order of index within
    // one), so each group is one run of them: one sort, not a pass over
    // every pair for each of the groups.
    let mut order: Vec<usize> = (0..d.len()).collect();
    order.sort_by_key(|&i| groups[i]);
    let runs = || order.chunk_by(|&i, &j| groups[i] == groups[j]);
    let off = offsets(&d, runs());
    let centred: Vec<f64> = off.iter().flatten().copied().collect();
    let centred_pairs = centred.len();
    let Some((_, sigma)) = shorth(centred, FEWEST) else {
        return Shared {
            kept: (0..d.len()).collect(),
            set_aside: 0,
            slow: None,
        };
    };
    let inside = |i: usize| off[i].is_none_or(|o| o.abs() <= BAND * sigma);
    let (low, high) = outliers(pairs, &off, runs(), inside);
    let mut kept: Vec<usize> = (0..d.len()).filter(|&i| inside(i)).collect();
    let slow = slow_mode(&low, &high, &mut kept, centred_pairs);
    Shared {
        set_aside: pairs.len() - kept.len(),
        kept,
        slow,
    }
}

/// Each pair's distance from its group's centre, `runs` holding each
/// group's indices; `None` in a group too small for one, whose pairs are
/// all kept.
fn offsets<'a>(d: &[f64], runs: impl Iterator<Item = &'a [usize]>) -> Vec<Option<f64>> {
    let mut off = vec![None; d.len()];
    for mine in runs {
        let Some((centre, _)) = shorth(mine.iter().map(|&i| d[i]).collect(), FEWEST_IN_GROUP)
        else {
            continue;
        };
        for &i in mine {
            off[i] = Some(d[i] - centre);
        }
    }
    off
}

/// The pairs beyond the band (not `inside`), with `B ÷ A` below it and
/// above it, each side's time taken against that side's in the band's
/// pairs of its group.
fn outliers<'a>(
    pairs: &[(f64, f64)],
    off: &[Option<f64>],
    runs: impl Iterator<Item = &'a [usize]>,
    inside: impl Fn(usize) -> bool,
) -> (Vec<Outlier>, Vec<Outlier>) {
    let (mut low, mut high) = (Vec::new(), Vec::new());
    for mine in runs {
        let level = |side: fn(&(f64, f64)) -> f64| {
            let logs: Vec<f64> = mine
                .iter()
                .filter(|&&i| inside(i))
                .map(|&i| side(&pairs[i]).ln())
                .collect();
            crate::stats::summarize(&logs).map_or(0.0, |s| s.median)
        };
        let (la, lb) = (level(|p| p.0), level(|p| p.1));
        for &i in mine.iter().filter(|&&i| !inside(i)) {
            let off = off[i].unwrap_or_default();
            let outlier = Outlier {
                index: i,
                off: off.abs(),
                a: pairs[i].0.ln() - la,
                b: pairs[i].1.ln() - lb,
            };
            if off > 0.0 { &mut high } else { &mut low }.push(outlier);
        }
    }
    (low, high)
}

/// The slow mode the pairs set aside show, when they lie mostly on one
/// side; when it is one side's usual time, `kept` becomes the pairs
/// where both ran at their fast level. `centred_pairs` counts the pairs
/// of the groups with a centre.
fn slow_mode(
    low: &[Outlier],
    high: &[Outlier],
    kept: &mut Vec<usize>,
    centred_pairs: usize,
) -> Option<SlowMode> {
    let set_aside = low.len() + high.len();
    let p = 2.0 * stats::upper_tail(set_aside, low.len().max(high.len()));
    if set_aside == 0 || p >= LOPSIDED {
        return None;
    }
    // B ÷ A low: A slower there than in the band, or B faster; high: B
    // slower, or A faster.
    let lows = low.len() > high.len();
    let tail = if lows { low } else { high };
    let median = |f: fn(&Outlier) -> f64| {
        let v: Vec<f64> = tail.iter().map(f).collect();
        crate::stats::summarize(&v).map_or(0.0, |s| s.median)
    };
    let (a, b) = (median(|o| o.a), median(|o| o.b));
    let (rose, fell) = if lows { (a, -b) } else { (b, -a) };
    let (sides, other) = (["A", "B"], set_aside - tail.len());
    let slower_pct = (median(|o| o.off).exp() - 1.0) * 100.0;
    if rose >= fell {
        // One side slowed in the tail: the band is what both share.
        return Some(SlowMode {
            side: sides[usize::from(!lows)],
            pairs: tail.len(),
            other,
            slower_pct,
        });
    }
    if (tail.len() as f64) < FAST_SHARE * centred_pairs as f64 {
        // The other side sped up in a few pairs: outliers of a change,
        // not its fast level.
        return None;
    }
    // The other side sped up in the tail: its usual time is its slow
    // mode, and the tail is where both are at their fast level.
    let mode = SlowMode {
        side: sides[usize::from(lows)],
        pairs: kept.len(),
        other,
        slower_pct,
    };
    *kept = tail.iter().map(|o| o.index).collect();
    kept.sort_unstable();
    Some(mode)
}

/// The middle of the shortest interval holding half of `d`, and that
/// length as a normal's σ (a normal's middle half spans 1.349 σ); `None`
/// for fewer than `fewest` values or no spread at all.
fn shorth(mut d: Vec<f64>, fewest: usize) -> Option<(f64, f64)> {
    if d.len() < fewest {
        return None;
    }
    d.sort_by(f64::total_cmp);
    let h = d.len().div_ceil(2);
    let (i, width) = (0..=d.len() - h)
        .map(|i| (i, d[i + h - 1] - d[i]))
        .min_by(|x, y| x.1.total_cmp(&y.1))?;
    (width > 0.0).then(|| ((d[i] + d[i + h - 1]) / 2.0, width / 1.349))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ab::stats::tests::spread_pairs;

    /// The false alarm of pooled pairs of processes, as a model: the
    /// same build on both sides, each process fast or 62 % slower for its
    /// whole life (where it landed). Six pairs of processes have both
    /// sides slow, three A fast and B slow, one both fast. Pooled over
    /// the processes, the three look like A's slow mode being its usual
    /// state, and judged alone they read "+62 %, regressed"; found within
    /// each pair of processes, nothing is set aside and the t interval
    /// over the ten takes the offsets in.
    #[test]
    fn an_offset_of_some_pairs_of_processes_is_no_slow_mode() {
        let slow = 1.62;
        let mut p = Vec::new();
        let mut instances = Vec::new();
        for process in 0..10 {
            let (a, b) = match process {
                0..6 => (slow, slow),
                6..9 => (1.0, slow),
                _ => (1.0, 1.0),
            };
            for pair in spread_pairs(50, 0.005, 0.0) {
                p.push((pair.0 * a, pair.1 * b));
                instances.push(process);
            }
        }
        let taken = stats::tests::taken(instances.iter().copied());
        let judged = |kept: &[usize]| {
            let changes = stats::process_changes(&p, &taken, kept);
            stats::judge(&changes, 1.0, stats::level(14)).map(|j| j.moved)
        };
        // Pooled, as before: the three pairs of processes alone, regressed.
        let pooled = shared(&p, &vec![0; p.len()]);
        assert_eq!(pooled.kept.len(), 150, "{:?}", pooled.slow);
        assert_eq!(judged(&pooled.kept), Some(stats::Moved::Slower));
        // Within each pair of processes: all kept, and not called moved.
        let s = shared(&p, &taken);
        assert_eq!((s.kept.len(), s.slow), (p.len(), None));
        assert_eq!(judged(&s.kept), Some(stats::Moved::Unsettled));
    }

    /// The slow mode in most of A's samples, as `ab`'s test meets it: a
    /// second of pairs from nine pairs of processes, 22 pairs each, some
    /// cut into two windows of 11, and each process fast and slow in
    /// turns, a quarter of its pairs at the fast level. Each group is too
    /// small to find its own spread, but the centres are all found, and
    /// the fast level's pairs are judged.
    #[test]
    fn a_slow_mode_in_small_groups_is_found() {
        let (mut p, mut groups) = (Vec::new(), Vec::new());
        for process in 0..9 {
            let offset = 1.0 + 0.01 * process as f64;
            for (k, pair) in spread_pairs(22, 0.01, 0.0).into_iter().enumerate() {
                let a = if k % 4 == 1 { 1.0 } else { 1.3 };
                p.push((pair.0 * a * offset, pair.1 * offset));
                groups.push((process, if process % 3 == 0 { k / 11 } else { 0 }));
            }
        }
        let s = shared(&p, &groups);
        let slow = s.slow.as_ref().expect("a slow mode");
        assert_eq!(slow.side, "A", "{slow:?}");
        assert!(s.kept.len() >= 36 && s.kept.len() <= 54, "{:?}", s.kept);
        let kept: Vec<(f64, f64)> = s.kept.iter().map(|&i| p[i]).collect();
        let j = stats::tests::median_change(&kept).unwrap().exp();
        assert!((j - 1.0).abs() < 0.01, "{j}");
    }

    /// A real change with its exceptions: B 70 % slower in every pair
    /// but one in twenty-five, where it runs at its old speed. Those few
    /// are outliers, not B's fast level: the band is judged.
    #[test]
    fn a_change_with_a_few_fast_pairs_is_judged_on_the_band() {
        let mut p = spread_pairs(500, 0.01, 1.7f64.ln());
        for pair in p.iter_mut().step_by(25) {
            pair.1 /= 1.7;
        }
        let s = shared(&p, &vec![0; p.len()]);
        assert_eq!(s.slow, None);
        assert!(
            s.kept.len() >= 475 && s.kept.iter().all(|i| i % 25 != 0),
            "{s:?}"
        );
        let j = stats::tests::median_change(&s.kept.iter().map(|&i| p[i]).collect::<Vec<_>>());
        assert!((j.unwrap().exp() - 1.7).abs() < 0.01, "{j:?}");
    }

    #[test]
    fn a_quarter_of_one_side_slowed_is_named_and_set_aside() {
        // B 1 % slower, the pairs spread ±1 %; every fourth of A's
        // samples 10 % slower.
        let mut p = spread_pairs(400, 0.01, 0.01);
        for pair in p.iter_mut().step_by(4) {
            pair.0 *= 1.10;
        }
        let s = shared(&p, &vec![0; p.len()]);
        let slow = s.slow.expect("a slow mode");
        assert_eq!((slow.side, slow.pairs), ("A", 100), "{slow:?}");
        assert!((slow.slower_pct - 10.0).abs() < 1.0, "{slow:?}");
        assert!(
            slow.describe(s.kept.len())
                .starts_with("A's samples are bimodal")
        );
        let kept: Vec<(f64, f64)> = s.kept.iter().map(|&i| p[i]).collect();
        let j = stats::tests::median_change(&kept).unwrap().exp();
        assert!((j - 1.01).abs() < 0.001, "{j}");
        // Unkept, the median of the ratios follows the slow mode.
        let all = stats::tests::median_change(&p).unwrap().exp();
        assert!(all < 1.007, "{all}");
    }

    #[test]
    fn a_slow_mode_in_most_of_one_sides_samples_is_told_from_the_other_side_speeding_up() {
        // B 1 % slower; three in four of A's samples 10 % slower, and
        // every sample's time drifting alike in both.
        let mut p = spread_pairs(400, 0.01, 0.01);
        for (i, pair) in p.iter_mut().enumerate() {
            let drift = 1.0 + 0.02 * (i as f64 / 400.0);
            if i % 4 != 0 {
                pair.0 *= 1.10;
            }
            (pair.0, pair.1) = (pair.0 * drift, pair.1 * drift);
        }
        let s = shared(&p, &vec![0; p.len()]);
        let slow = s.slow.expect("a slow mode");
        assert_eq!((slow.side, slow.pairs), ("A", 300), "{slow:?}");
        assert_eq!(s.kept.len(), 100);
        let kept: Vec<(f64, f64)> = s.kept.iter().map(|&i| p[i]).collect();
        let j = stats::tests::median_change(&kept).unwrap().exp();
        assert!((j - 1.01).abs() < 0.002, "{j}");
        // B with the slow mode instead: B's time rose beyond the band.
        let mut p = spread_pairs(400, 0.01, 0.01);
        for pair in p.iter_mut().step_by(4) {
            pair.1 *= 1.10;
        }
        let slow = shared(&p, &vec![0; p.len()]).slow.expect("a slow mode");
        assert_eq!((slow.side, slow.pairs), ("B", 100), "{slow:?}");
    }

    #[test]
    fn normal_pairs_and_a_change_on_some_windows_are_all_kept() {
        let p = spread_pairs(400, 0.01, 0.0);
        // (the logistic's tails are longer than a normal's: a few far
        // out, on both sides alike)
        let s = shared(&p, &vec![0; p.len()]);
        assert!(s.set_aside <= 4 && s.slow.is_none(), "{s:?}");
        // One window of four 30 % slower in B: a change, not a mode.
        let windows: Vec<usize> = (0..p.len()).map(|i| i % 4).collect();
        let mut p = p;
        for (pair, _) in p.iter_mut().zip(&windows).filter(|(_, w)| **w == 3) {
            pair.1 *= 1.3;
        }
        let s = shared(&p, &windows);
        assert!(s.set_aside <= 4 && s.slow.is_none(), "{s:?}");
        // Too few pairs to find a centre: all judged.
        let s = shared(&p[..10], &windows[..10]);
        assert_eq!(s.kept.len(), 10);
    }
}
