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
//! (up to [`RETRIES`](sample::RETRIES) times, where it is short); a batch
//! longer than a sample is timed in windows ([`crate::sampling`]) that
//! together make one pass over it, so a sample still means the whole
//! batch's time per element. Each record carries how many pieces were set
//! aside.
//!
//! Each verification and each measuring round is announced as a step
//! ([`crate::fault::beacon`]) with the time it is expected to take, so a
//! watched child that crashes or hangs is traced to its variant and set;
//! the variants found to fault are excluded ([`BenchOptions::exclude`])
//! and get a record saying what happened instead of a time.
//!
//! A variant that reads its own form of the inputs ([`crate::prepared`])
//! makes it before verification, timed apart (`preparation.rs`).
//!
//! Verification is in `verified.rs`, the timing loop in `sample.rs`; here
//! are the options and the main path: inputs, verification, rounds.

pub(crate) mod allocated;
mod clocked;
mod preparation;
mod sample;
mod verified;

use crate::engine::verify::build_solver;
use crate::error::Error;
use crate::fault::Excluded;
use crate::fault::beacon::{self, Batch, Step};
use crate::progress;
use crate::repro::Generated;
use crate::sets;
use crate::workload::{VariantInfo, Workload};
use reports::Record;
use sample::{Budget, Timed, measure};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use verified::{Pending, Solver, Verified};

/// What `bench` should do.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
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
    /// Variants found to crash or hang: not run, recorded as such.
    pub exclude: Vec<Excluded>,
    /// The core to measure on (`--core`); `None`: the least busy one.
    #[serde(default)]
    pub core: Option<usize>,
}

/// Verifies and measures one workload; returns one record per (variant,
/// input set, metric), errors and skips included.
pub fn run<W: Workload + ?Sized>(w: &W, options: &BenchOptions) -> Result<Vec<Record>, Error> {
    let chosen = chosen(w, &options.variants)?;
    let inputs_by_set = inputs(w, options)?;
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
    for (set, inputs) in &inputs_by_set {
        let source = Generated {
            set,
            seed: options.seed,
            count: w.bench_batch(options.quick),
        };
        verified.verify_set(w, &chosen, &source, inputs, &options.exclude)?;
    }
    let Verified {
        mut records,
        mut pending,
        mut solvers,
    } = verified;
    for set in zero_sized(&pending) {
        eprintln!(
            "warning: {}: input set '{set}' holds no {} (every input is empty), so its time and throughput per {} mean nothing",
            w.name(),
            w.unit(),
            w.unit_singular()
        );
    }
    let core = options
        .core
        .or_else(|| crate::cores::least_busy(crate::cores::LOOK));
    let _pinned = core.and_then(crate::cores::Pinned::to);
    measure_rounds(w.name(), &mut pending, &mut solvers, &budget, rounds);
    records.extend(pending.into_iter().flat_map(Pending::into_records));
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

/// Input sets by name, each with its generated inputs.
type Sets<I> = Vec<(String, Vec<I>)>;

/// The input sets to measure (those named, or the workload's bench sets),
/// each with its generated inputs; an empty set is an error.
fn inputs<W: Workload + ?Sized>(w: &W, options: &BenchOptions) -> Result<Sets<W::Input>, Error> {
    let named_sets = if options.sets.is_empty() {
        w.bench_sets(options.quick)
    } else {
        options.sets.clone()
    };
    let members = sets::expand(&w.input_sets(), &named_sets, options.quick)
        .map_err(|e| Error::usage(format!("{}: {e}", w.name())))?;
    let mut inputs_by_set = Vec::with_capacity(members.len());
    for member in &members {
        let set = member.name().to_owned();
        let inputs = w
            .generate(member, options.seed, w.bench_batch(options.quick))
            .map_err(|e| Error::usage(format!("{}: input set '{set}': {e}", w.name())))?;
        if inputs.is_empty() {
            return Err(Error::usage(format!(
                "{}: input set '{set}' is empty",
                w.name()
            )));
        }
        inputs_by_set.push((set, inputs));
    }
    Ok(inputs_by_set)
}

/// The input sets, in order, on which every variant's inputs hold no
/// element (`--inputs size:0`): their time per element is the time of a
/// call, their throughput zero.
fn zero_sized<W: Workload + ?Sized>(pending: &[Pending<'_, W>]) -> Vec<String> {
    let mut sets: Vec<String> = Vec::new();
    for p in pending {
        let set = &p.record.input_set;
        if !sets.contains(set)
            && pending
                .iter()
                .filter(|q| q.record.input_set == *set)
                .all(|q| q.each.iter().sum::<u64>() == 0)
        {
            sets.push(set.clone());
        }
    }
    sets
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
                prepared: &p.prepared,
                each: &p.each,
            };
            let round = measure(
                &mut *solvers[p.solver].1,
                batch,
                &mut p.out,
                budget,
                p.warm,
                &mut p.sizer,
                &mut p.disturbance,
            );
            p.warm = Duration::ZERO;
            p.rounds.push(round.ns);
            p.clocks.push(round.clock);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
}
