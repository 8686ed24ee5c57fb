//! Colours: a colour-blind-safe qualitative palette for variants and the
//! viridis ramp for heatmaps.
//!
//! A variant's colour is its position in the workload's variant order
//! (oracle first), so the same variant has the same colour in every chart
//! of a report. Lines are thin on a white background, so every colour must
//! read on white (3:1, WCAG's bar for graphics) and stay apart from every
//! other under the common colour-vision deficiencies; the tests check both.

use crate::verdict::Verdict;
use plotters::style::RGBColor;

/// Black first (the oracle's fixed colour), then colours chosen by a
/// greedy search over Okabe–Ito and Paul Tol colours (darkened until they
/// reach 3:1) and an HSV grid: each has at least 3:1 contrast on white, and
/// every pair is at least 10 apart in CIEDE2000 with normal vision and
/// under simulated protanopia, deuteranopia and tritanopia (Machado,
/// Oliveira & Fernandes 2009, severity 1). Eleven is as many as the search
/// found; marker shapes and dashes keep lines apart once colours cycle.
const QUALITATIVE: [RGBColor; 11] = [
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0x33, 0x99, 0x00),
    RGBColor(0xFF, 0x40, 0xBF),
    RGBColor(0xBB, 0x55, 0x66),
    RGBColor(0x88, 0x22, 0x55),
    RGBColor(0x99, 0x44, 0x99),
    RGBColor(0x00, 0x99, 0xE6),
    RGBColor(0x93, 0x93, 0x93),
    RGBColor(0xBF, 0x80, 0x60),
    RGBColor(0x11, 0x77, 0x33),
    RGBColor(0x33, 0x22, 0x88),
];

/// The colour of the `index`-th variant; cycles after eleven.
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

/// The colours of an A/B verdict: vermilion for worse, blue for better,
/// grey for no change, indigo for unsettled; each 3:1 on white and apart
/// from the others under colour-vision deficiencies (tested).
const VERDICTS: [RGBColor; 4] = [
    ERROR,
    RGBColor(0x00, 0x72, 0xB2),
    GREY,
    RGBColor(0x33, 0x22, 0x88),
];

/// The colour of an A/B verdict: a regression or a break in the error
/// colour, an improvement or a fix in blue, no change in grey, anything
/// unsettled (inconclusive, not comparable) in indigo.
pub(crate) fn verdict(v: &Verdict) -> RGBColor {
    match v {
        Verdict::Regressed | Verdict::Broke(_) => VERDICTS[0],
        Verdict::Improved | Verdict::Fixed(_) => VERDICTS[1],
        Verdict::NoChange => VERDICTS[2],
        Verdict::Inconclusive(_) | Verdict::NotComparable(_) => VERDICTS[3],
    }
}

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

    fn linear(c: u8) -> f64 {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }

    fn contrast_on_white(c: RGBColor) -> f64 {
        let [r, g, b] = [c.0, c.1, c.2].map(linear);
        1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)
    }

    type Matrix = [[f64; 3]; 3];

    const NORMAL: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    /// Machado, Oliveira & Fernandes (2009), severity 1.0.
    const PROTAN: Matrix = [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ];
    const DEUTAN: Matrix = [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ];
    const TRITAN: Matrix = [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ];
    const SRGB_TO_XYZ: Matrix = [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ];

    fn apply(m: &Matrix, v: [f64; 3]) -> [f64; 3] {
        m.map(|row| row[0] * v[0] + row[1] * v[1] + row[2] * v[2])
    }

    /// CIELAB (D65) of `c` as seen through `vision`, in linear RGB.
    fn lab(c: RGBColor, vision: &Matrix) -> [f64; 3] {
        let rgb = apply(vision, [c.0, c.1, c.2].map(linear)).map(|v| v.clamp(0.0, 1.0));
        let [x, y, z] = apply(&SRGB_TO_XYZ, rgb);
        let f = |t: f64| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// CIEDE2000 (Sharma, Wu & Dalal 2005).
    fn delta_e(p: [f64; 3], q: [f64; 3]) -> f64 {
        let ([l1, a1, b1], [l2, a2, b2]) = (p, q);
        let c_mean = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
        let g = 0.5 * (1.0 - (c_mean.powi(7) / (c_mean.powi(7) + 25f64.powi(7))).sqrt());
        let (a1, a2) = ((1.0 + g) * a1, (1.0 + g) * a2);
        let (c1, c2) = (a1.hypot(b1), a2.hypot(b2));
        let hue = |b: f64, a: f64| {
            if a == 0.0 && b == 0.0 {
                0.0
            } else {
                b.atan2(a).to_degrees().rem_euclid(360.0)
            }
        };
        let (h1, h2) = (hue(b1, a1), hue(b2, a2));
        let zero = c1 * c2 == 0.0;
        let mut dh = h2 - h1;
        if dh > 180.0 {
            dh -= 360.0;
        } else if dh < -180.0 {
            dh += 360.0;
        }
        let dh = if zero { 0.0 } else { dh };
        let big_dh = 2.0 * (c1 * c2).sqrt() * (dh / 2.0).to_radians().sin();
        let h_mean = if zero {
            h1 + h2
        } else if (h1 - h2).abs() <= 180.0 {
            (h1 + h2) / 2.0
        } else if h1 + h2 < 360.0 {
            (h1 + h2 + 360.0) / 2.0
        } else {
            (h1 + h2 - 360.0) / 2.0
        };
        let cos = |deg: f64| deg.to_radians().cos();
        let t = 1.0 - 0.17 * cos(h_mean - 30.0)
            + 0.24 * cos(2.0 * h_mean)
            + 0.32 * cos(3.0 * h_mean + 6.0)
            - 0.20 * cos(4.0 * h_mean - 63.0);
        let (l_mean, c_mean) = ((l1 + l2) / 2.0, (c1 + c2) / 2.0);
        let theta = 30.0 * (-((h_mean - 275.0) / 25.0).powi(2)).exp();
        let rc = 2.0 * (c_mean.powi(7) / (c_mean.powi(7) + 25f64.powi(7))).sqrt();
        let sl = 1.0 + 0.015 * (l_mean - 50.0).powi(2) / (20.0 + (l_mean - 50.0).powi(2)).sqrt();
        let sc = 1.0 + 0.045 * c_mean;
        let sh = 1.0 + 0.015 * c_mean * t;
        let rt = -(2.0 * theta).to_radians().sin() * rc;
        let (dl, dc, dhh) = ((l2 - l1) / sl, (c2 - c1) / sc, big_dh / sh);
        (dl * dl + dc * dc + dhh * dhh + rt * dc * dhh).sqrt()
    }

    #[test]
    fn ciede2000_matches_sharma_pair() {
        let d = delta_e([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485]);
        assert!((d - 2.0425).abs() < 1e-4, "{d}");
        let d = delta_e([50.0, 2.5, 0.0], [73.0, 25.0, -18.0]);
        assert!((d - 27.1492).abs() < 1e-4, "{d}");
    }

    #[test]
    fn variant_colours_read_on_white() {
        for c in QUALITATIVE {
            assert!(contrast_on_white(c) >= 3.0, "{c:?}");
        }
    }

    /// Every pair of `colours` at least 10 apart in CIEDE2000 with normal
    /// vision and under each simulated deficiency.
    fn stay_apart(colours: &[RGBColor]) {
        let visions = [
            ("normal", NORMAL),
            ("protan", PROTAN),
            ("deutan", DEUTAN),
            ("tritan", TRITAN),
        ];
        for (name, m) in &visions {
            for (i, &a) in colours.iter().enumerate() {
                for &b in &colours[i + 1..] {
                    let d = delta_e(lab(a, m), lab(b, m));
                    assert!(d >= 10.0, "{name}: {a:?} {b:?} {d}");
                }
            }
        }
    }

    #[test]
    fn variant_colours_stay_apart_under_colour_blindness() {
        stay_apart(&QUALITATIVE);
    }

    #[test]
    fn verdict_colours_read_on_white_and_stay_apart() {
        for c in VERDICTS {
            assert!(contrast_on_white(c) >= 3.0, "{c:?}");
        }
        stay_apart(&VERDICTS);
    }
}
