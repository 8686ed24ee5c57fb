//! Planted laws with noise: each class is found, an intercept that
//! dominates small sizes is not read as another class, noise on a
//! constant stays a constant, and a cache cliff is said to fit no class.

use super::*;
use crate::interval::Interval;
use crate::results::Parameter;

/// A deterministic noise factor within ±`share`, the `i`-th of a sequence.
fn noise(i: usize, share: f64) -> f64 {
    let x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11;
    let u = x as f64 / (1u64 << 53) as f64;
    1.0 + share * (2.0 * u - 1.0)
}

/// Sizes 8 B … 1 MiB by powers of two.
fn sizes() -> Vec<f64> {
    (3..=20).map(|e| 2f64.powi(e)).collect()
}

fn planted(ns: &[f64], f: impl Fn(f64) -> f64, share: f64) -> Vec<Point> {
    ns.iter()
        .enumerate()
        .map(|(i, &n)| {
            let t = f(n) * noise(i, share);
            Point {
                n,
                t,
                sigma: t * share / 2.0,
            }
        })
        .collect()
}

fn chosen(points: &[Point], exponential: bool) -> Law {
    law(points, None, exponential).expect("enough points")
}

/// A class and a planted law of it.
type Case = (Class, fn(f64) -> f64);

#[test]
fn each_planted_class_is_found() {
    let cases: [Case; 7] = [
        (Class::Constant, |_| 50.0),
        (Class::Log, |n| 20.0 + 5.0 * n.log2()),
        (Class::Sqrt, |n| 10.0 + 0.5 * n.sqrt()),
        (Class::Linear, |n| 12.0 + 0.02 * n),
        (Class::NLogN, |n| 3.0 + 0.01 * n * n.log2()),
        (Class::Quadratic, |n| 100.0 + 1e-4 * n * n),
        (Class::Cubic, |n| 1000.0 + 1e-9 * n * n * n),
    ];
    for (class, f) in cases {
        let l = chosen(&planted(&sizes(), f, 0.02), false);
        assert_eq!(l.fit.class, class, "{}: {}", class.name(), l.line());
        assert_eq!(l.or, None, "{}: {}", class.name(), l.line());
        assert!(l.misfit.is_none(), "{}", l.line());
    }
}

#[test]
fn the_intercept_and_exponent_of_a_linear_law() {
    // 12 ns a call dominates up to 600 B: still O(n), not O(√n).
    let l = chosen(&planted(&sizes(), |n| 12.0 + 0.02 * n, 0.02), false);
    assert_eq!(l.fit.class, Class::Linear);
    assert!((l.fit.a / 12.0 - 1.0).abs() < 0.1, "{}", l.line());
    assert!((l.fit.b / 0.02 - 1.0).abs() < 0.02, "{}", l.line());
    let (p, lo, hi) = l.exponent.unwrap();
    assert!(
        lo <= 1.0 && 1.0 <= hi && (p - 1.0).abs() < 0.03,
        "{}",
        l.line()
    );
    assert!(l.line().starts_with("O(n), 0.02"), "{}", l.line());
}

#[test]
fn noise_on_a_constant_is_not_a_log() {
    // ±8 % noise rising by chance with size must not leave O(1).
    let l = chosen(
        &planted(&sizes(), |n| 40.0 + 0.2 * n.log2() / 20.0, 0.08),
        false,
    );
    assert_eq!(l.fit.class, Class::Constant, "{}", l.line());
    assert!(l.exponent.is_none());
}

#[test]
fn a_depth_grows_exponentially() {
    let depths: Vec<f64> = (1..=10).map(f64::from).collect();
    let l = chosen(
        &planted(&depths, |d| 40.0 + 2.0 * 3.5f64.powf(d), 0.02),
        true,
    );
    assert_eq!(l.fit.class, Class::Exponential, "{}", l.line());
    assert!((l.fit.c - 3.5).abs() < 0.05, "{}", l.line());
}

#[test]
fn a_cache_cliff_fits_no_class_and_says_so() {
    // Four times the cost per byte beyond 32 KiB.
    let cliff = |n: f64| {
        10.0 + if n <= 32768.0 {
            0.02 * n
        } else {
            0.08 * n - 1966.0
        }
    };
    let l = chosen(&planted(&sizes(), cliff, 0.01), false);
    let (miss, _) = l.misfit.expect("a misfit");
    assert!(miss > 0.2, "{}", l.line());
    assert!(l.line().contains("fits no class well"), "{}", l.line());
}

#[test]
fn records_of_a_byte_sweep_are_fitted_per_input_with_resamples() {
    let records: Vec<Record> = sizes()
        .into_iter()
        .map(|n| {
            // Per byte: 0.02 ns plus 12 ns a call spread over the buffer.
            let per_byte = 0.02 + 12.0 / n;
            let rounds: Vec<Vec<f64>> = (0..3)
                .map(|k| {
                    (0..8)
                        .map(|i| per_byte * noise(k * 8 + i + n as usize, 0.01))
                        .collect()
                })
                .collect();
            Record {
                workload: "pop".into(),
                variant: "popcnt".into(),
                input_set: format!("size:{n}"),
                metric: Metric::Time,
                unit: "ns/byte".into(),
                median: per_byte,
                samples: 24,
                interval: Some(Interval {
                    low: per_byte * 0.995,
                    high: per_byte * 1.005,
                }),
                rounds,
                parameters: vec![Parameter {
                    name: "bytes".into(),
                    value: n,
                    meaning: None,
                }],
                ..Record::default()
            }
        })
        .collect();
    let refs: Vec<&Record> = records.iter().collect();
    let sweep = of_records(&refs, "bytes").expect("a law");
    // Drawn per byte: 0.02 + 12 / n ns.
    assert!((sweep.per_element_ns(1024.0) / (0.02 + 12.0 / 1024.0) - 1.0).abs() < 0.05);
    let l = sweep.law;
    assert_eq!(l.fit.class, Class::Linear, "{}", l.line());
    assert!((l.fit.b / 0.02 - 1.0).abs() < 0.05, "{}", l.line());
    let agreed = l.agreed.expect("resamples");
    assert!(agreed > 0.9, "{}", l.line());
    // A density is not a size.
    let mut density = records[0].clone();
    density.parameters[0].name = "density".into();
    assert!(of_records(&[&density; 5], "density").is_none());
}
