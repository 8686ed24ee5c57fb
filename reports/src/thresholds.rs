//! The default thresholds, side by side: how far a record must move, in
//! percent, before each use calls it a change. Each use sees a different
//! kind of evidence, so each has its own default; `--threshold` overrides
//! any of them.

use crate::metric::{InAb, Metric};

/// `compare`, the CI gate and `history check`/`compare`: two runs measured
/// apart, so wall time gets 5 % (run-to-run drift on a shared machine);
/// exact counts get 1 %.
pub fn gate(metric: Metric) -> f64 {
    if metric.judged_exactly() { 1.0 } else { 5.0 }
}

/// `ab` and `history bisect`: the two builds run paired, interleaved in
/// one window, so drift cancels and wall time gets 1 %; counts as
/// [`gate`].
pub fn paired(metric: Metric) -> f64 {
    match metric.descriptor().ab {
        InAb::Paired => 1.0,
        _ => gate(metric),
    }
}

/// A step in a history series: a segment's level is a median over
/// commits, steadier than one run, so wall time gets 1 %; exact counts
/// repeat exactly, so 0.1 % is a real change.
pub fn step(metric: Metric) -> f64 {
    if metric.judged_exactly() { 0.1 } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_time_is_tighter_than_the_gate_and_counts_agree() {
        assert_eq!(gate(Metric::Time), 5.0);
        assert_eq!(paired(Metric::Time), 1.0);
        assert_eq!(step(Metric::Time), 1.0);
        for m in [Metric::Instructions, Metric::D1Misses] {
            assert_eq!(paired(m), gate(m));
            assert!(step(m) < gate(m));
        }
    }
}
