//! A toy workload whose input carries its regime, with variants that count
//! the calls they get: what the table chooses, what the solver calls, and
//! that the answers come back in order.

use super::{Level, Range, Table, Tier};
use crate::sets::{InputSet, Member};
use crate::workload::{Solve, VariantInfo, Workload, prepared};
use std::sync::{Arc, Mutex};

/// `(regime, value)`; the answer is `value * 10 + the variant's digit`, so
/// an answer says which variant gave it.
pub(crate) type Input = (u32, u64);

/// Every variant's calls: its name and the values of the inputs it got.
type Calls = Arc<Mutex<Vec<(&'static str, Vec<u64>)>>>;

/// Variants: `scalar` (digit 1), `wide` (2), `prepared` (3, from a form
/// made beforehand) and `neon` (4, needs a feature no x86 CPU has).
#[derive(Clone, Default)]
pub(crate) struct Toy {
    calls: Calls,
    /// Inputs `prepared` prepared.
    prepared: Arc<Mutex<usize>>,
    /// Without a regime parameter (and then with [`FEATURES_ONLY`]).
    features_only: bool,
}

fn digit(variant: &str) -> u64 {
    match variant {
        "scalar" => 1,
        "wide" => 2,
        "prepared" => 3,
        _ => 4,
    }
}

/// A variant that records each call.
struct Counted {
    name: &'static str,
    calls: Calls,
}

impl Solve<Input, u64> for Counted {
    fn solve_batch(&mut self, inputs: &[Input], out: &mut [u64]) {
        let values = inputs.iter().map(|i| i.1).collect();
        self.calls.lock().unwrap().push((self.name, values));
        for (i, o) in inputs.iter().zip(out) {
            *o = i.1 * 10 + digit(self.name);
        }
    }
}

impl Workload for Toy {
    type Input = Input;
    type Output = u64;
    fn name(&self) -> &'static str {
        "toy"
    }
    fn description(&self) -> &'static str {
        "tens and a digit"
    }
    fn unit(&self) -> &'static str {
        "values"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("scalar", "toy", &[]),
            VariantInfo::new("wide", "toy", &[]),
            VariantInfo::new("prepared", "toy", &[]),
            VariantInfo::new("neon", "toy", &["neon"]),
            TABLE.variant(),
        ]
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Input, u64>>> {
        if variant == TABLE.name {
            let table = if self.features_only {
                &FEATURES_ONLY
            } else {
                &TABLE
            };
            return table.solver(self);
        }
        let counted = |name| Counted {
            name,
            calls: self.calls.clone(),
        };
        match variant {
            "scalar" => Some(Box::new(counted("scalar"))),
            "wide" => Some(Box::new(counted("wide"))),
            "prepared" => {
                let count = self.prepared.clone();
                let form = move |i: &Input| {
                    *count.lock().unwrap() += 1;
                    (i.0, i.1 * 10)
                };
                Some(prepared(form, |i: &Input| i.1 + 3))
            }
            "neon" => (crate::features::detected("neon") == Some(true))
                .then(|| Box::new(counted("neon")) as Box<dyn Solve<Input, u64>>),
            _ => None,
        }
    }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::new("all", "toy")]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["all".into()]
    }
    fn generate(&self, _set: &Member, _seed: u64, n: usize) -> Result<Vec<Input>, String> {
        Ok((0..n as u64).map(|v| ((v % 40) as u32, v)).collect())
    }
    fn parse_input(&self, _text: &str) -> Result<Input, String> {
        Err("toy".into())
    }
    fn format_input(&self, input: &Input) -> String {
        format!("{input:?}")
    }
    fn format_output(&self, output: &u64) -> String {
        output.to_string()
    }
    fn regime_parameter(&self) -> Option<&'static str> {
        (!self.features_only).then_some("regime")
    }
    fn regime(&self, input: &Input) -> f64 {
        assert!(!self.features_only, "no regime without a parameter");
        input.0.into()
    }
}

/// `scalar` below 10, `wide` from 10 to below 20, `prepared` from 20: on a
/// CPU with NEON, `neon` everywhere; a level for AVX-512 builds first.
const TABLE: Table = Table {
    name: "dispatch",
    workload: "toy",
    parameter: Some("regime"),
    levels: &[
        Level {
            target_cpu: "x86-64-v4",
            target_features: &["avx512f"],
            tiers: &[Tier {
                features: &[],
                ranges: &[Range {
                    below: f64::INFINITY,
                    variant: "wide",
                }],
            }],
        },
        Level {
            target_cpu: "default",
            target_features: &[],
            tiers: &[
                Tier {
                    features: &["neon"],
                    ranges: &[Range {
                        below: f64::INFINITY,
                        variant: "neon",
                    }],
                },
                Tier {
                    features: &[],
                    ranges: &[
                        Range {
                            below: 10.0,
                            variant: "scalar",
                        },
                        Range {
                            below: 20.0,
                            variant: "wide",
                        },
                        Range {
                            below: f64::INFINITY,
                            variant: "prepared",
                        },
                    ],
                },
            ],
        },
    ],
};

/// Without a parameter: by features only, one range a tier.
const FEATURES_ONLY: Table = Table {
    parameter: None,
    levels: &[Level {
        target_cpu: "default",
        target_features: &[],
        tiers: &[Tier {
            features: &[],
            ranges: &[Range {
                below: f64::INFINITY,
                variant: "scalar",
            }],
        }],
    }],
    ..TABLE
};

/// Whether this build takes the AVX-512 level, which runs `wide` only.
fn avx512_build() -> bool {
    cfg!(target_feature = "avx512f")
}

/// Whether this machine takes the NEON tier.
fn neon() -> bool {
    crate::features::detected("neon") == Some(true)
}

/// Whether this build and machine run the three ranges of the default
/// level's last tier, which most tests are about.
pub(crate) fn three_ranges() -> bool {
    !avx512_build() && !neon()
}

/// Solves `inputs` with the dispatcher of `w`, returning the answers and
/// the calls the variants got.
fn solve(w: &Toy, inputs: &[Input]) -> (Vec<u64>, Vec<(&'static str, Vec<u64>)>) {
    let mut solver = w.solver("dispatch").expect("the dispatcher builds");
    let mut out = vec![0; inputs.len()];
    solver.solve_batch(inputs, &mut out);
    let calls = std::mem::take(&mut *w.calls.lock().unwrap());
    (out, calls)
}

/// Values `from..to`, all at `regime`.
pub(crate) fn at(regime: u32, values: std::ops::Range<u64>) -> Vec<Input> {
    values.map(|v| (regime, v)).collect()
}

#[test]
fn choose_follows_the_range_boundaries() {
    if !three_ranges() {
        return;
    }
    let chosen = |regime| TABLE.choose(regime).unwrap();
    assert_eq!(chosen(f64::NEG_INFINITY), "scalar");
    assert_eq!(chosen(-5.0), "scalar", "below the first range: the first");
    assert_eq!(chosen(9.99), "scalar");
    assert_eq!(
        chosen(10.0),
        "wide",
        "a boundary belongs to the range above"
    );
    assert_eq!(chosen(19.0), "wide");
    assert_eq!(chosen(20.0), "prepared");
    assert_eq!(chosen(f64::INFINITY), "prepared");
    assert_eq!(chosen(f64::NAN), "prepared", "NaN: the last range");
}

#[test]
fn a_regime_falls_in_the_range_that_holds_it() {
    use super::choose::index;
    let ranges = TABLE.levels[1].tiers[1].ranges;
    let regimes = [
        f64::NEG_INFINITY,
        -1.0,
        0.0,
        9.99,
        10.0,
        19.99,
        20.0,
        1e300,
        f64::INFINITY,
        f64::NAN,
    ];
    for i in 0..ranges.len() {
        let low = i
            .checked_sub(1)
            .map_or(f64::NEG_INFINITY, |p| ranges[p].below);
        let last = i + 1 == ranges.len();
        for r in regimes {
            let holds = (r >= low || r.is_nan()) && (last || r < ranges[i].below);
            assert_eq!(holds, index(ranges, r) == i, "range {i}, regime {r}");
        }
    }
    assert_eq!(index(ranges, f64::NAN), 2);
    // One range holds everything.
    let one = &ranges[2..];
    assert!(regimes.iter().all(|&r| index(one, r) == 0));
}

#[test]
fn a_tier_needing_an_absent_feature_is_never_used() {
    if !cfg!(target_arch = "x86_64") || avx512_build() {
        return;
    }
    // No x86 CPU has NEON: the default level's last tier applies.
    assert_eq!(TABLE.ranges().unwrap().len(), 3);
    let w = Toy::default();
    let inputs: Vec<Input> = (0..60).map(|v| (v as u32 % 30, v)).collect();
    let (_, calls) = solve(&w, &inputs);
    assert!(calls.iter().all(|(name, _)| *name != "neon"), "{calls:?}");
    // Only NEON, on this CPU: nothing applies, and nothing builds.
    let neon_only = Table {
        levels: &[Level {
            target_cpu: "default",
            target_features: &[],
            tiers: &[Tier {
                features: &["neon"],
                ranges: &[Range {
                    below: f64::INFINITY,
                    variant: "neon",
                }],
            }],
        }],
        ..TABLE
    };
    assert_eq!(neon_only.ranges(), None);
    assert_eq!(neon_only.choose(1.0), None);
    assert!(neon_only.variant().unavailable.is_some());
    let leaked: &'static Table = Box::leak(Box::new(neon_only));
    assert!(leaked.solver(&w).is_none());
}

#[test]
fn a_level_whose_target_features_are_not_compiled_in_is_skipped() {
    let expected = if avx512_build() {
        vec!["wide"]
    } else if neon() {
        vec!["neon"]
    } else {
        vec!["scalar", "wide", "prepared"]
    };
    let ranges: Vec<&str> = TABLE.ranges().unwrap().iter().map(|r| r.variant).collect();
    assert_eq!(ranges, expected);
    // A table whose only level needs a feature no build has falls back to
    // it, the last.
    let only = Table {
        levels: &[Level {
            target_cpu: "other",
            target_features: &["neon"],
            tiers: &[Tier {
                features: &[],
                ranges: &[Range {
                    below: f64::INFINITY,
                    variant: "scalar",
                }],
            }],
        }],
        ..TABLE
    };
    assert_eq!(only.choose(3.0), Some("scalar"));
}

#[test]
fn a_batch_in_one_range_is_one_call_with_the_whole_batch() {
    if !three_ranges() {
        return;
    }
    let w = Toy::default();
    let inputs = at(12, 0..100);
    let (out, calls) = solve(&w, &inputs);
    assert_eq!(calls, [("wide", (0..100).collect())]);
    assert_eq!(out, (0..100).map(|v| v * 10 + 2).collect::<Vec<_>>());
}

#[test]
fn a_large_batch_is_judged_by_its_sample_and_answers_right_either_way() {
    if !three_ranges() {
        return;
    }
    let w = Toy::default();
    // 4096 inputs: the sample is every 64th and the last. An input of
    // another range between them runs on the batch's variant, with the
    // right answer; on a sampled place it splits the batch.
    let right = |inputs: &[Input], out: &[u64]| {
        let expected: Vec<u64> = inputs.iter().map(|&(_, v)| v * 10).collect();
        let tens: Vec<u64> = out.iter().map(|o| o / 10 * 10).collect();
        assert_eq!(tens, expected);
    };
    for (odd, calls) in [(1, 1), (64, 3), (4095, 2)] {
        let mut inputs = at(12, 0..4096);
        inputs[odd].0 = 3;
        let (out, made) = solve(&w, &inputs);
        assert_eq!(made.len(), calls, "the odd input at {odd}");
        right(&inputs, &out);
    }
}

#[test]
fn a_batch_of_long_runs_is_split_in_place_and_answers_keep_their_order() {
    if !three_ranges() {
        return;
    }
    let w = Toy::default();
    let inputs = [at(15, 0..40), at(3, 40..80), at(16, 80..120)].concat();
    let (out, calls) = solve(&w, &inputs);
    let names: Vec<&str> = calls.iter().map(|c| c.0).collect();
    assert_eq!(names, ["wide", "scalar", "wide"], "one call a run");
    assert_eq!(calls[1].1, (40..80).collect::<Vec<_>>());
    let expected: Vec<u64> = inputs
        .iter()
        .map(|&(r, v)| v * 10 + if r < 10 { 1 } else { 2 })
        .collect();
    assert_eq!(out, expected);
}

#[test]
fn an_interleaved_batch_is_gathered_one_call_a_variant() {
    if !three_ranges() {
        return;
    }
    let w = Toy::default();
    // Alternating regimes 5 and 15: runs of one.
    let inputs: Vec<Input> = (0..64)
        .map(|v| (if v % 2 == 0 { 5 } else { 15 }, v))
        .collect();
    let (out, mut calls) = solve(&w, &inputs);
    calls.sort();
    let evens: Vec<u64> = (0..64).step_by(2).collect();
    let odds: Vec<u64> = (1..64).step_by(2).collect();
    assert_eq!(calls, [("scalar", evens), ("wide", odds)]);
    let expected: Vec<u64> = (0..64).map(|v| v * 10 + 1 + v % 2).collect();
    assert_eq!(out, expected, "answers scattered back in order");
    // One solver on that batch, then a shorter one: its buffers are
    // reused, and what they kept from the longer batch is not read.
    let mut solver = w.solver("dispatch").unwrap();
    let mut again = vec![0; 64];
    solver.solve_batch(&inputs, &mut again);
    assert_eq!(again, expected);
    let short: Vec<Input> = (100..108)
        .map(|v| (if v % 2 == 0 { 15 } else { 5 }, v))
        .collect();
    let mut out = vec![0; 8];
    solver.solve_batch(&short, &mut out);
    let expected: Vec<u64> = (100..108).map(|v| v * 10 + 2 - v % 2).collect();
    assert_eq!(out, expected);
    let calls = std::mem::take(&mut *w.calls.lock().unwrap());
    assert_eq!(
        calls[2..],
        [
            ("scalar", vec![101, 103, 105, 107]),
            ("wide", vec![100, 102, 104, 106])
        ]
    );
}

#[test]
fn a_prepared_variant_gets_its_form_through_the_dispatcher() {
    if !three_ranges() {
        return;
    }
    let w = Toy::default();
    let inputs = [at(25, 0..30), at(2, 30..40), at(30, 40..50)].concat();
    let mut solver = w.solver("dispatch").unwrap();
    let prepared = solver.prepare(&inputs);
    assert!(prepared.is_own());
    assert_eq!(*w.prepared.lock().unwrap(), inputs.len(), "the whole batch");
    let mut out = vec![0; inputs.len()];
    prepared.run(&mut *solver, &inputs, 0..inputs.len(), &mut out);
    let expected: Vec<u64> = inputs
        .iter()
        .map(|&(r, v)| v * 10 + if r < 10 { 1 } else { 3 })
        .collect();
    assert_eq!(out, expected);
    assert_eq!(
        *w.prepared.lock().unwrap(),
        inputs.len(),
        "nothing prepared in the runs"
    );
    // Part of the batch, as a watched child runs it in steps.
    let mut part = vec![0; 15];
    prepared.run(&mut *solver, &inputs, 25..40, &mut part);
    assert_eq!(part, expected[25..40]);
    // Without a prepared variant among the chosen, the plain path.
    let plain = solver.prepare(&at(3, 0..10));
    assert!(!plain.is_own());
    assert_eq!(*w.prepared.lock().unwrap(), inputs.len());
}

#[test]
fn the_solver_names_the_variant_it_chose() {
    if !three_ranges() {
        return;
    }
    let solver = Toy::default().solver("dispatch").unwrap();
    assert_eq!(solver.chosen(&(4, 0)), Some("scalar"));
    assert_eq!(solver.chosen(&(10, 0)), Some("wide"));
    assert_eq!(solver.chosen(&(99, 0)), Some("prepared"));
    let scalar = Toy::default().solver("scalar").unwrap();
    assert_eq!(scalar.chosen(&(4, 0)), None);
}

#[test]
fn the_registry_entry_says_what_it_chooses_among() {
    let info = TABLE.variant();
    assert_eq!((info.name, info.unavailable), ("dispatch", None));
    assert!(info.features.is_empty());
    if three_ranges() {
        assert!(
            info.description
                .starts_with("chooses among scalar, wide and prepared by regime on this CPU"),
            "{}",
            info.description
        );
    }
    // The same text each time, not a new one.
    assert!(std::ptr::eq(info.description, TABLE.variant().description));
}

#[test]
fn a_table_of_another_workload_or_naming_itself_builds_nothing() {
    let w = Toy::default();
    let other: &'static Table = Box::leak(Box::new(Table {
        workload: "other",
        ..TABLE
    }));
    assert!(other.solver(&w).is_none());
    let by_another: &'static Table = Box::leak(Box::new(Table {
        parameter: Some("density"),
        ..TABLE
    }));
    assert!(by_another.solver(&w).is_none());
    let itself: &'static Table = Box::leak(Box::new(Table {
        levels: &[Level {
            target_cpu: "default",
            target_features: &[],
            tiers: &[Tier {
                features: &[],
                ranges: &[Range {
                    below: f64::INFINITY,
                    variant: "dispatch",
                }],
            }],
        }],
        ..TABLE
    }));
    assert!(itself.solver(&w).is_none());
}

#[test]
fn without_a_parameter_one_variant_runs_everything_in_one_call() {
    let w = Toy {
        features_only: true,
        ..Toy::default()
    };
    // Regimes all over: never computed (the toy's `regime` would panic).
    let inputs: Vec<Input> = (0..50).map(|v| (v as u32 * 7 % 40, v)).collect();
    let (out, calls) = solve(&w, &inputs);
    assert_eq!(calls, [("scalar", (0..50).collect())]);
    assert_eq!(out, (0..50).map(|v| v * 10 + 1).collect::<Vec<_>>());
    let solver = w.solver("dispatch").unwrap();
    assert_eq!(solver.chosen(&(30, 0)), Some("scalar"));
}
