//! Verify, then time: the generic benchmark loop.
//!
//! For each input set every variant first solves the inputs once and is
//! compared with the reference (the oracle, or where its cost model says
//! no, the declared default variant — which `check` verifies against the
//! oracle on smaller inputs). A wrong answer becomes an error record and is
//! never timed. Timing follows the usual recipe: warm up, size the sample so
//! it outlasts the clock's resolution, take many samples, keep the median
//! and MAD per element.
//!
//! On a busy machine a sample may lose the core. The measuring thread is
//! pinned to the least busy core (or `--core`), every timed piece is
//! watched ([`crate::disturb`]) and one that was disturbed is taken again
//! (up to [`RETRIES`] times, where it is short); a batch longer than a sample is timed in
//! windows ([`crate::shape`]) that together make one pass over it, so a
//! sample still means the whole batch's time per element. Each record
//! carries how many pieces were set aside.
//!
//! Each verification and each measuring round is announced as a step
//! ([`crate::fault::beacon`]) with the time it is expected to take, so a
//! watched child that crashes or hangs is traced to its variant and set;
//! the variants found to fault are excluded ([`BenchOptions::exclude`])
//! and get a record saying what happened instead of a time.

use crate::disturb::Watch;
use crate::error::Error;
use crate::fault::Excluded;
use crate::fault::beacon::{self, Batch, Step};
use crate::machine;
use crate::progress;
use crate::sets;
use crate::shape::Sizer;
use crate::stats;
use crate::verify::{self, build_solver};
use crate::workload::{Solve, VariantInfo, Workload};
use reports::{Disturbance, Metric, Record, Status, interval};
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::ops::Range;
use std::time::{Duration, Instant};

/// What `bench` should do.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchOptions {
    /// Variants to measure; empty means all.
    pub variants: Vec<String>,
    /// Input sets to measure; empty means the workload's defaults.
    pub sets: Vec<String>,
    /// Short runs (smaller sets, fewer samples).
    pub quick: bool,
    /// Generator seed.
    pub seed: u64,
    /// Measuring rounds (default: 2 quick, 3 full), see [`run`].
    pub rounds: Option<u32>,
    /// How long a step may run beyond its allowance before it counts as
    /// hung (`--timeout`).
    pub timeout: Duration,
    /// Variants found to crash or hang: not run, recorded as such.
    pub exclude: Vec<Excluded>,
    /// The core to measure on (`--core`); `None`: the least busy one.
    #[serde(default)]
    pub core: Option<usize>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            variants: Vec::new(),
            sets: Vec::new(),
            quick: false,
            seed: 0,
            rounds: None,
            timeout: crate::fault::DEFAULT_TIMEOUT,
            exclude: Vec::new(),
            core: None,
        }
    }
}

/// Times a disturbed piece of a sample is taken, at most, before it is
/// kept as it is.
pub const RETRIES: u32 = 3;

/// How long to sample, by mode.
struct Budget {
    warm_up: Duration,
    sample: Duration,
    total: Duration,
    min_samples: u32,
    max_samples: u32,
}

impl Budget {
    /// The share of one of `rounds` rounds: the same time in all, split.
    fn per_round(self, rounds: u32) -> Self {
        Budget {
            warm_up: self.warm_up / rounds,
            total: self.total / rounds,
            min_samples: self.min_samples.div_ceil(rounds).max(2),
            max_samples: self.max_samples.div_ceil(rounds),
            ..self
        }
    }

    /// How long one measuring round of a batch taking `batch` should last
    /// at most: the warm-up, the sampling budget, and the minimum samples
    /// where a batch outlasts the budget.
    fn expected(&self, batch: Duration) -> Duration {
        self.warm_up + batch + self.total + self.sample.max(batch) * self.min_samples
    }

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
pub fn run<W: Workload + ?Sized>(w: &W, options: &BenchOptions) -> Result<Vec<Record>, Error> {
    let chosen = chosen(w, &options.variants)?;
    let (sets, inputs_by_set) = inputs(w, options)?;
    let rounds = options
        .rounds
        .unwrap_or(if options.quick { 2 } else { 3 })
        .max(1);
    let budget = Budget::new(options.quick).per_round(rounds);
    // Verify every (set, variant) first; what passes is measured below.
    let mut verified = Verified {
        records: Vec::new(),
        pending: Vec::new(),
        solvers: Vec::new(),
    };
    for (set, inputs) in sets.iter().zip(&inputs_by_set) {
        verified.verify_set(w, &chosen, set, inputs, &options.exclude)?;
    }
    let Verified {
        mut records,
        mut pending,
        mut solvers,
    } = verified;
    let core = options
        .core
        .or_else(|| crate::cores::least_busy(crate::cores::LOOK));
    let _pinned = core.and_then(crate::cores::Pinned::to);
    measure_rounds(w.name(), &mut pending, &mut solvers, &budget, rounds);
    records.extend(pending.into_iter().map(Pending::into_record));
    Ok(records)
}

/// The variants to measure: those named, or all; a name the workload
/// does not know is an error that lists the known ones.
fn chosen<W: Workload + ?Sized>(w: &W, named: &[String]) -> Result<Vec<VariantInfo>, Error> {
    let all = w.variants();
    for name in named {
        if !all.iter().any(|v| v.name == name) {
            build_solver(w, name)?; // reports the unknown name with the known list
        }
    }
    Ok(all
        .into_iter()
        .filter(|v| named.is_empty() || named.iter().any(|n| n == v.name))
        .collect())
}

/// The input sets to measure (those named, or the workload's bench sets)
/// and each one's generated inputs; an empty set is an error.
fn inputs<W: Workload + ?Sized>(
    w: &W,
    options: &BenchOptions,
) -> Result<(Vec<String>, Vec<Vec<W::Input>>), Error> {
    let named_sets = if options.sets.is_empty() {
        w.bench_sets(options.quick)
    } else {
        options.sets.clone()
    };
    let members = sets::expand(&w.input_sets(), &named_sets, options.quick)
        .map_err(|e| Error::usage(format!("{}: {e}", w.name())))?;
    let sets: Vec<String> = members.iter().map(|m| m.name().to_owned()).collect();
    let mut inputs_by_set = Vec::with_capacity(sets.len());
    for (set, member) in sets.iter().zip(&members) {
        let inputs = w
            .generate(member, options.seed, w.bench_batch(options.quick))
            .map_err(|e| Error::usage(format!("{}: input set '{set}': {e}", w.name())))?;
        if inputs.is_empty() {
            return Err(Error::usage(format!(
                "{}: input set '{set}' is empty",
                w.name()
            )));
        }
        inputs_by_set.push(inputs);
    }
    Ok((sets, inputs_by_set))
}

/// What verification leaves: the records already final (not run, wrong,
/// counters), the (set, variant)s to measure, and the solvers built.
struct Verified<'a, W: Workload + ?Sized> {
    records: Vec<Record>,
    pending: Vec<Pending<'a, W>>,
    solvers: Vec<(&'static str, Solver<W>)>,
}

impl<'a, W: Workload + ?Sized> Verified<'a, W> {
    /// Verifies every `chosen` variant on `set`'s `inputs` against the
    /// reference: a variant not run (`excluded` as faulting, its reference
    /// excluded, skipped) or wrong gets its record, one that passes its
    /// counters' records and a place among the pending.
    fn verify_set(
        &mut self,
        w: &W,
        chosen: &[VariantInfo],
        set: &str,
        inputs: &'a [W::Input],
        excluded: &[Excluded],
    ) -> Result<(), Error> {
        let oracle = w.oracle();
        let reference = verify::reference(w, inputs);
        let faulted = |name: &str| excluded.iter().find(|e| e.variant == name);
        let reference_faulted = reference.zip(reference.and_then(faulted));
        let batch = || Batch::Set {
            set: set.to_owned(),
        };
        let expected = match reference_faulted {
            Some(_) => None,
            None => verify::expected(w, inputs, &batch)?,
        };
        for v in chosen {
            let time = record(
                w,
                set,
                v.name,
                Metric::Time,
                format!("ns/{}", w.unit_singular()),
            );
            if let Some((status, reason)) =
                not_run(w, v, set, inputs, faulted(v.name), reference_faulted)
            {
                self.records.push(Record {
                    status,
                    reason: Some(reason),
                    ..time
                });
                continue;
            }
            let solver = self.solver(w, v.name)?;
            let verified = Instant::now();
            let solver_ref = &mut *self.solvers[solver].1;
            let checked = verify::checked(w, v.name, solver_ref, inputs, expected.as_ref(), &batch);
            let out = match checked {
                Ok(out) => out,
                Err(reason) => {
                    self.records.push(Record {
                        status: Status::Error,
                        reason: Some(reason),
                        ..time
                    });
                    continue;
                }
            };
            let verified = verified.elapsed();
            for (counter, total) in counter_totals(w, &out) {
                let per_input = total as f64 / inputs.len() as f64;
                self.records.push(Record {
                    median: per_input,
                    min: per_input,
                    max: per_input,
                    samples: 1,
                    elements_per_sample: inputs.len() as u64,
                    ..record(w, set, v.name, Metric::Counter, format!("{counter}/input"))
                });
            }
            let time = Record {
                reason: expected
                    .as_ref()
                    .filter(|e| e.name != oracle)
                    .map(|e| format!("verified against {} (oracle skipped by cost model)", e.name)),
                ..time
            };
            let pending = Pending::new(w, time, inputs, out, solver, verified);
            self.pending.push(pending);
        }
        Ok(())
    }

    /// The index of `variant`'s solver, built on first use.
    fn solver(&mut self, w: &W, variant: &'static str) -> Result<usize, Error> {
        Ok(
            match self.solvers.iter().position(|(name, _)| *name == variant) {
                Some(i) => i,
                None => {
                    self.solvers.push((variant, build_solver(w, variant)?));
                    self.solvers.len() - 1
                }
            },
        )
    }
}

/// A record of `w`'s `variant` on `set` in `metric`, measured in `unit`,
/// nothing measured yet.
fn record<W: Workload + ?Sized>(
    w: &W,
    set: &str,
    variant: &str,
    metric: Metric,
    unit: String,
) -> Record {
    Record {
        workload: w.name().to_owned(),
        variant: variant.to_owned(),
        input_set: set.to_owned(),
        target_cpu: machine::target_cpu().to_owned(),
        metric,
        unit,
        unit_plural: Some(w.unit().to_owned()),
        ..Record::default()
    }
}

/// Why `v` is not measured on `set`, if it is not, and the status that
/// says so: it faulted (`excluded`, here or on another set), the
/// reference it would be verified against faulted, or it is unavailable
/// or its cost model skips one of `inputs`.
fn not_run<W: Workload + ?Sized>(
    w: &W,
    v: &VariantInfo,
    set: &str,
    inputs: &[W::Input],
    excluded: Option<&Excluded>,
    reference_faulted: Option<(&str, &Excluded)>,
) -> Option<(Status, String)> {
    if let Some(e) = excluded {
        let reason = if e.set == set {
            e.reason.clone()
        } else {
            format!("not run: {} (on {})", e.reason, e.set)
        };
        return Some((e.status, reason));
    }
    if let Some((name, e)) = reference_faulted {
        let reason = format!(
            "not verified, so not measured: the reference {name} {}",
            e.reason
        );
        return Some((Status::Skipped, reason));
    }
    let skipped = v
        .unavailable
        .clone()
        .or_else(|| inputs.iter().find_map(|i| w.skip(v.name, i)))?;
    Some((Status::Skipped, skipped))
}

/// Measures every pending (set, variant) once a round: rounds apart in
/// time, so the records see the drift between runs (frequency,
/// neighbours), not only the spread within one. Each round of each is
/// announced as a step expected to last what its `budget` allows.
fn measure_rounds<W: Workload + ?Sized>(
    name: &str,
    pending: &mut [Pending<'_, W>],
    solvers: &mut [(&'static str, Solver<W>)],
    budget: &Budget,
    rounds: u32,
) {
    let bar = progress::bar((pending.len() as u32 * rounds) as u64, name);
    for round in 0..rounds {
        for p in &mut *pending {
            bar.set_message(format!(
                "{} on {} (round {})",
                p.record.variant,
                p.record.input_set,
                round + 1
            ));
            let _running = beacon::begin(|| {
                let batch = Batch::Set {
                    set: p.record.input_set.clone(),
                };
                Step::new(&p.record.variant, batch, budget.expected(p.batch))
            });
            let batch = Timed {
                inputs: p.inputs,
                each: &p.each,
            };
            let samples = measure(
                &mut *solvers[p.solver].1,
                batch,
                &mut p.out,
                budget,
                p.warm,
                &mut p.sizer,
                &mut p.disturbance,
            );
            p.warm = Duration::ZERO;
            p.rounds.push(samples);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
}

type Solver<W> = Box<dyn Solve<<W as Workload>::Input, <W as Workload>::Output>>;

/// A verified (set, variant) waiting to be measured, and its samples so far.
struct Pending<'a, W: Workload + ?Sized> {
    record: Record,
    inputs: &'a [W::Input],
    /// Index into the solvers built for this run.
    solver: usize,
    out: Vec<W::Output>,
    /// Each input's throughput elements.
    each: Vec<u64>,
    elements: u64,
    /// Warm-up already done (the verification run, before the first round).
    warm: Duration,
    /// How long one run of the batch took (the verification run).
    batch: Duration,
    /// The samples' shape, set by the first round.
    sizer: Option<Sizer>,
    rounds: Vec<Vec<f64>>,
    /// Pieces timed and set aside, over all rounds.
    disturbance: Disturbance,
}

impl<'a, W: Workload + ?Sized> Pending<'a, W> {
    /// A variant verified on `inputs` (its answers `out`, taking
    /// `verified`), waiting to be measured with `solver` into `record`.
    fn new(
        w: &W,
        record: Record,
        inputs: &'a [W::Input],
        out: Vec<W::Output>,
        solver: usize,
        verified: Duration,
    ) -> Self {
        let each: Vec<u64> = inputs
            .iter()
            .zip(&out)
            .map(|(i, o)| w.elements(i, o))
            .collect();
        let elements = each.iter().sum::<u64>().max(1);
        Pending {
            record,
            inputs,
            solver,
            out,
            each,
            elements,
            warm: verified,
            batch: verified,
            sizer: None,
            rounds: Vec::new(),
            disturbance: Disturbance {
                probe: crate::disturb::PROBE.to_owned(),
                ..Disturbance::default()
            },
        }
    }

    /// Its time record: the median and spread of all its samples, the
    /// median's interval from the rounds.
    fn into_record(self) -> Record {
        let all: Vec<f64> = self.rounds.iter().flatten().copied().collect();
        let s = stats::summarize(&all).expect("at least one sample");
        let record = &self.record;
        let seed = interval::seed_of(&[&record.workload, &record.variant, &record.input_set]);
        Record {
            median: s.median,
            mad: s.mad,
            min: s.min,
            max: s.max,
            samples: all.len() as u32,
            elements_per_sample: self.elements * self.sizer.map_or(1, |s| s.shape().reps),
            interval: interval::median_interval(&self.rounds, seed),
            rounds: self.rounds,
            disturbance: Some(self.disturbance),
            ..self.record
        }
    }
}

/// A batch to time: its inputs and each one's throughput elements.
#[derive(Clone, Copy)]
struct Timed<'a, I> {
    inputs: &'a [I],
    each: &'a [u64],
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

/// Times `solver` on `batch`: returns nanoseconds per element, one per
/// sample. A sample is `reps` runs of the whole batch, or one pass over
/// it in windows, each window timed on its own (see [`crate::shape`]);
/// a disturbed piece is taken again, up to [`RETRIES`] times, and
/// counted in `disturbance`.
///
/// `verified` is how long the verification run of the same batch took just
/// before: that run warmed the caches too, so it counts towards the
/// warm-up, and a batch slower than the whole warm-up budget (a deep
/// cephalopod search) is not run again only to warm up. The first round
/// sets `sizer` from the fastest run; later rounds go on with it.
fn measure<I, O>(
    solver: &mut dyn Solve<I, O>,
    batch: Timed<'_, I>,
    out: &mut [O],
    budget: &Budget,
    verified: Duration,
    sizer: &mut Option<Sizer>,
    disturbance: &mut Disturbance,
) -> Vec<f64> {
    let n = batch.inputs.len();
    let mut run = |range: Range<usize>, reps: u64| {
        let watch = Watch::start();
        for _ in 0..reps {
            let out = &mut out[range.clone()];
            solver.solve_batch(
                black_box(&batch.inputs[range.clone()]),
                black_box(&mut *out),
            );
            black_box(out);
        }
        watch.stop()
    };
    let warm_start = Instant::now();
    let mut one = if verified.is_zero() {
        run(0..n, 1).wall
    } else {
        verified
    };
    while verified + warm_start.elapsed() < budget.warm_up {
        one = one.min(run(0..n, 1).wall);
    }
    let sizer = sizer.get_or_insert_with(|| Sizer::new(budget.sample, one, n));
    let mut samples = Vec::new();
    let start = Instant::now();
    while samples.len() < budget.min_samples as usize
        || (samples.len() < budget.max_samples as usize && start.elapsed() < budget.total)
    {
        let shape = sizer.shape();
        let (mut ns, mut elements) = (0u128, 0u64);
        for k in 0..shape.windows(n) {
            let range = shape.window(k, n);
            let mut seen = run(range.clone(), shape.reps);
            for _ in 1..RETRIES {
                // A piece that cannot be cut to the sample's length (one
                // long input) is kept as it is: taking it again would cost
                // more than its disturbance.
                if seen.disturbed() != Some(true) || seen.wall > budget.sample * 4 {
                    break;
                }
                disturbance.taken += 1;
                disturbance.set_aside += 1;
                sizer.note(true);
                seen = run(range.clone(), shape.reps);
            }
            let disturbed = seen.disturbed() == Some(true);
            disturbance.taken += 1;
            disturbance.set_aside += u32::from(disturbed);
            sizer.note(disturbed);
            ns += seen.wall.as_nanos();
            elements += batch.each[range].iter().sum::<u64>() * shape.reps;
        }
        samples.push(ns as f64 / elements.max(1) as f64);
    }
    samples
}
