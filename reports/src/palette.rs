//! Colours: a colour-blind-safe qualitative palette for variants and the
//! viridis ramp for heatmaps.
//!
//! A variant's colour is its position in the workload's variant order
//! (oracle first), so the same variant has the same colour in every chart
//! of a report.

use plotters::style::RGBColor;

/// Okabe–Ito (black first, for the oracle), then Paul Tol's "muted" colours
/// for workloads with more than eight variants.
const QUALITATIVE: [RGBColor; 13] = [
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xF0, 0xE4, 0x42),
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x33, 0x22, 0x88),
    RGBColor(0x88, 0x22, 0x55),
    RGBColor(0x44, 0xAA, 0x99),
    RGBColor(0x99, 0x99, 0x33),
    RGBColor(0xCC, 0x66, 0x77),
];

/// The colour of the `index`-th variant; cycles after thirteen.
pub(crate) fn variant(index: usize) -> RGBColor {
    QUALITATIVE[index % QUALITATIVE.len()]
}

/// Grey for the labels of skipped bars (4.5:1 contrast on white).
pub(crate) const GREY: RGBColor = RGBColor(0x76, 0x76, 0x76);
/// Dark grey for axes and secondary text.
pub(crate) const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Light grey for grid lines.
pub(crate) const GRID: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);
/// Red for error marks (Okabe–Ito vermillion).
pub(crate) const ERROR: RGBColor = RGBColor(0xD5, 0x5E, 0x00);

/// Viridis sampled at nine evenly spaced points (matplotlib's table).
const VIRIDIS: [(u8, u8, u8); 9] = [
    (0x44, 0x01, 0x54),
    (0x47, 0x2C, 0x7A),
    (0x3B, 0x51, 0x8B),
    (0x2C, 0x71, 0x8E),
    (0x21, 0x90, 0x8D),
    (0x27, 0xAD, 0x81),
    (0x5C, 0xC8, 0x63),
    (0xAA, 0xDC, 0x32),
    (0xFD, 0xE7, 0x25),
];

/// Viridis at `t` in 0..=1 (clamped), interpolated linearly between samples.
pub(crate) fn viridis(t: f64) -> RGBColor {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + (f64::from(q) - f64::from(p)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The colour of the `index`-th of `count` target-cpu levels: an ordered
/// ramp (viridis, ends trimmed), since levels are ordered and must not be
/// mistaken for variants.
pub(crate) fn level(index: usize, count: usize) -> RGBColor {
    let t = if count > 1 {
        index as f64 / (count - 1) as f64
    } else {
        0.5
    };
    viridis(0.1 + 0.75 * t)
}

/// Black or white, whichever reads better on `background`.
pub(crate) fn text_on(background: RGBColor) -> RGBColor {
    let RGBColor(r, g, b) = background;
    let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
    if luma > 140.0 {
        RGBColor(0, 0, 0)
    } else {
        RGBColor(0xFF, 0xFF, 0xFF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viridis_ends_and_contrast() {
        assert_eq!(viridis(0.0), RGBColor(0x44, 0x01, 0x54));
        assert_eq!(viridis(1.0), RGBColor(0xFD, 0xE7, 0x25));
        assert_eq!(viridis(2.0), viridis(1.0));
        assert_eq!(text_on(viridis(0.0)), RGBColor(255, 255, 255));
        assert_eq!(text_on(viridis(1.0)), RGBColor(0, 0, 0));
    }

    #[test]
    fn variant_colours_are_distinct_before_cycling() {
        let all: Vec<_> = (0..QUALITATIVE.len()).map(variant).collect();
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b != a), "{i}");
        }
        assert_eq!(variant(QUALITATIVE.len()), variant(0));
    }
}
