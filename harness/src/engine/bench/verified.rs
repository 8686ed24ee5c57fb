//! Verify, then time: every (set, variant) prepares its inputs (see
//! `preparation.rs`), solves them once and is compared with the
//! reference; a variant not run or wrong gets its record here and is
//! never timed, one that passes has its allocations counted
//! (`allocated.rs`) and waits for the rounds.

use super::preparation::{self, Preparation};
use super::{allocated, clocked};
use crate::cycles::Calibrations;
use crate::engine::checked::checked;
use crate::engine::verify::{self, build_solver};
use crate::error::Error;
use crate::fault::Excluded;
use crate::fault::beacon::{self, Batch, Step};
use crate::machine;
use crate::repro::Generated;
use crate::sampling::Sizer;
use crate::stats;
use crate::workload::{Prepared, Solve, VariantInfo, Workload};
use reports::{Disturbance, Metric, Record, Status, interval};
use std::time::{Duration, Instant};

/// A variant's solver, as the workload builds it.
pub type Solver<W> = Box<dyn Solve<<W as Workload>::Input, <W as Workload>::Output>>;

/// What verification leaves: the records already final (not run, wrong,
/// counters), the (set, variant)s to measure, and the solvers built.
pub struct Verified<'a, W: Workload + ?Sized> {
    /// The records already final, in order.
    pub records: Vec<Record>,
    /// What passed, waiting to be measured.
    pub pending: Vec<Pending<'a, W>>,
    /// Every variant's solver, built once for all sets.
    pub solvers: Vec<(&'static str, Solver<W>)>,
}

impl<'a, W: Workload + ?Sized> Verified<'a, W> {
    /// Verifies every `chosen` variant on the `inputs` drawn from `source`
    /// against the reference: a variant not run (`excluded` as faulting,
    /// its reference excluded, skipped) or wrong gets its record, one that
    /// passes its counters' records and a place among the pending.
    pub fn verify_set(
        &mut self,
        w: &W,
        chosen: &[VariantInfo],
        source: &Generated<'_>,
        inputs: &'a [W::Input],
        excluded: &[Excluded],
    ) -> Result<(), Error> {
        let set = source.set;
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
            let solver_ref = &mut *self.solvers[solver].1;
            let preparation = {
                let _running = beacon::begin(|| Step::new(v.name, batch(), Duration::ZERO));
                preparation::prepare(solver_ref, inputs)
            };
            let Preparation { prepared, took } = match preparation {
                Ok(preparation) => preparation,
                Err(panic) => {
                    self.records.push(Record {
                        status: Status::Error,
                        reason: Some(format!("{} {panic}, not measured", v.name)),
                        ..time
                    });
                    continue;
                }
            };
            let verified = Instant::now();
            let answers = checked(
                w,
                v.name,
                solver_ref,
                inputs,
                source,
                &prepared,
                expected.as_ref(),
            );
            let out = match answers {
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
            let mut pending = Pending::new(w, time, inputs, out, solver, verified, prepared);
            let besides = besides_time(w, (set, v.name), &took, solver_ref, &mut pending);
            self.records.extend(besides);
            pending.record.reason = expected
                .as_ref()
                .filter(|e| e.name != oracle)
                .map(|e| format!("verified against {} (oracle skipped by cost model)", e.name));
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

/// The records a verified `variant` on `set` gets besides its time: its
/// preparation's (timed as `took`), its allocations' on a pass of
/// `solver` (`allocated.rs`), its counters'.
fn besides_time<W: Workload + ?Sized>(
    w: &W,
    (set, variant): (&str, &str),
    took: &[Duration],
    solver: &mut dyn Solve<W::Input, W::Output>,
    pending: &mut Pending<'_, W>,
) -> Vec<Record> {
    let mut records = Vec::new();
    if !took.is_empty() {
        records.push(preparation_record(w, set, variant, took, pending));
    }
    records.extend(allocated::records(
        solver,
        (pending.inputs, &pending.prepared),
        &mut pending.out,
        pending.elements,
        |metric| {
            let unit = metric.unit(w.unit_singular()).unwrap_or_default();
            record(w, set, variant, metric, unit)
        },
    ));
    records.extend(counter_records(w, set, variant, &pending.out));
    records
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

/// The `prepare` record of `variant` on `set`: each timed preparation of
/// the batch as a sample, per throughput element like its time.
fn preparation_record<W: Workload + ?Sized>(
    w: &W,
    set: &str,
    variant: &str,
    took: &[Duration],
    pending: &Pending<'_, W>,
) -> Record {
    let per_element: Vec<f64> = took
        .iter()
        .map(|t| t.as_nanos() as f64 / pending.elements as f64)
        .collect();
    let s = stats::summarize(&per_element).expect("at least one preparation");
    Record {
        median: s.median,
        mad: s.mad,
        min: s.min,
        max: s.max,
        samples: per_element.len() as u32,
        elements_per_sample: pending.elements,
        ..record(
            w,
            set,
            variant,
            Metric::Prepare,
            format!("ns/{}", w.unit_singular()),
        )
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

/// A verified (set, variant) waiting to be measured, and its samples so far.
pub struct Pending<'a, W: Workload + ?Sized> {
    /// Its time record, measured or not yet.
    pub record: Record,
    /// The set's inputs.
    pub inputs: &'a [W::Input],
    /// Index into the solvers built for this run.
    pub solver: usize,
    /// The inputs in the solver's own form, made before verification.
    pub prepared: Prepared,
    /// Where the solver writes its answers.
    pub out: Vec<W::Output>,
    /// Each input's throughput elements.
    pub each: Vec<u64>,
    /// The whole batch's throughput elements.
    pub elements: u64,
    /// Warm-up already done (the verification run, before the first round).
    pub warm: Duration,
    /// How long one run of the batch took (the verification run).
    pub batch: Duration,
    /// The samples' shape, set by the first round.
    pub sizer: Option<Sizer>,
    /// The samples, round by round.
    pub rounds: Vec<Vec<f64>>,
    /// Each round's calibrations of the clock.
    pub clocks: Vec<Result<Calibrations, String>>,
    /// Pieces timed and set aside, over all rounds.
    pub disturbance: Disturbance,
}

impl<'a, W: Workload + ?Sized> Pending<'a, W> {
    /// A variant verified on `inputs` (its answers `out`, taking
    /// `verified`), waiting to be measured with `solver` reading
    /// `prepared` into `record`.
    fn new(
        w: &W,
        record: Record,
        inputs: &'a [W::Input],
        out: Vec<W::Output>,
        solver: usize,
        verified: Duration,
        prepared: Prepared,
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
            prepared,
            out,
            each,
            elements,
            warm: verified,
            batch: verified,
            sizer: None,
            rounds: Vec::new(),
            clocks: Vec::new(),
            disturbance: Disturbance {
                probe: crate::disturb::PROBE.to_owned(),
                ..Disturbance::default()
            },
        }
    }

    /// Its time record (the median and spread of all its samples, the
    /// median's interval from the rounds) and the same samples in cycles
    /// (`clocked.rs`).
    pub fn into_records(self) -> Vec<Record> {
        let record = &self.record;
        let seed = interval::seed_of(&[&record.workload, &record.variant, &record.input_set]);
        let elements_per_sample = self.elements * self.sizer.map_or(1, |s| s.shape().reps);
        let time = Record {
            elements_per_sample,
            disturbance: Some(self.disturbance),
            ..summarised(&self.rounds, seed, self.record)
        };
        let cycles = clocked::record(&time, &self.clocks, |rounds| {
            summarised(rounds, seed, time.clone())
        });
        vec![time, cycles]
    }
}

/// `like` with the median and spread of all the samples of `rounds`, and
/// the median's interval from them (seeded by `seed`).
fn summarised(rounds: &[Vec<f64>], seed: u64, like: Record) -> Record {
    let all: Vec<f64> = rounds.iter().flatten().copied().collect();
    let s = stats::summarize(&all).expect("at least one sample");
    Record {
        median: s.median,
        mad: s.mad,
        min: s.min,
        max: s.max,
        samples: all.len() as u32,
        interval: interval::median_interval(rounds, seed),
        rounds: rounds.to_vec(),
        ..like
    }
}

/// The counter records of `variant` on `set`: each counter's mean over one
/// pass's outputs `out`, per input.
fn counter_records<W: Workload + ?Sized>(
    w: &W,
    set: &str,
    variant: &str,
    out: &[W::Output],
) -> Vec<Record> {
    let inputs = out.len().max(1);
    counter_totals(w, out)
        .into_iter()
        .map(|(counter, total)| {
            let per_input = total as f64 / inputs as f64;
            Record {
                median: per_input,
                min: per_input,
                max: per_input,
                samples: 1,
                elements_per_sample: inputs as u64,
                ..record(w, set, variant, Metric::Counter, format!("{counter}/input"))
            }
        })
        .collect()
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
