//! Every variant against a reference, in parallel chunks of the inputs:
//! how many inputs each agreed and disagreed on, and its first
//! disagreement.

use super::pool::{Pool, Solver};
use crate::engine::verify;
use crate::error::Error;
use crate::fault::beacon::{self, Batch, Step};
use crate::workload::{Solve, Workload};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Inputs per parallel work unit: big enough to amortise scheduling, small
/// enough to keep every variant's outputs in cache.
pub const CHUNK: usize = 2048;

/// Inputs with where each came from.
pub type Cases<I> = Vec<Case<I>>;

/// One input with where it came from.
#[derive(Clone)]
pub struct Case<I> {
    /// The index of where it came from.
    pub origin: usize,
    /// Its index among the inputs its set generated (none for an edge
    /// case): with the set and seed, what regenerates it.
    pub index: Option<usize>,
    /// The input.
    pub input: I,
}

impl<I> Case<I> {
    /// Where it came from in words, given the origins' words: `input 3 of
    /// set 'p:0.2' (seed 1)`, `edge case 'empty'`.
    pub fn origin_text(&self, origins: &[String]) -> String {
        match self.index {
            Some(i) => format!("input {i} of {}", origins[self.origin]),
            None => origins[self.origin].clone(),
        }
    }
}

/// One variant's agreement counts and first disagreement.
pub struct Tally<I> {
    /// Inputs it agreed on.
    pub agreed: u64,
    /// Inputs it disagreed on or panicked on.
    pub disagreed: u64,
    /// Inputs its cost model skipped.
    pub skipped: u64,
    /// Its first disagreement.
    pub failure: Option<Case<I>>,
}

impl<I> Tally<I> {
    fn new() -> Self {
        Tally {
            agreed: 0,
            disagreed: 0,
            skipped: 0,
            failure: None,
        }
    }

    fn merge(&mut self, other: Tally<I>) {
        self.agreed += other.agreed;
        self.disagreed += other.disagreed;
        self.skipped += other.skipped;
        if self.failure.is_none() {
            self.failure = other.failure;
        }
    }
}

/// Compares every variant in `others` with `reference` (indices into the
/// pool's sets) on `cases`, in parallel chunks, counting each variant's
/// agreements and disagreements (a panic is one) and keeping its first
/// disagreement. A panicking reference ends the
/// check with an error naming the input. `pass` numbers the chunks' steps.
pub fn compare<W: Workload + ?Sized>(
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
            let mut count = |i: usize, agrees: bool| {
                if agrees {
                    tally.agreed += 1;
                } else {
                    tally.disagreed += 1;
                    tally.failure.get_or_insert_with(|| chunk[i].clone());
                }
            };
            match verify::solve(&mut *set[k], &batch) {
                Ok(got) => {
                    for (j, &i) in runnable.iter().enumerate() {
                        count(i, w.same(&expected[i], &got[j]));
                    }
                }
                // The batch panicked: each input alone, so every panic and
                // every wrong answer is counted.
                Err(_) => {
                    for (j, &i) in runnable.iter().enumerate() {
                        let alone = verify::solve(&mut *set[k], std::slice::from_ref(&batch[j]));
                        count(i, alone.is_ok_and(|got| w.same(&expected[i], &got[0])));
                    }
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
