//! Differential checking: every variant against the oracle.
//!
//! Every batch a variant runs is announced first (`crate::fault::beacon`),
//! so that when this runs in a watched child and a variant crashes or
//! hangs, the parent knows which variant and which chunk of which pass,
//! and can rebuild that chunk's inputs (`inputs_of`) to find the one
//! that does it. A variant found to fault is run no more
//! ([`CheckOptions::exclude`]); when it is the oracle, nothing is checked.
//!
//! The oracle is the workload's declared one. Where the workload's cost
//! model says the oracle would take too long, the declared default variant
//! becomes the reference once it agreed with the oracle on every input the
//! oracle could run, and the report says so. A variant that panics
//! disagrees; an oracle that panics ends the check with an error. A disagreement is minimised with the
//! workload's `shrink` before it is reported, so the user sees the smallest
//! input that still fails and the command that reproduces it.

use crate::error::Error;
use crate::fault::Excluded;
use crate::fault::beacon::{self, Batch, Step};
use crate::progress;
use crate::sets;
use crate::verify::{self, build_solver};
use crate::workload::{Solve, VariantInfo, Workload};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// What `check` should do.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckOptions {
    /// Generated inputs per check set (edge cases come on top).
    pub cases: usize,
    /// Generator seed.
    pub seed: u64,
    /// How long a batch may run beyond its allowance before it counts as
    /// hung (`--timeout`).
    pub timeout: Duration,
    /// Variants found to crash or hang: not run, reported as such.
    pub exclude: Vec<Excluded>,
}

impl CheckOptions {
    /// `cases` inputs per set from `seed`, the default deadline, nothing
    /// excluded.
    pub const fn new(cases: usize, seed: u64) -> Self {
        CheckOptions {
            cases,
            seed,
            timeout: crate::fault::DEFAULT_TIMEOUT,
            exclude: Vec::new(),
        }
    }

    fn excluded(&self, variant: &str) -> Option<&Excluded> {
        self.exclude.iter().find(|e| e.variant == variant)
    }
}

/// The outcome of checking one workload.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CheckReport {
    /// Workload name.
    pub workload: String,
    /// One line per variant: how many inputs it agreed on.
    pub summary: Vec<String>,
    /// Notes such as which reference replaced a skipped oracle.
    pub notes: Vec<String>,
    /// Disagreements, minimised.
    pub failures: Vec<Failure>,
    /// Crashes and hangs, found by the parent of the child that ran the
    /// check (see [`crate::fault`]).
    #[serde(skip)]
    pub(crate) faults: Vec<crate::fault::Finding>,
}

impl CheckReport {
    /// Whether the check found anything wrong.
    pub fn failed(&self) -> bool {
        !self.failures.is_empty() || !self.faults.is_empty()
    }
}

/// One minimised disagreement.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Failure {
    /// The failing variant.
    pub variant: String,
    /// The variant it disagreed with (the oracle or a verified stand-in).
    pub reference: String,
    /// Where the input came from (input set or edge case).
    pub origin: String,
    /// Whether the workload's `shrink` offered any smaller input to try:
    /// if not, `input` is the one the check drew, not minimised.
    pub minimised: bool,
    /// The minimised input in the spec's text format.
    pub input: String,
    /// The minimised input drawn for humans.
    pub picture: String,
    /// The reference's answer.
    pub expected: String,
    /// The variant's answer.
    pub got: String,
}

/// Inputs per parallel work unit: big enough to amortise scheduling, small
/// enough to keep every variant's outputs in cache.
const CHUNK: usize = 2048;

/// Steps of shrinking before settling for the input reached so far.
const SHRINK_LIMIT: usize = 10_000;

type Solver<W> = Box<dyn Solve<<W as Workload>::Input, <W as Workload>::Output>>;

/// Solvers for the parallel passes. A solver may keep scratch state, so no
/// two threads share one: each work unit takes a whole set (every checked
/// variant, built by the workload) and puts it back, and a set is built
/// only when every other is in use, at most one per thread.
struct Pool<'w, W: Workload + ?Sized> {
    w: &'w W,
    /// The variants of a set, in order: the oracle first.
    names: Vec<&'static str>,
    free: Mutex<Vec<Vec<Solver<W>>>>,
}

impl<'w, W: Workload + ?Sized> Pool<'w, W> {
    /// Builds the first set, so a variant that does not build is an error
    /// before any input is solved.
    fn new(w: &'w W, names: Vec<&'static str>) -> Result<Self, Error> {
        let pool = Pool {
            w,
            names,
            free: Mutex::new(Vec::new()),
        };
        let first = pool.build()?;
        pool.put(first);
        Ok(pool)
    }

    fn build(&self) -> Result<Vec<Solver<W>>, Error> {
        self.names.iter().map(|n| build_solver(self.w, n)).collect()
    }

    fn take(&self) -> Result<Vec<Solver<W>>, Error> {
        let spare = self
            .free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        spare.map_or_else(|| self.build(), Ok)
    }

    fn put(&self, set: Vec<Solver<W>>) {
        self.free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(set);
    }
}

/// Inputs with where each came from.
type Cases<I> = Vec<Case<I>>;

/// One input with where it came from.
#[derive(Clone)]
struct Case<I> {
    origin: usize,
    input: I,
}

/// One variant's agreement count and first disagreement.
struct Tally<I> {
    agreed: u64,
    skipped: u64,
    failure: Option<Case<I>>,
}

impl<I> Tally<I> {
    fn new() -> Self {
        Tally {
            agreed: 0,
            skipped: 0,
            failure: None,
        }
    }

    fn merge(&mut self, other: Tally<I>) {
        self.agreed += other.agreed;
        self.skipped += other.skipped;
        if self.failure.is_none() {
            self.failure = other.failure;
        }
    }
}

/// Every input `check` draws, each with the index of its origin, and the
/// origins in words: the edge cases, then each check set's inputs.
fn cases<W: Workload + ?Sized>(
    w: &W,
    options: &CheckOptions,
) -> Result<(Cases<W::Input>, Vec<String>), Error> {
    let mut origins = Vec::new();
    let mut cases = Vec::new();
    for (label, input) in w.edge_cases() {
        cases.push(Case {
            origin: origins.len(),
            input,
        });
        origins.push(format!("edge case '{label}'"));
    }
    let sets = sets::expand(&w.input_sets(), &w.check_sets(), false)
        .map_err(|e| Error::usage(format!("{}: {e}", w.name())))?;
    for set in sets {
        let name = set.name();
        let inputs = w
            .generate(&set, options.seed, options.cases)
            .map_err(|e| Error::usage(format!("{}: input set '{name}': {e}", w.name())))?;
        let origin = origins.len();
        cases.extend(inputs.into_iter().map(|input| Case { origin, input }));
        origins.push(format!("input set '{name}' (seed {})", options.seed));
    }
    Ok((cases, origins))
}

/// Splits the cases into the passes: what the oracle can afford (pass 1)
/// and what its cost model defers to the stand-in (pass 2); with the
/// first reason it gave.
fn passes<W: Workload + ?Sized>(
    w: &W,
    cases: Cases<W::Input>,
) -> (Cases<W::Input>, Cases<W::Input>, Option<String>) {
    let oracle = w.oracle();
    let mut skip_reason = None;
    let (affordable, deferred) = cases.into_iter().partition(|c| {
        let reason = w.skip(oracle, &c.input);
        let affordable = reason.is_none();
        if skip_reason.is_none() {
            skip_reason = reason;
        }
        affordable
    });
    (affordable, deferred, skip_reason)
}

/// The inputs `variant` ran in chunk `chunk` of pass `pass` (as a step
/// announced them), in the text format, each with its origin: rebuilt
/// from the options, as the check drew them.
pub(crate) fn inputs_of<W: Workload + ?Sized>(
    w: &W,
    options: &CheckOptions,
    pass: u8,
    chunk: usize,
    variant: &str,
) -> Result<Vec<(String, String)>, Error> {
    let (cases, origins) = cases(w, options)?;
    let (affordable, deferred, _) = passes(w, cases);
    let (cases, reference) = match pass {
        1 => (affordable, w.oracle()),
        _ => (deferred, w.default_variant()),
    };
    Ok(cases
        .chunks(CHUNK)
        .nth(chunk)
        .unwrap_or_default()
        .iter()
        .filter(|c| variant == reference || w.skip(variant, &c.input).is_none())
        .map(|c| (w.format_input(&c.input), origins[c.origin].clone()))
        .collect())
}

/// Runs the check for one workload.
pub fn run<W: Workload + ?Sized>(w: &W, options: &CheckOptions) -> Result<CheckReport, Error> {
    let variants = w.variants();
    let oracle_name = w.oracle();
    let mut report = CheckReport {
        workload: w.name().to_owned(),
        ..CheckReport::default()
    };
    if let Some(e) = options.excluded(oracle_name) {
        for v in variants.iter().filter(|v| v.name != oracle_name) {
            report.summary.push(format!(
                "{}: not checked: the oracle {oracle_name} {}",
                v.name,
                status_word(e)
            ));
        }
        return Ok(report);
    }
    let names = pool_names(&variants, oracle_name, options, &mut report.notes);
    let pool = Pool::new(w, names)?;
    let others: Vec<&'static str> = pool.names[1..].to_vec();

    // Every input, labelled with its origin for the failure report.
    let (cases, origins) = cases(w, options)?;

    // Pass 1: everything the oracle can afford.
    let (affordable, deferred, skip_reason) = passes(w, cases);
    let bar = progress::bar((affordable.len() + deferred.len()) as u64, w.name());
    // Pool indices: the oracle is 0, `others[i]` is i + 1.
    let all: Vec<usize> = (1..=others.len()).collect();
    let by_oracle = compare(w, &pool, (1, 0), &all, &affordable, &bar)?;

    // Pass 2: inputs beyond the oracle's budget, against a verified stand-in.
    let mut stand_in = None;
    if !deferred.is_empty() {
        let reason = skip_reason.unwrap_or_default();
        let (note, pass) = stand_in_pass(w, &pool, &by_oracle, &deferred, &reason, &bar)?;
        report.notes.push(note);
        stand_in = pass;
    }
    bar.finish_and_clear();

    for (i, name) in others.iter().enumerate() {
        let first = &by_oracle[i];
        let mut line = format!(
            "{name}: agreed with {oracle_name} on {} inputs",
            first.agreed
        );
        let mut skipped = first.skipped;
        let mut failure = first.failure.clone().map(|c| (c, 0));
        if let Some(StandIn {
            reference: r,
            tallies,
        }) = &stand_in
            && let Some(second) = &tallies[i]
        {
            line += &format!(", with {} on {}", others[*r], second.agreed);
            skipped += second.skipped;
            if failure.is_none() {
                failure = second.failure.clone().map(|c| (c, r + 1));
            }
        }
        if skipped > 0 {
            line += &format!(" ({skipped} skipped by the cost model)");
        }
        if let Some((case, reference)) = failure {
            let failure = minimised(w, &pool, [reference, i + 1], case, &origins)?;
            report.failures.push(failure);
            line += " — DISAGREES";
        }
        report.summary.push(line);
    }
    for e in &options.exclude {
        report
            .summary
            .push(format!("{}: {} (below)", e.variant, status_word(e)));
    }
    Ok(report)
}

/// The pool's variants: the oracle first, then every other variant that
/// runs here (neither excluded nor unavailable: a note says which are
/// unavailable).
fn pool_names(
    variants: &[VariantInfo],
    oracle_name: &'static str,
    options: &CheckOptions,
    notes: &mut Vec<String>,
) -> Vec<&'static str> {
    let mut names = vec![oracle_name];
    for v in variants.iter().filter(|v| v.name != oracle_name) {
        match (&v.unavailable, options.excluded(v.name)) {
            (Some(reason), _) => {
                notes.push(format!("{}: not checked, unavailable ({reason})", v.name))
            }
            (None, Some(_)) => {}
            (None, None) => names.push(v.name),
        }
    }
    names
}

/// Pass 2's reference and every other variant's tally against it.
struct StandIn<I> {
    /// The stand-in, an index into the variants other than the oracle.
    reference: usize,
    /// By the same index; `None` for the stand-in itself.
    tallies: Vec<Option<Tally<I>>>,
}

/// Pass 2: the `deferred` inputs, which the oracle's cost model skips
/// (for `reason`), checked against the default variant where it agreed
/// with the oracle in pass 1 (`by_oracle`). The note that says which
/// reference stood in, or that those inputs were not checked.
fn stand_in_pass<W: Workload + ?Sized>(
    w: &W,
    pool: &Pool<'_, W>,
    by_oracle: &[Tally<W::Input>],
    deferred: &[Case<W::Input>],
    reason: &str,
    bar: &indicatif::ProgressBar,
) -> Result<(String, Option<StandIn<W::Input>>), Error> {
    let oracle_name = pool.names[0];
    let others = &pool.names[1..];
    let default = w.default_variant();
    let verified = others
        .iter()
        .position(|name| *name == default)
        .filter(|&r| by_oracle[r].failure.is_none() && by_oracle[r].agreed > 0);
    let Some(r) = verified else {
        let note = format!(
            "{oracle_name} skipped on {} inputs ({reason}) and the default variant \
             {default} was not verified against it on smaller inputs: those inputs were \
             not checked",
            deferred.len()
        );
        return Ok((note, None));
    };
    let note = format!(
        "{oracle_name} skipped on {} inputs ({reason}); reference there: {}, \
         which agreed with {oracle_name} on {} inputs",
        deferred.len(),
        others[r],
        by_oracle[r].agreed
    );
    let rest: Vec<usize> = (1..=others.len()).filter(|&k| k != r + 1).collect();
    let mut tallies: Vec<Option<Tally<W::Input>>> = others.iter().map(|_| None).collect();
    for (k, t) in rest
        .iter()
        .zip(compare(w, pool, (2, r + 1), &rest, deferred, bar)?)
    {
        tallies[k - 1] = Some(t);
    }
    Ok((
        note,
        Some(StandIn {
            reference: r,
            tallies,
        }),
    ))
}

/// The disagreement of the pool's variants `[reference, variant]` on
/// `case`, minimised with the workload's `shrink`, as the report shows it.
fn minimised<W: Workload + ?Sized>(
    w: &W,
    pool: &Pool<'_, W>,
    [reference, variant]: [usize; 2],
    case: Case<W::Input>,
    origins: &[String],
) -> Result<Failure, Error> {
    let minimised = !w.shrink(&case.input).is_empty();
    let mut set = pool.take()?;
    let (reference_solver, solver) = pair(&mut set, reference, variant);
    let names = [pool.names[reference], pool.names[variant]];
    let small = minimise(w, names, &mut **reference_solver, &mut **solver, case.input);
    let failure = Failure {
        variant: names[1].to_owned(),
        reference: names[0].to_owned(),
        origin: origins[case.origin].clone(),
        minimised,
        input: w.format_input(&small),
        picture: w.picture(&small),
        expected: answer(w, names[0], &mut **reference_solver, &small),
        got: answer(w, names[1], &mut **solver, &small),
    };
    pool.put(set);
    Ok(failure)
}

/// `CRASHED` or `HUNG`, as the summary says of an excluded variant.
fn status_word(e: &Excluded) -> String {
    e.status.as_str().to_uppercase()
}

/// Two distinct elements of `v`, both mutable.
fn pair<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "two distinct solvers");
    if a < b {
        let (low, high) = v.split_at_mut(b);
        (&mut low[a], &mut high[0])
    } else {
        let (low, high) = v.split_at_mut(a);
        (&mut high[0], &mut low[b])
    }
}

/// Compares every variant in `others` with `reference` (indices into the
/// pool's sets) on `cases`, in parallel chunks, keeping each variant's
/// first disagreement (a panic is one). A panicking reference ends the
/// check with an error naming the input. `pass` numbers the chunks' steps.
fn compare<W: Workload + ?Sized>(
    w: &W,
    pool: &Pool<'_, W>,
    (pass, reference): (u8, usize),
    others: &[usize],
    cases: &[Case<W::Input>],
    bar: &indicatif::ProgressBar,
) -> Result<Vec<Tally<W::Input>>, Error> {
    let per_chunk: Vec<Vec<Tally<W::Input>>> = cases
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(index, chunk)| {
            let mut set = pool.take()?;
            let batch = || Batch::Chunk { pass, chunk: index };
            let tallies = compare_chunk(w, &mut set, &pool.names, reference, others, chunk, batch);
            pool.put(set);
            bar.inc(chunk.len() as u64);
            tallies
        })
        .collect::<Result<_, Error>>()?;
    let mut totals: Vec<Tally<W::Input>> = others.iter().map(|_| Tally::new()).collect();
    for chunk in per_chunk {
        for (total, t) in totals.iter_mut().zip(chunk) {
            total.merge(t);
        }
    }
    Ok(totals)
}

/// [`compare`] on one chunk, with one thread's set of solvers.
fn compare_chunk<W: Workload + ?Sized>(
    w: &W,
    set: &mut [Solver<W>],
    names: &[&str],
    reference: usize,
    others: &[usize],
    chunk: &[Case<W::Input>],
    batch: impl Fn() -> Batch,
) -> Result<Vec<Tally<W::Input>>, Error> {
    let inputs: Vec<W::Input> = chunk.iter().map(|c| c.input.clone()).collect();
    let step =
        |k: usize, expected: Duration| beacon::begin(|| Step::new(names[k], batch(), expected));
    let started = Instant::now();
    let solved = verify::solve_stepped(&mut *set[reference], &inputs, &|expected| {
        step(reference, expected)
    });
    let reference_time = started.elapsed();
    let expected = match solved {
        Ok(expected) => expected,
        Err(_) => {
            let _running = step(reference, reference_time);
            let (i, panic) = first_panic(&mut *set[reference], &inputs);
            return Err(Error::failed(format!(
                "{}: the oracle {} {panic} on {}",
                w.name(),
                names[reference],
                w.format_input(&inputs[i])
            )));
        }
    };
    let tallies = others
        .iter()
        .map(|&k| {
            let runnable: Vec<usize> = (0..chunk.len())
                .filter(|&i| w.skip(names[k], &inputs[i]).is_none())
                .collect();
            let batch: Vec<W::Input> = runnable.iter().map(|&i| inputs[i].clone()).collect();
            let mut tally = Tally::new();
            tally.skipped = (chunk.len() - runnable.len()) as u64;
            let _running = step(k, reference_time);
            match verify::solve(&mut *set[k], &batch) {
                Ok(got) => {
                    for (j, &i) in runnable.iter().enumerate() {
                        if w.same(&expected[i], &got[j]) {
                            tally.agreed += 1;
                        } else if tally.failure.is_none() {
                            tally.failure = Some(chunk[i].clone());
                        }
                    }
                }
                Err(_) => {
                    let (j, _) = first_panic(&mut *set[k], &batch);
                    tally.failure = Some(chunk[runnable[j]].clone());
                }
            }
            tally
        })
        .collect();
    Ok(tallies)
}

/// The first of `inputs` on which `solver` panics, solved one at a time,
/// with the panic's message (the batch as a whole is known to panic).
fn first_panic<I: Clone, O: Clone + Default>(
    solver: &mut dyn Solve<I, O>,
    inputs: &[I],
) -> (usize, String) {
    inputs
        .iter()
        .enumerate()
        .find_map(|(i, input)| {
            Some((
                i,
                verify::solve(&mut *solver, std::slice::from_ref(input)).err()?,
            ))
        })
        .unwrap_or_else(|| (0, "panicked on the batch but on no input alone".to_owned()))
}

/// A solver's answer to one input as the report prints it: the formatted
/// output, or the panic.
fn answer<W: Workload + ?Sized>(
    w: &W,
    variant: &str,
    solver: &mut dyn Solve<W::Input, W::Output>,
    input: &W::Input,
) -> String {
    let _running = one_input(w, variant, input);
    match verify::solve(solver, std::slice::from_ref(input)) {
        Ok(out) => w.format_output(&out[0]),
        Err(panic) => panic,
    }
}

/// Greedily shrinks a failing input while the two solvers still disagree.
fn minimise<W: Workload + ?Sized>(
    w: &W,
    [reference_name, variant_name]: [&str; 2],
    reference: &mut dyn Solve<W::Input, W::Output>,
    variant: &mut dyn Solve<W::Input, W::Output>,
    mut input: W::Input,
) -> W::Input {
    let one = |name: &str, solver: &mut dyn Solve<W::Input, W::Output>, i: &W::Input| {
        let _running = one_input(w, name, i);
        verify::solve(solver, std::slice::from_ref(i)).map(|mut out| out.remove(0))
    };
    // A panic of the variant disagrees; one of the reference says nothing.
    let mut disagrees = |i: &W::Input| match (
        one(reference_name, &mut *reference, i),
        one(variant_name, &mut *variant, i),
    ) {
        (Ok(expected), Ok(got)) => !w.same(&expected, &got),
        (Ok(_), Err(_)) => true,
        (Err(_), _) => false,
    };
    for _ in 0..SHRINK_LIMIT {
        match w.shrink(&input).into_iter().find(|c| disagrees(c)) {
            Some(smaller) => input = smaller,
            None => break,
        }
    }
    input
}

/// Announces `variant` running on the one input `input` (a step of its
/// own while a disagreement is minimised).
fn one_input<W: Workload + ?Sized>(w: &W, variant: &str, input: &W::Input) -> beacon::Running {
    beacon::begin(|| {
        let lines = vec![w.format_input(input)];
        Step::new(variant, Batch::Lines { lines }, Duration::ZERO)
    })
}
