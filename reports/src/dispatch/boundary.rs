//! Ranges of the regime: where, between two measured regimes with
//! different winners, one takes over from the other.
//!
//! The measured points are all there is, so the boundary is read off the
//! two winners' times: their log ratio, interpolated linearly in the log
//! of the parameter, crosses zero where they run equally fast.

use super::Cell;

/// The `(below, variant)` ranges of a tier's cells (increasing regimes):
/// neighbouring cells with one winner merge, the last range is unbounded.
pub(super) fn ranges(cells: &[Cell]) -> Vec<(f64, String)> {
    let mut out: Vec<(f64, String)> = Vec::new();
    for pair in cells.windows(2) {
        let (lo, hi) = (&pair[0], &pair[1]);
        if lo.chosen != hi.chosen {
            let (Some(x1), Some(x2)) = (lo.regime, hi.regime) else {
                continue;
            };
            out.push((boundary(lo, hi, x1, x2), lo.chosen.clone()));
        }
    }
    if let Some(last) = cells.last() {
        out.push((f64::INFINITY, last.chosen.clone()));
    }
    out
}

/// The boundary between `lo` (at `x1`) and `hi` (at `x2`, above it),
/// whose winners differ: where `ln(t_a / t_b)` of the lower winner `a`
/// over the upper `b`, negative at `x1` and positive at `x2`, is zero by
/// linear interpolation in `ln x` (in `x` when `x1 ≤ 0`); where it does
/// not cross so (either winner not measured at both, or a choice made on
/// ties or worst cases), the mean of the two points, geometric when both
/// are positive. Rounded to 3 significant digits, more if 3 would leave
/// `(x1, x2]`, so that each measured point stays in its winner's range.
pub(super) fn boundary(lo: &Cell, hi: &Cell, x1: f64, x2: f64) -> f64 {
    let (a, b) = (&lo.chosen, &hi.chosen);
    let log_ratio = |c: &Cell| c.ratio(a, b).map(f64::ln);
    let logs = x1 > 0.0;
    let t = match (log_ratio(lo), log_ratio(hi)) {
        (Some(r1), Some(r2)) if r1 < 0.0 && r2 > 0.0 => r1 / (r1 - r2),
        _ => 0.5,
    };
    let x = if logs {
        (x1.ln() + t * (x2.ln() - x1.ln())).exp()
    } else {
        x1 + t * (x2 - x1)
    };
    (3..=17)
        .map(|digits| significant(x, digits))
        .find(|&b| x1 < b && b <= x2)
        .unwrap_or(x2)
}

/// `x` rounded to `digits` significant digits.
pub(super) fn significant(x: f64, digits: usize) -> f64 {
    format!("{x:.*e}", digits - 1).parse().unwrap_or(x)
}
