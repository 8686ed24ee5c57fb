//! Weighted least squares of `t = a + b·g(n)`, with `a` and `b` kept
//! non-negative (a cost neither starts below zero nor shrinks as the size
//! grows), and the direct fit of `a + b·n^p` that gives the exponent.
//!
//! Each point is weighted by its relative error, so a 1 MiB point with
//! microseconds of time does not outweigh the 8 B point with nanoseconds:
//! what is minimised is the sum of squared residuals in units of each
//! point's own uncertainty.

use super::class::Class;

/// One measured point: the size, the time per input and its standard
/// error (in the same unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The size.
    pub n: f64,
    /// The time per input.
    pub t: f64,
    /// Its standard error.
    pub sigma: f64,
}

/// A fitted law `a + b·g(n)` and its weighted residual sum of squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// The class `g` belongs to.
    pub class: Class,
    /// The intercept: the cost at no size.
    pub a: f64,
    /// The coefficient of `g(n)`.
    pub b: f64,
    /// The exponential's base (1 for the other classes).
    pub c: f64,
    /// The weighted residual sum of squares.
    pub rss: f64,
}

impl Fitted {
    /// The fitted time at `n`.
    pub fn at(&self, n: f64) -> f64 {
        self.a + self.b * self.class.g(n, self.c)
    }

    /// The number of fitted parameters.
    pub fn parameters(&self) -> usize {
        match self.class {
            Class::Constant => 1,
            Class::Exponential => 3,
            _ => 2,
        }
    }
}

/// The non-negative weighted least-squares `(a, b, rss)` of `t ≈ a + b·x`
/// over `(x, t, weight)`.
fn affine(points: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    // x is scaled to at most 1, so n³ of a megabyte stays well conditioned.
    let scale = points.iter().map(|p| p.0.abs()).fold(0.0, f64::max);
    let scale = if scale > 0.0 { scale } else { 1.0 };
    let (mut sw, mut sx, mut sxx, mut st, mut sxt) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(x, t, w) in points {
        let x = x / scale;
        sw += w;
        sx += w * x;
        sxx += w * x * x;
        st += w * t;
        sxt += w * x * t;
    }
    let det = sw * sxx - sx * sx;
    let (mut a, mut b) = if det.abs() > 1e-12 * sw * sxx.max(1e-300) {
        ((st * sxx - sx * sxt) / det, (sw * sxt - sx * st) / det)
    } else {
        (st / sw, 0.0)
    };
    if b < 0.0 {
        (a, b) = (st / sw, 0.0);
    } else if a < 0.0 {
        (a, b) = (0.0, if sxx > 0.0 { sxt / sxx } else { 0.0 });
    }
    let rss = points
        .iter()
        .map(|&(x, t, w)| w * (t - a - b * x / scale).powi(2))
        .sum();
    (a, b / scale, rss)
}

/// The weight of a point: one over its variance.
fn weight(p: &Point) -> f64 {
    1.0 / (p.sigma * p.sigma)
}

/// `class` fitted to `points` (for the exponential, over its base too).
pub(crate) fn fit(class: Class, points: &[Point]) -> Fitted {
    let with_base = |c: f64| {
        let xs: Vec<(f64, f64, f64)> = points
            .iter()
            .map(|p| (class.g(p.n, c), p.t, weight(p)))
            .collect();
        let (a, b, rss) = affine(&xs);
        Fitted {
            class,
            a,
            b,
            c,
            rss,
        }
    };
    if class != Class::Exponential {
        return with_base(1.0);
    }
    // The base by a coarse scan over 1.01 … 64 and a golden-section
    // refinement around the best.
    let grid = (0..=120).map(|i| 1.01f64 * (64.0f64 / 1.01).powf(f64::from(i) / 120.0));
    let best = grid
        .map(with_base)
        .min_by(|x, y| x.rss.total_cmp(&y.rss))
        .expect("a non-empty grid");
    let step = (64.0f64 / 1.01).powf(1.0 / 120.0);
    golden(best.c / step, best.c * step, |c| with_base(c).rss).map_or(best, with_base)
}

/// The minimum of `f` on `lo..=hi` by golden-section search, if it beats
/// neither end by much it is still returned.
fn golden(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> Option<f64> {
    const R: f64 = 0.618_033_988_749_895;
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return None;
    }
    for _ in 0..60 {
        let (x1, x2) = (hi - R * (hi - lo), lo + R * (hi - lo));
        if f(x1) < f(x2) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    Some((lo + hi) / 2.0)
}

/// The weighted residual sum of `a + b·n^p` at each exponent `p` of
/// `exponents`, `a` and `b` fitted at each.
pub(crate) fn power_profile(points: &[Point], exponents: &[f64]) -> Vec<(f64, f64)> {
    exponents
        .iter()
        .map(|&p| {
            let xs: Vec<(f64, f64, f64)> = points
                .iter()
                .map(|q| (q.n.powf(p), q.t, weight(q)))
                .collect();
            (p, affine(&xs).2)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(f: impl Fn(f64) -> f64) -> Vec<Point> {
        [8.0, 64.0, 512.0, 4096.0, 32768.0, 262_144.0]
            .into_iter()
            .map(|n| Point {
                n,
                t: f(n),
                sigma: f(n) * 0.01,
            })
            .collect()
    }

    #[test]
    fn an_exact_law_is_recovered_with_its_intercept() {
        let pts = points(|n| 12.0 + 0.02 * n);
        let f = fit(Class::Linear, &pts);
        assert!(
            (f.a - 12.0).abs() < 1e-6 && (f.b - 0.02).abs() < 1e-9,
            "{f:?}"
        );
        assert!(f.rss < 1e-9);
        let pts = points(|n| 5.0 + 0.001 * n * n);
        let f = fit(Class::Quadratic, &pts);
        assert!(
            (f.a - 5.0).abs() < 1e-3 && (f.b / 0.001 - 1.0).abs() < 1e-6,
            "{f:?}"
        );
    }

    #[test]
    fn coefficients_stay_non_negative() {
        // Falling times fit no growing class: the slope is held at zero.
        let pts = points(|n| 100.0 / n.log2());
        let f = fit(Class::Linear, &pts);
        assert_eq!(f.b, 0.0);
        assert!(f.a > 0.0);
    }

    #[test]
    fn an_exponential_finds_its_base() {
        let pts: Vec<Point> = (1..=8)
            .map(|d| {
                let t = 50.0 + 3.0 * 4.5f64.powi(d);
                Point {
                    n: f64::from(d),
                    t,
                    sigma: t * 0.01,
                }
            })
            .collect();
        let f = fit(Class::Exponential, &pts);
        assert!((f.c - 4.5).abs() < 0.01, "{f:?}");
        assert!((f.b - 3.0).abs() < 0.05, "{f:?}");
    }
}
