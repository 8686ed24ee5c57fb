//! Value-to-pixel scales, tick choice and number formatting.
//!
//! Charts draw their own axes so that tick labels are round numbers on both
//! linear and logarithmic axes and never collide; this module holds the
//! arithmetic, independent of any backend.

/// A linear or logarithmic map from values to pixel positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scale {
    /// Whether values are mapped through log10.
    pub log: bool,
    /// Smallest value shown.
    pub lo: f64,
    /// Largest value shown.
    pub hi: f64,
    px_lo: f64,
    px_hi: f64,
}

/// Values spanning more than this ratio get a log axis (the rule).
pub(crate) const LOG_SPREAD: f64 = 100.0;

impl Scale {
    /// A scale for `values` (non-positive and non-finite ones ignored):
    /// logarithmic over whole decades when they span more than
    /// [`LOG_SPREAD`], else linear from zero to a round maximum. `force_log`
    /// picks log whenever the data allow it (heatmaps, speedups).
    pub fn fit(values: impl IntoIterator<Item = f64>, force_log: bool) -> Scale {
        let (mut min, mut max) = (f64::INFINITY, 0.0f64);
        for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
            min = min.min(v);
            max = max.max(v);
        }
        if max == 0.0 {
            return Scale::linear(0.0, 1.0);
        }
        if force_log || max / min > LOG_SPREAD {
            let lo = 10f64.powf(min.log10().floor());
            let mut hi = 10f64.powf(max.log10().ceil());
            if hi <= lo {
                hi = lo * 10.0;
            }
            Scale::log(lo, hi)
        } else {
            let step = nice_step(max / 5.0);
            Scale::linear(0.0, (max / step).ceil() * step)
        }
    }

    /// A linear scale over `lo..=hi`.
    pub fn linear(lo: f64, hi: f64) -> Scale {
        Scale {
            log: false,
            lo,
            hi,
            px_lo: 0.0,
            px_hi: 1.0,
        }
    }

    /// A log10 scale over `lo..=hi` (both positive).
    pub fn log(lo: f64, hi: f64) -> Scale {
        Scale {
            log: true,
            lo,
            hi,
            px_lo: 0.0,
            px_hi: 1.0,
        }
    }

    /// The same scale mapped onto pixels `px_lo` (for `lo`) to `px_hi`.
    pub fn onto(self, px_lo: f64, px_hi: f64) -> Scale {
        Scale {
            px_lo,
            px_hi,
            ..self
        }
    }

    /// Position of `v` in 0..=1 along the scale (clamped).
    pub fn fraction(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.max(self.lo * 1e-3).log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Pixel position of `v`.
    pub fn px(&self, v: f64) -> i32 {
        (self.px_lo + (self.px_hi - self.px_lo) * self.fraction(v)).round() as i32
    }

    /// Round tick values inside the range: 1-2-5 steps on linear axes,
    /// decades (plus 2× and 5× when there are few) on log axes.
    pub fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            let decades = b - a;
            let mut ticks = Vec::new();
            for e in a..=b {
                let base = 10f64.powi(e);
                ticks.push(base);
                if decades <= 2 && e < b {
                    ticks.push(2.0 * base);
                    ticks.push(5.0 * base);
                }
            }
            ticks
        } else {
            let step = nice_step((self.hi - self.lo) / 5.0);
            let mut ticks = Vec::new();
            let mut i = (self.lo / step).ceil() as i64;
            while (i as f64) * step <= self.hi + step * 1e-9 {
                ticks.push(i as f64 * step);
                i += 1;
            }
            ticks
        }
    }
}

/// The 1-2-5 step nearest above `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let base = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * base)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * base)
}

/// A tick or cell label: at most five characters for typical values, with
/// `k`/`M`/`G` suffixes from a thousand up (one notation on an axis:
/// `1k` beside `10k`, never `1000`), decimals below one however small
/// (`0.001` beside `0.0001`, never `1e-4`) and no trailing zeros.
pub(crate) fn compact(v: f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let sa = scaled.abs();
    let text = if sa == 0.0 {
        "0".to_owned()
    } else if sa >= 100.0 {
        format!("{scaled:.0}")
    } else if sa >= 10.0 {
        trim(format!("{scaled:.1}"))
    } else if sa >= 1.0 {
        trim(format!("{scaled:.2}"))
    } else {
        // Two significant digits: 0.052, 0.0001, 0.000025.
        let decimals = (1 - sa.log10().floor() as i32).clamp(3, 15) as usize;
        trim(format!("{scaled:.decimals$}"))
    };
    format!("{text}{suffix}")
}

fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// A time unit with a nanosecond factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TimeUnit {
    /// Symbol, e.g. `µs`.
    pub symbol: &'static str,
    /// Nanoseconds per unit.
    pub ns: f64,
}

const TIME_UNITS: [TimeUnit; 5] = [
    // Byte kernels take hundredths of a nanosecond per byte.
    TimeUnit {
        symbol: "ps",
        ns: 1e-3,
    },
    TimeUnit {
        symbol: "ns",
        ns: 1.0,
    },
    TimeUnit {
        symbol: "µs",
        ns: 1e3,
    },
    TimeUnit {
        symbol: "ms",
        ns: 1e6,
    },
    TimeUnit {
        symbol: "s",
        ns: 1e9,
    },
];

/// The largest time unit in which `typical_ns` is at least 1.
pub(crate) fn time_unit(typical_ns: f64) -> TimeUnit {
    TIME_UNITS
        .into_iter()
        .rev()
        .find(|u| typical_ns >= u.ns)
        .unwrap_or(TIME_UNITS[0])
}

/// A results unit `<time>/<element>` split into nanoseconds per time unit
/// and the element name: `ns/board` → `(1, "board")`, `ms/solve` → `(1e6, "solve")`.
pub(crate) fn parse_time_unit(unit: &str) -> Option<(f64, &str)> {
    let (time, element) = unit.split_once('/')?;
    let ns = match time.trim() {
        "ns" => 1.0,
        "us" | "µs" | "μs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    let element = element.trim();
    (!element.is_empty()).then_some((ns, element))
}

/// An SI prefix for rates, the largest of none, k, M, G not exceeding
/// `typical`: its symbol, its word (`million`) and its factor.
pub(crate) fn rate_prefix(typical: f64) -> (&'static str, &'static str, f64) {
    [
        ("G", "billion", 1e9),
        ("M", "million", 1e6),
        ("k", "thousand", 1e3),
    ]
    .into_iter()
    .find(|(_, _, f)| typical >= *f)
    .unwrap_or(("", "", 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::geomean;

    #[test]
    fn log_only_beyond_a_hundredfold_spread() {
        let s = Scale::fit([3.0, 250.0], false);
        assert!(!s.log);
        assert_eq!((s.lo, s.hi), (0.0, 250.0));
        let s = Scale::fit([3.0, 350.0], false);
        assert!(s.log);
        assert_eq!((s.lo, s.hi), (1.0, 1000.0));
        assert_eq!(s.ticks(), vec![1.0, 10.0, 100.0, 1000.0]);
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(
            Scale::linear(0.0, 10.0).ticks(),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        assert_eq!(
            Scale::log(1.0, 100.0).ticks(),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        );
        let s = Scale::log(1.0, 1000.0).onto(100.0, 400.0);
        assert_eq!((s.px(1.0), s.px(10.0), s.px(1000.0)), (100, 200, 400));
    }

    #[test]
    fn compact_labels() {
        let cases = [
            (0.0, "0"),
            (0.052, "0.052"),
            (0.001, "0.001"),
            (1e-4, "0.0001"),
            (2.5e-5, "0.000025"),
            (3.0, "3"),
            (3.25, "3.25"),
            (12.34, "12.3"),
            (469.0, "469"),
            (1000.0, "1k"),
            (1234.0, "1.23k"),
            (12_345.0, "12.3k"),
            (2.5e6, "2.5M"),
        ];
        for (v, s) in cases {
            assert_eq!(compact(v), s, "{v}");
        }
    }

    #[test]
    fn units() {
        assert_eq!(parse_time_unit("ns/board"), Some((1.0, "board")));
        assert_eq!(parse_time_unit("ms/solve"), Some((1e6, "solve")));
        assert_eq!(parse_time_unit("nodes/input"), None);
        assert_eq!(time_unit(12_000.0).symbol, "µs");
        assert_eq!(time_unit(1.5).symbol, "ns");
        assert_eq!(time_unit(0.5).symbol, "ps");
        assert_eq!(rate_prefix(3.2e7), ("M", "million", 1e6));
        assert_eq!(rate_prefix(999.0), ("", "", 1.0));
        assert!((geomean([2.0, 8.0]).unwrap() - 4.0).abs() < 1e-12);
    }
}
