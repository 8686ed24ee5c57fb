//! Verify, then time: the generic benchmark loop.
//!
//! For each input set every variant first solves the inputs once and is
//! compared with the reference (the oracle, or where its cost model says
//! no, the declared default variant — which `check` verifies against the
//! oracle on smaller inputs). A wrong answer becomes an error record and is
//! never timed. Timing follows the usual recipe: warm up, size the sample so
//! it outlasts the clock's resolution, take many samples, keep the median
//! and MAD per element.

use crate::erased::build_solver;
use crate::error::CliError;
use crate::machine;
use crate::progress;
use crate::stats;
use crate::verify;
use crate::workload::{Solve, Workload};
use reports::{Metric, Record, Status};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What `bench` should do.
#[derive(Clone, Debug, Default)]
pub struct BenchOptions {
    /// Variants to measure; empty means all.
    pub variants: Vec<String>,
    /// Input sets to measure; empty means the workload's defaults.
    pub sets: Vec<String>,
    /// Short runs (smaller sets, fewer samples).
    pub quick: bool,
    /// Generator seed.
    pub seed: u64,
}

/// How long to sample, by mode.
struct Budget {
    warm_up: Duration,
    sample: Duration,
    total: Duration,
    min_samples: u32,
    max_samples: u32,
}

impl Budget {
    fn new(quick: bool) -> Self {
        if quick {
            Budget {
                warm_up: Duration::from_millis(20),
                sample: Duration::from_millis(2),
                total: Duration::from_millis(150),
                // A batch slower than `total` (a deep search) gets two
                // samples, so a quick sweep stays quick.
                min_samples: 2,
                max_samples: 15,
            }
        } else {
            Budget {
                warm_up: Duration::from_millis(200),
                sample: Duration::from_millis(10),
                total: Duration::from_secs(2),
                min_samples: 5,
                max_samples: 51,
            }
        }
    }
}

/// Verifies and measures one workload; returns one record per (variant,
/// input set, metric), errors and skips included.
pub fn run<W: Workload + ?Sized>(w: &W, options: &BenchOptions) -> Result<Vec<Record>, CliError> {
    let all = w.variants();
    for name in &options.variants {
        if !all.iter().any(|v| v.name == name) {
            build_solver(w, name)?; // reports the unknown name with the known list
        }
    }
    let chosen: Vec<_> = all
        .iter()
        .filter(|v| options.variants.is_empty() || options.variants.iter().any(|n| n == v.name))
        .collect();
    let named_sets = if options.sets.is_empty() {
        w.bench_sets(options.quick)
    } else {
        options.sets.clone()
    };
    let sets: Vec<String> = named_sets
        .iter()
        .flat_map(|s| w.expand_set(s, options.quick))
        .collect();
    let mut inputs_by_set = Vec::with_capacity(sets.len());
    for set in &sets {
        let inputs = w
            .generate(set, options.seed, w.bench_batch(options.quick))
            .map_err(|e| CliError::usage(format!("{}: input set '{set}': {e}", w.name())))?;
        if inputs.is_empty() {
            return Err(CliError::usage(format!(
                "{}: input set '{set}' is empty",
                w.name()
            )));
        }
        inputs_by_set.push(inputs);
    }

    let budget = Budget::new(options.quick);
    let unit = singular(w.unit());
    let target_cpu = machine::target_cpu();
    let oracle = all[0].name;
    let mut records = Vec::new();
    let bar = progress::bar((sets.len() * chosen.len()) as u64, w.name());
    for (set, inputs) in sets.iter().zip(&inputs_by_set) {
        let record = |variant: &str, metric, unit: String| Record {
            workload: w.name().to_owned(),
            variant: variant.to_owned(),
            input_set: set.clone(),
            target_cpu: target_cpu.to_owned(),
            metric,
            unit,
            ..Record::default()
        };
        let expected = verify::expected(w, inputs)?;
        for v in &chosen {
            bar.set_message(format!("{} on {set}", v.name));
            let time = record(v.name, Metric::Time, format!("ns/{unit}"));
            let skipped = v
                .unavailable
                .clone()
                .or_else(|| inputs.iter().find_map(|i| w.skip(v.name, i)));
            if let Some(reason) = skipped {
                records.push(Record {
                    status: Status::Skipped,
                    reason: Some(reason),
                    ..time
                });
                bar.inc(1);
                continue;
            }
            let solver = build_solver(w, v.name)?;
            let verified = Instant::now();
            let mut out = match verify::checked(w, v.name, &*solver, inputs, expected.as_ref()) {
                Ok(out) => out,
                Err(reason) => {
                    records.push(Record {
                        status: Status::Error,
                        reason: Some(reason),
                        ..time
                    });
                    bar.inc(1);
                    continue;
                }
            };
            let verified = verified.elapsed();
            let elements: u64 = inputs
                .iter()
                .zip(&out)
                .map(|(i, o)| w.elements(i, o))
                .sum::<u64>()
                .max(1);
            let (samples, reps) = measure(&*solver, inputs, &mut out, &budget, verified);
            let per_element: Vec<f64> = samples
                .iter()
                .map(|ns| ns / (elements * reps) as f64)
                .collect();
            let s = stats::summarize(&per_element).expect("at least one sample");
            records.push(Record {
                median: s.median,
                mad: s.mad,
                min: s.min,
                max: s.max,
                samples: samples.len() as u32,
                elements_per_sample: elements * reps,
                reason: expected
                    .as_ref()
                    .filter(|e| e.name != oracle)
                    .map(|e| format!("verified against {} (oracle skipped by cost model)", e.name)),
                ..time
            });
            for (counter, total) in counter_totals(w, &out) {
                let per_input = total as f64 / inputs.len() as f64;
                records.push(Record {
                    median: per_input,
                    min: per_input,
                    max: per_input,
                    samples: 1,
                    elements_per_sample: inputs.len() as u64,
                    ..record(v.name, Metric::Counter, format!("{counter}/input"))
                });
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(records)
}

/// Sums each counter over one pass's outputs, keeping first-seen order.
fn counter_totals<W: Workload + ?Sized>(w: &W, out: &[W::Output]) -> Vec<(&'static str, u64)> {
    let mut totals: Vec<(&'static str, u64)> = Vec::new();
    for o in out {
        for (name, value) in w.counters(o) {
            match totals.iter_mut().find(|(n, _)| *n == name) {
                Some((_, total)) => *total += value,
                None => totals.push((name, value)),
            }
        }
    }
    totals
}

/// Times `solver` on `inputs`: returns nanoseconds per sample and the
/// number of batch repetitions in each sample.
///
/// `verified` is how long the verification run of the same batch took just
/// before: that run warmed the caches too, so it counts towards the
/// warm-up, and a batch slower than the whole warm-up budget (a deep
/// cephalopod search) is not run again only to warm up.
fn measure<I, O>(
    solver: &dyn Solve<I, O>,
    inputs: &[I],
    out: &mut [O],
    budget: &Budget,
    verified: Duration,
) -> (Vec<f64>, u64) {
    let run = |out: &mut [O]| {
        let start = Instant::now();
        solver.solve_batch(black_box(inputs), black_box(&mut *out));
        black_box(&*out);
        start.elapsed()
    };
    let warm_start = Instant::now();
    let mut one = verified;
    while verified + warm_start.elapsed() < budget.warm_up {
        one = one.min(run(out));
    }
    let reps = (budget.sample.as_nanos() / one.as_nanos().max(1)).max(1) as u64;
    let mut samples = Vec::new();
    let start = Instant::now();
    while samples.len() < budget.min_samples as usize
        || (samples.len() < budget.max_samples as usize && start.elapsed() < budget.total)
    {
        let sample = Instant::now();
        for _ in 0..reps {
            solver.solve_batch(black_box(inputs), black_box(&mut *out));
            black_box(&*out);
        }
        samples.push(sample.elapsed().as_nanos() as f64);
    }
    (samples, reps)
}

/// `boards` → `board`, for per-element units.
pub fn singular(unit: &str) -> &str {
    unit.strip_suffix('s').unwrap_or(unit)
}
