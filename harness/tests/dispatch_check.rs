//! A dispatching variant under the check engine, registered as an adapter
//! registers one: a wrong (or panicking) variant behind it makes it
//! disagree, and the finding names the variant it chose for the input.

use bitbench::check::{self, CheckOptions};
use bitbench::dispatch::{Level, Range, Table, Tier};
use bitbench::{InputSet, Member, Shrink, Solve, VariantInfo, Workload};

/// Set bits of a word. `naive` (the oracle) and `builtin` are right;
/// `buggy` counts one too many from 1000 on and `boom` panics there.
#[derive(Clone)]
struct Popcount;

/// `builtin` below 1000, `buggy` from there.
const DISPATCH: Table = Table {
    name: "dispatch",
    workload: "popcount",
    parameter: Some("value"),
    levels: &[Level {
        target_cpu: "default",
        target_features: &[],
        tiers: &[Tier {
            features: &[],
            ranges: &[
                Range {
                    below: 1000.0,
                    variant: "builtin",
                },
                Range {
                    below: f64::INFINITY,
                    variant: "buggy",
                },
            ],
        }],
    }],
};

/// The same with `boom` from 1000.
const DISPATCH_BOOM: Table = Table {
    name: "dispatch-boom",
    levels: &[Level {
        target_cpu: "default",
        target_features: &[],
        tiers: &[Tier {
            features: &[],
            ranges: &[
                Range {
                    below: 1000.0,
                    variant: "builtin",
                },
                Range {
                    below: f64::INFINITY,
                    variant: "boom",
                },
            ],
        }],
    }],
    ..DISPATCH
};

const FIXED: [&str; 4] = ["naive", "builtin", "buggy", "boom"];

impl Workload for Popcount {
    type Input = u32;
    type Output = u32;
    fn name(&self) -> &'static str {
        "popcount"
    }
    fn description(&self) -> &'static str {
        "toy"
    }
    fn unit(&self) -> &'static str {
        "words"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        let mut v: Vec<VariantInfo> = FIXED
            .iter()
            .map(|n| VariantInfo::new(n, "toy", &[]))
            .collect();
        v.push(DISPATCH.variant());
        v.push(DISPATCH_BOOM.variant());
        v
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u32, u32>>> {
        for table in [&DISPATCH, &DISPATCH_BOOM] {
            if variant == table.name {
                return table.solver(self);
            }
        }
        match variant {
            "naive" => Some(Box::new(|x: &u32| (0..32).map(|i| x >> i & 1).sum())),
            "builtin" => Some(Box::new(|x: &u32| x.count_ones())),
            "buggy" => Some(Box::new(|x: &u32| x.count_ones() + u32::from(*x >= 1000))),
            "boom" => Some(Box::new(|x: &u32| {
                assert!(*x < 1000, "boom at {x}");
                x.count_ones()
            })),
            _ => None,
        }
    }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::new("all", "words below 4000")]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["all".into()]
    }
    fn generate(&self, _set: &Member, seed: u64, n: usize) -> Result<Vec<u32>, String> {
        Ok((0..n as u64)
            .map(|i| ((i + seed).wrapping_mul(2654435761) % 4000) as u32)
            .collect())
    }
    fn parse_input(&self, text: &str) -> Result<u32, String> {
        text.parse().map_err(|_| "not a number".into())
    }
    fn format_input(&self, input: &u32) -> String {
        input.to_string()
    }
    fn format_output(&self, output: &u32) -> String {
        output.to_string()
    }
    fn shrink(&self, input: &u32) -> Vec<u32> {
        input.shrink()
    }
    fn regime_parameter(&self) -> Option<&'static str> {
        Some("value")
    }
    fn regime(&self, input: &u32) -> f64 {
        (*input).into()
    }
}

#[test]
fn a_wrong_variant_behind_the_dispatcher_is_found_and_named() {
    let report = check::run(&Popcount, &CheckOptions::new(500, 1)).unwrap();
    let failure = |variant: &str| {
        report
            .failures
            .iter()
            .find(|f| f.variant == variant)
            .unwrap_or_else(|| panic!("{variant} disagrees: {report:?}"))
    };
    let dispatch = failure("dispatch");
    let input: u32 = dispatch.input.parse().unwrap();
    assert!(input >= 1000, "{dispatch:?}");
    assert_eq!(dispatch.expected, input.count_ones().to_string());
    assert_eq!(
        dispatch.got,
        format!("{} (chose buggy for this input)", input.count_ones() + 1)
    );
    let boom = failure("dispatch-boom");
    assert!(boom.got.contains("boom at"), "{boom:?}");
    assert!(
        boom.got.ends_with(" (chose boom for this input)"),
        "{boom:?}"
    );
    // A fixed variant's answer is as it always was.
    let buggy = failure("buggy");
    let input: u32 = buggy.input.parse().unwrap();
    assert_eq!(buggy.got, (input.count_ones() + 1).to_string());
    assert_eq!(report.failures.len(), 4, "{report:?}");
    let builtin = &report.summary[0];
    assert!(builtin.starts_with("builtin: agreed with naive on 500 inputs"));
    assert!(!builtin.contains("DISAGREES"), "{builtin}");
}
