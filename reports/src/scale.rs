//! Value-to-pixel scales, tick choice and number formatting.
//!
//! Charts draw their own axes so that tick labels are round numbers on both
//! linear and logarithmic axes and never collide; this module holds the
//! arithmetic, independent of any backend.

use crate::meaning::Meaning;

/// A linear or logarithmic map from values to pixel positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scale {
    /// Whether values are mapped through log10.
    pub log: bool,
    /// Smallest value shown.
    pub lo: f64,
    /// Largest value shown.
    pub hi: f64,
    /// Where its ticks go and how they read.
    pub ticks: Ticks,
    px_lo: f64,
    px_hi: f64,
}

/// Where a scale's ticks go and how they are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ticks {
    /// 1-2-5 steps (decades on a wide log axis), labelled `compact`ly.
    Decimal,
    /// As `Decimal`, whole numbers only: a count, a depth.
    Whole,
    /// Powers of two on a log axis, labelled in binary units (`4 KiB`).
    Bytes,
}

/// Values spanning more than this ratio, one and a half decades, get a log
/// axis: past it a linear axis squashes the small values onto its floor.
pub(crate) const LOG_SPREAD: f64 = 31.622_776_601_683_793;

/// The share of an axis left empty beyond the data at each end.
const MARGIN: f64 = 0.04;

/// A sweep whose parameter spans more than this ratio is a geometric one
/// (sizes 8 B … 1 MiB) and reads on a log axis.
const GEOMETRIC: f64 = 8.0;

impl Scale {
    /// A value axis for `values` (non-positive and non-finite ones
    /// ignored): logarithmic over the data with a small margin when they
    /// span more than [`LOG_SPREAD`], else linear from zero to a round
    /// maximum.
    pub fn fit(values: impl IntoIterator<Item = f64>) -> Scale {
        let Some((min, max)) = positive_range(values) else {
            return Scale::linear(0.0, 1.0);
        };
        if max / min > LOG_SPREAD {
            Scale::log_around(min, max)
        } else {
            let step = nice_step(max / 5.0);
            Scale::linear(0.0, (max / step).ceil() * step)
        }
    }

    /// An axis for a swept parameter's `values`, as its meaning asks:
    /// bytes on a log axis at powers of two, a fraction or a depth on a
    /// linear one, counts and the unknown on a log axis where the sweep is
    /// geometric; each over the data with a small margin, never a spare
    /// decade.
    pub fn parameter(values: impl IntoIterator<Item = f64>, meaning: Option<Meaning>) -> Scale {
        let values: Vec<f64> = values.into_iter().filter(|v| v.is_finite()).collect();
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        if lo > hi {
            return Scale::linear(0.0, 1.0);
        }
        let geometric = lo > 0.0 && hi / lo > GEOMETRIC;
        let ticks = match meaning {
            Some(Meaning::Bytes) => Ticks::Bytes,
            Some(Meaning::Count | Meaning::Depth) => Ticks::Whole,
            Some(Meaning::Fraction) | None => Ticks::Decimal,
        };
        let log = match meaning {
            Some(Meaning::Fraction | Meaning::Depth) => false,
            Some(Meaning::Bytes | Meaning::Count) => geometric,
            None => lo > 0.0 && hi / lo > LOG_SPREAD,
        };
        let scale = if log {
            Scale::log_around(lo, hi)
        } else {
            Scale::linear_around(lo, hi)
        };
        Scale { ticks, ..scale }
    }

    /// A log scale over `min..=max` and a margin of [`MARGIN`] of its
    /// span on each side.
    fn log_around(min: f64, max: f64) -> Scale {
        let span = (max / min).log10().max(0.5);
        let pad = 10f64.powf(span * MARGIN);
        Scale::log(min / pad, max * pad)
    }

    /// A linear scale over `lo..=hi` and a margin of [`MARGIN`] of its
    /// span on each side (of the value itself for a single value).
    fn linear_around(lo: f64, hi: f64) -> Scale {
        let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
        Scale::linear(lo - span * MARGIN, hi + span * MARGIN)
    }

    /// A linear scale over `lo..=hi`.
    pub fn linear(lo: f64, hi: f64) -> Scale {
        Scale {
            log: false,
            lo,
            hi,
            ticks: Ticks::Decimal,
            px_lo: 0.0,
            px_hi: 1.0,
        }
    }

    /// A log10 scale over `lo..=hi` (both positive).
    pub fn log(lo: f64, hi: f64) -> Scale {
        Scale {
            log: true,
            ..Scale::linear(lo, hi)
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

    /// Round tick values inside the range: 1-2-5 steps on linear axes and
    /// on log axes of up to three decades, decades on wider ones,
    /// powers of two (at most [`MAX_BINARY_TICKS`]) on a log axis of bytes.
    pub fn ticks(&self) -> Vec<f64> {
        let inside = |t: &f64| *t >= self.lo * (1.0 - 1e-9) && *t <= self.hi * (1.0 + 1e-9);
        let whole = |t: &f64| self.ticks != Ticks::Whole || t.fract() == 0.0;
        match (self.log, self.ticks) {
            (true, Ticks::Bytes) => powers_of_two(self.lo, self.hi),
            (true, _) => {
                let (a, b) = (
                    self.lo.log10().floor() as i32,
                    self.hi.log10().ceil() as i32,
                );
                let steps: &[f64] = if (self.hi / self.lo).log10() <= 3.0 {
                    &[1.0, 2.0, 5.0]
                } else {
                    &[1.0]
                };
                (a..=b)
                    .flat_map(|e| steps.iter().map(move |m| round_to(m * 10f64.powi(e), e)))
                    .filter(inside)
                    .filter(whole)
                    .collect()
            }
            (false, _) => {
                // Whole numbers label every one up to ten.
                let step = match self.ticks {
                    Ticks::Decimal => nice_step((self.hi - self.lo) / 5.0),
                    Ticks::Whole | Ticks::Bytes => nice_step((self.hi - self.lo) / 10.0).max(1.0),
                };
                let digits = step.log10().floor() as i32;
                ((self.lo / step).ceil() as i64..)
                    .map(|i| round_to(i as f64 * step, digits))
                    .take_while(|t| *t <= self.hi + step * 1e-9)
                    .collect()
            }
        }
    }

    /// A tick's label: binary units on an axis of bytes, else [`compact`].
    pub fn label(&self, v: f64) -> String {
        match self.ticks {
            Ticks::Bytes => {
                // `4.00 KiB` in a table, `4 KiB` on an axis.
                let text = crate::numbers::bytes(v);
                match text.split_once(' ') {
                    Some((n, unit)) => format!("{} {unit}", trim(n.to_owned())),
                    None => text,
                }
            }
            Ticks::Decimal | Ticks::Whole => compact(v),
        }
    }
}

/// The most ticks a log axis of bytes gets: more powers of two are thinned
/// to every second, third … one.
const MAX_BINARY_TICKS: usize = 8;

/// Powers of two within `lo..=hi`, every `k`-th from the first where more
/// than [`MAX_BINARY_TICKS`] fit, and the last one too where it falls
/// between two of those (`8 B, 64 B … 256 KiB, 1 MiB`).
fn powers_of_two(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.log2().ceil() as i32, hi.log2().floor() as i32);
    if b < a {
        return vec![];
    }
    let count = (b - a + 1) as usize;
    let stride = count.div_ceil(MAX_BINARY_TICKS) as i32;
    let mut exps: Vec<i32> = (a..=b).step_by(stride as usize).collect();
    let last = *exps.last().unwrap_or(&a);
    if b > last && 2 * (b - last) >= stride {
        exps.push(b);
    }
    exps.into_iter().map(|e| 2f64.powi(e)).collect()
}

/// `v` rounded to the decimal digit of `10^exponent`, so that `3 × 0.2`
/// reads `0.6`, not `0.6000000000000001`.
fn round_to(v: f64, exponent: i32) -> f64 {
    if exponent >= 0 {
        return v;
    }
    let f = 10f64.powi(-exponent);
    (v * f).round() / f
}

/// The smallest and largest of the positive, finite `values`.
fn positive_range(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut min, mut max) = (f64::INFINITY, 0.0f64);
    for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
        min = min.min(v);
        max = max.max(v);
    }
    (max > 0.0).then_some((min, max))
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
    fn log_only_beyond_a_decade_and_a_half() {
        let s = Scale::fit([3.0, 90.0]);
        assert!(!s.log);
        assert_eq!((s.lo, s.hi), (0.0, 100.0));
        // Time per byte from 3.11 ns down to 0.087 ns: 1.55 decades.
        let s = Scale::fit([0.087, 3.11]);
        assert!(s.log);
        assert!(
            s.lo < 0.087 && s.lo > 0.07 && s.hi > 3.11 && s.hi < 4.0,
            "{s:?}"
        );
        assert_eq!(s.ticks(), vec![0.1, 0.2, 0.5, 1.0, 2.0]);
        let wide = Scale::fit([0.003, 40.0]);
        assert_eq!(wide.ticks(), vec![0.01, 0.1, 1.0, 10.0]);
    }

    #[test]
    fn bytes_tick_at_powers_of_two_in_binary_units() {
        let sizes = (3..=20).map(|e| 2f64.powi(e));
        let s = Scale::parameter(sizes, Some(Meaning::Bytes));
        assert!(s.log && s.lo < 8.0 && s.lo > 4.0 && s.hi > 1048576.0 && s.hi < 2097152.0);
        let labels: Vec<String> = s.ticks().into_iter().map(|t| s.label(t)).collect();
        assert_eq!(
            labels,
            [
                "8 B", "64 B", "512 B", "4 KiB", "32 KiB", "256 KiB", "1 MiB"
            ]
        );
        let few = Scale::parameter([64.0, 128.0, 256.0, 1024.0], Some(Meaning::Bytes));
        let labels: Vec<String> = few.ticks().into_iter().map(|t| few.label(t)).collect();
        assert_eq!(labels, ["64 B", "128 B", "256 B", "512 B", "1 KiB"]);
        assert_eq!(few.label(1536.0), "1.5 KiB");
    }

    #[test]
    fn parameters_span_their_data_with_a_margin() {
        let d = Scale::parameter([0.1, 0.5, 0.9], Some(Meaning::Fraction));
        assert!(!d.log && d.lo < 0.1 && d.lo > 0.05 && d.hi > 0.9 && d.hi < 0.95);
        assert_eq!(d.ticks(), vec![0.2, 0.4, 0.6, 0.8]);
        let depth = Scale::parameter([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], Some(Meaning::Depth));
        assert!(!depth.log);
        assert_eq!(depth.ticks(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let counts = Scale::parameter([10.0, 1000.0, 100_000.0], Some(Meaning::Count));
        assert!(counts.log && counts.lo > 5.0 && counts.hi < 200_000.0);
        assert_eq!(
            counts.ticks(),
            vec![10.0, 100.0, 1000.0, 10_000.0, 100_000.0]
        );
        let unknown = Scale::parameter([2.0, 4.0], None);
        assert!(!unknown.log && unknown.lo < 2.0 && unknown.hi > 4.0);
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
