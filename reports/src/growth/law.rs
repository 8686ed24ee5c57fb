//! Choosing a sweep's law among the fitted classes, soundly: a class must
//! beat the constant by a clear margin and grow by more than the noise,
//! must beat the runner-up clearly or both are named, and the choice is
//! refitted on bootstrap resamples to say how stable it is.

use super::class::Class;
use super::fit::{Fitted, Point, fit, power_profile};
use crate::numbers::sig3;

/// How much lower a class's BIC must be than another's to be preferred:
/// 6 is "strong" evidence on Kass and Raftery's scale.
pub const CLEAR: f64 = 6.0;

/// The growth a class must add over the range, as a share of its
/// intercept at the largest size, before the constant is left.
const MIN_GROWTH: f64 = 0.10;

/// …and in standard errors of the largest size's point.
const MIN_GROWTH_SIGMAS: f64 = 3.0;

/// A fit worse than this at any point, as a share of its time, fits no
/// class: a cache cliff, a change of algorithm inside the range.
const MISFIT: f64 = 0.20;

/// The fewest distinct sizes a law is fitted on.
pub const MIN_POINTS: usize = 4;

/// Bootstrap resamples refitted to check the choice.
const RESAMPLES: usize = 200;

/// The law of one sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Law {
    /// The chosen class and its coefficients.
    pub fit: Fitted,
    /// A runner-up too close to tell apart from it (`n or n log n`).
    pub or: Option<Class>,
    /// The exponent `p` of a direct fit of `a + b·n^p`, and its 95 %
    /// profile interval; `None` for the constant and the exponential.
    pub exponent: Option<(f64, f64, f64)>,
    /// The share of bootstrap resamples whose choice agreed (the class,
    /// or either of two named); `None` without resamples.
    pub agreed: Option<f64>,
    /// Where the chosen law misses a point by more than a fifth: the
    /// relative miss and the size.
    pub misfit: Option<(f64, f64)>,
}

/// The BIC of a fit to `m` points, the noise's scale unknown.
fn bic(f: &Fitted, m: usize) -> f64 {
    let m = m as f64;
    m * (f.rss / m).max(1e-300).ln() + f.parameters() as f64 * m.ln()
}

/// The chosen fit and a runner-up too close to it, from `points` sorted by
/// size; the exponential is tried where `exponential`.
fn choose(points: &[Point], exponential: bool) -> (Fitted, Option<Fitted>) {
    let m = points.len();
    let constant = fit(Class::Constant, points);
    let (first, last) = (points[0], points[m - 1]);
    let grows = |f: &Fitted| {
        let growth = f.at(last.n) - f.at(first.n);
        f.b > 0.0
            && growth >= MIN_GROWTH * f.a
            && growth >= MIN_GROWTH_SIGMAS * last.sigma
            && bic(&constant, m) - bic(f, m) >= CLEAR
    };
    let mut beaters: Vec<Fitted> = Class::POWERS[1..]
        .iter()
        .copied()
        .chain(exponential.then_some(Class::Exponential))
        .map(|c| fit(c, points))
        .filter(grows)
        .collect();
    beaters.sort_by(|x, y| bic(x, m).total_cmp(&bic(y, m)));
    match beaters.as_slice() {
        [] => (constant, None),
        [best] => (*best, None),
        [best, next, ..] => (
            *best,
            (bic(next, m) - bic(best, m) < CLEAR).then_some(*next),
        ),
    }
}

/// The exponent of `a + b·n^p` and its 95 % profile interval: the
/// exponents whose residual sum lies within a χ²₁ of 3.84 of the best's.
fn exponent(points: &[Point]) -> (f64, f64, f64) {
    let grid: Vec<f64> = (0..=800).map(|i| f64::from(i) * 0.005).collect();
    let profile = power_profile(points, &grid);
    let &(best, min) = profile
        .iter()
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .expect("a non-empty grid");
    let m = points.len() as f64;
    let inside: Vec<f64> = profile
        .iter()
        .filter(|(_, rss)| m * (rss / min.max(1e-300)).ln() <= 3.84)
        .map(|p| p.0)
        .collect();
    let lo = inside.iter().copied().fold(best, f64::min);
    let hi = inside.iter().copied().fold(best, f64::max);
    (best, lo, hi)
}

/// The law of `points` (any order; at least [`MIN_POINTS`] sizes), with
/// `resamples[k][i]` the k-th bootstrap replicate of point i's time where
/// every point has them. The exponential is tried where `exponential` (a
/// depth).
pub fn law(points: &[Point], resamples: Option<&[Vec<f64>]>, exponential: bool) -> Option<Law> {
    let mut points: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| p.n > 0.0 && p.t > 0.0 && p.sigma > 0.0)
        .collect();
    points.sort_by(|a, b| a.n.total_cmp(&b.n));
    let mut sizes: Vec<f64> = points.iter().map(|p| p.n).collect();
    sizes.dedup();
    if sizes.len() < MIN_POINTS {
        return None;
    }
    let (best, runner) = choose(&points, exponential);
    let named = |c: Class| c == best.class || runner.is_some_and(|r| r.class == c);
    let agreed = resamples.map(|reps| {
        let agree = reps
            .iter()
            .take(RESAMPLES)
            .filter(|ts| {
                let again: Vec<Point> = points
                    .iter()
                    .zip(ts.iter())
                    .map(|(p, &t)| Point { t, ..*p })
                    .collect();
                named(choose(&again, exponential).0.class)
            })
            .count();
        agree as f64 / reps.len().clamp(1, RESAMPLES) as f64
    });
    let misfit = points
        .iter()
        .map(|p| ((p.t - best.at(p.n)).abs() / p.t, p.n))
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .filter(|miss| miss.0 > MISFIT);
    let exponent =
        (!matches!(best.class, Class::Constant | Class::Exponential)).then(|| exponent(&points));
    Some(Law {
        fit: best,
        or: runner.map(|r| r.class),
        exponent,
        agreed,
        misfit,
    })
}

impl Law {
    /// One line: `O(n), 0.0201 ns·n + 11.8 ns, exponent 1.01 (0.99–1.03),
    /// 97 % of resamples`; times in ns.
    pub fn line(&self) -> String {
        let f = &self.fit;
        let class = match self.or {
            Some(other) => format!("{} or {}", f.class.name(), other.name()),
            None => f.class.name().to_owned(),
        };
        let mut parts = vec![class];
        // One unit for both coefficients, the intercept's where there is one.
        let (scale, unit) = crate::numbers::time_unit(if f.a > 0.0 { f.a } else { f.b });
        parts.push(match f.class {
            Class::Constant => format!("{} {unit}", sig3(f.a / scale)),
            c if f.a > 0.0 => format!(
                "{} + {} {unit}",
                c.term(f.b / scale, f.c, unit),
                sig3(f.a / scale)
            ),
            c => c.term(f.b / scale, f.c, unit),
        });
        if let Some((p, lo, hi)) = self.exponent {
            parts.push(format!("exponent {:.2} ({lo:.2}–{hi:.2})", p));
        }
        if let Some(share) = self.agreed {
            parts.push(format!("{:.0} % of resamples", share * 100.0));
        }
        let mut line = parts.join(", ");
        if let Some((miss, n)) = self.misfit {
            line += &format!(
                "; fits no class well: {:.0} % off at {}",
                miss * 100.0,
                crate::numbers::count(n)
            );
        }
        line
    }
}
