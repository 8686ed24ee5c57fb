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
//! disagrees; an oracle that panics ends the check with an error. A
//! disagreement is minimised with the workload's `shrink` before it is
//! reported, so the user sees the smallest input that still fails and the
//! command that reproduces it; a dispatching variant's answer there names
//! the variant it chose for that input.
//!
//! The solvers are shared from `pool.rs`, the passes run in `compare.rs`,
//! and a disagreement is made small by `shrink::minimise`, within
//! `SHRINK_BUDGET`.

mod compare;
mod pool;

use crate::engine::minimise::{answer, minimise};
use crate::error::Error;
use crate::fault::{Excluded, chose_note};
use crate::progress;
use crate::sets;
use crate::shrink::Budget;
use crate::workload::{VariantInfo, Workload};
use compare::{CHUNK, Case, Cases, Tally, compare};
use pool::{Pool, pair};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How far a disagreement is shrunk: generous, since finding the smallest
/// input is what `check` is for (a disagreement on a small input takes a
/// fraction of a second).
const SHRINK_BUDGET: Budget = Budget {
    steps: 10_000,
    time: Duration::from_secs(10),
};

/// What `check` should do.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckOptions {
    /// Generated inputs per check set (edge cases come on top).
    pub cases: usize,
    /// Generator seed.
    pub seed: u64,
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
    /// One line per variant: how many inputs it agreed and disagreed on.
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
    /// Whether shrinking stopped at its budget (`SHRINK_BUDGET`) rather
    /// than where no smaller input disagreed.
    #[serde(default)]
    pub out_of_budget: bool,
    /// The minimised input in the spec's text format.
    pub input: String,
    /// The minimised input drawn for humans.
    pub picture: String,
    /// The reference's answer.
    pub expected: String,
    /// The variant's answer; a dispatching variant's names the variant it
    /// chose for the input (`3 (chose popcnt for this input)`).
    pub got: String,
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
            index: None,
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
        let drawn = inputs.into_iter().enumerate();
        cases.extend(drawn.map(|(i, input)| Case {
            origin,
            index: Some(i),
            input,
        }));
        origins.push(format!("set '{name}' (seed {})", options.seed));
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
        .map(|c| (w.format_input(&c.input), c.origin_text(&origins)))
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
        stand_in = stand_in_pass(
            w,
            &pool,
            &by_oracle,
            &deferred,
            &reason,
            &bar,
            &mut report.notes,
        )?;
    }
    bar.finish_and_clear();

    for (i, name) in others.iter().enumerate() {
        let first = &by_oracle[i];
        let mut line = format!(
            "{name}: agreed with {oracle_name} on {} inputs",
            first.agreed
        );
        let mut skipped = first.skipped;
        let mut disagreed = first.disagreed;
        let mut failure = first.failure.clone().map(|c| (c, 0));
        if let Some(StandIn {
            reference: r,
            tallies,
        }) = &stand_in
            && let Some(second) = &tallies[i]
        {
            line += &format!(", with {} on {}", others[*r], second.agreed);
            skipped += second.skipped;
            disagreed += second.disagreed;
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
            line += &format!(", disagreed on {disagreed} — DISAGREES");
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
/// with the oracle in pass 1 (`by_oracle`). A note says which reference
/// stood in, or that those inputs were not checked.
fn stand_in_pass<W: Workload + ?Sized>(
    w: &W,
    pool: &Pool<'_, W>,
    by_oracle: &[Tally<W::Input>],
    deferred: &[Case<W::Input>],
    reason: &str,
    bar: &indicatif::ProgressBar,
    notes: &mut Vec<String>,
) -> Result<Option<StandIn<W::Input>>, Error> {
    let oracle_name = pool.names[0];
    let others = &pool.names[1..];
    let default = w.default_variant();
    let verified = others
        .iter()
        .position(|name| *name == default)
        .filter(|&r| by_oracle[r].failure.is_none() && by_oracle[r].agreed > 0);
    let Some(r) = verified else {
        notes.push(format!(
            "{oracle_name} skipped on {} inputs ({reason}) and the default variant \
             {default} was not verified against it on smaller inputs: those inputs were \
             not checked",
            deferred.len()
        ));
        return Ok(None);
    };
    notes.push(format!(
        "{oracle_name} skipped on {} inputs ({reason}); reference there: {}, \
         which agreed with {oracle_name} on {} inputs",
        deferred.len(),
        others[r],
        by_oracle[r].agreed
    ));
    let rest: Vec<usize> = (1..=others.len()).filter(|&k| k != r + 1).collect();
    let mut tallies: Vec<Option<Tally<W::Input>>> = others.iter().map(|_| None).collect();
    let compared = compare(w, pool, (2, r + 1), &rest, deferred, bar)?;
    for (k, t) in rest.into_iter().zip(compared) {
        tallies[k - 1] = Some(t);
    }
    Ok(Some(StandIn {
        reference: r,
        tallies,
    }))
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
    let origin = case.origin_text(origins);
    let found = minimise(
        w,
        names,
        &mut **reference_solver,
        &mut **solver,
        case.input,
        SHRINK_BUDGET,
    );
    let small = found.value;
    let failure = Failure {
        variant: names[1].to_owned(),
        reference: names[0].to_owned(),
        origin,
        minimised,
        out_of_budget: found.out_of_budget,
        input: w.format_input(&small),
        picture: w.picture(&small),
        expected: answer(w, names[0], &mut **reference_solver, &small),
        got: answer(w, names[1], &mut **solver, &small) + &chose_note(solver.chosen(&small)),
    };
    pool.put(set);
    Ok(failure)
}

/// `CRASHED` or `HUNG`, as the summary says of an excluded variant.
fn status_word(e: &Excluded) -> String {
    e.status.as_str().to_uppercase()
}
