//! Verify before measuring (rebar's rule), once for every measuring tool.
//!
//! `bench`'s own loop and the batches prepared for criterion and gungraun
//! all solve the measured inputs once and compare with a reference before
//! any timing: the oracle, or where its cost model refuses an input, the
//! declared default variant (which `check` verifies against the oracle on
//! smaller inputs). A wrong answer or a panic is the variant's result, with
//! a reason naming the input; it is never timed. Here are the reference's
//! answers and the runs of a solver; the comparison is
//! [`super::checked`].
//!
//! Every run of a solver here goes through [`prepare`] first, so a variant
//! that reads its own form of the inputs ([`crate::prepared`]) gets it the
//! same way in every command.

use crate::error::Error;
use crate::fault::beacon::{self, Batch, Step};
use crate::guard::catch;
use crate::workload::{Prepared, Solve, Workload, runnable};
use std::time::{Duration, Instant};

/// The reference's answers on one batch of inputs.
pub(crate) struct Expected<O> {
    /// The variant that produced them.
    pub name: &'static str,
    /// One answer per input.
    pub answers: Vec<O>,
    /// How long the reference took on them: what a variant's run of the
    /// same batch is allowed ten times over (see [`checked`]).
    pub took: Duration,
}

/// The reference's answers on `inputs`: `Ok(None)` when neither the oracle
/// nor the declared default can run them here.
///
/// The run is announced as steps of `batch` ([`solve_stepped`]), for a
/// watched child.
pub(crate) fn expected<W: Workload + ?Sized>(
    w: &W,
    inputs: &[W::Input],
    batch: &dyn Fn() -> Batch,
) -> Result<Option<Expected<W::Output>>, Error> {
    let Some(name) = reference(w, inputs) else {
        return Ok(None);
    };
    let mut solver = build_solver(w, name)?;
    let step = |expected| beacon::begin(|| Step::new(name, batch(), expected));
    let started = Instant::now();
    match solve_stepped(&mut *solver, inputs, &step) {
        Ok(answers) => Ok(Some(Expected {
            name,
            answers,
            took: started.elapsed(),
        })),
        Err(panic) => Err(Error::failed(format!(
            "{}: the reference {name} {panic} on a batch of {} inputs",
            w.name(),
            inputs.len()
        ))),
    }
}

/// The variant whose answers on `inputs` are the reference: the oracle,
/// or where its cost model refuses one, the declared default variant when
/// it runs here; `None` when neither does.
pub(crate) fn reference<W: Workload + ?Sized>(w: &W, inputs: &[W::Input]) -> Option<&'static str> {
    let oracle = w.oracle();
    if inputs.iter().all(|i| w.skip(oracle, i).is_none()) {
        Some(oracle)
    } else {
        runnable(&w.variants(), w.default_variant())
    }
}

/// [`solve`], announced as steps of doubling length (1, 2, 4, … inputs)
/// in a watched child: each step may take ten times the time per input
/// seen so far, times its length, beyond `--timeout`. So a reference
/// whose batch is long in all (many slow inputs, each affordable) is not
/// taken for hung, while one input that never returns still is; the
/// first input alone gets `--timeout`, as each input of `solve` does.
/// Outside a watched child the batch runs in one call.
pub(crate) fn solve_stepped<I: Clone, O: Clone + Default>(
    solver: &mut dyn Solve<I, O>,
    inputs: &[I],
    step: &dyn Fn(Duration) -> beacon::Running,
) -> Result<Vec<O>, String> {
    if !beacon::active() {
        return solve(solver, inputs);
    }
    let prepared = {
        // The first step's allowance, `--timeout`, covers the preparation.
        let _running = step(Duration::ZERO);
        prepare(solver, inputs)?
    };
    let mut out = vec![O::default(); inputs.len()];
    let started = Instant::now();
    let (mut done, mut len) = (0, 1);
    while done < inputs.len() {
        let end = (done + len).min(inputs.len());
        let per_input = match done {
            0 => Duration::ZERO,
            _ => started.elapsed() / done as u32,
        };
        let _running = step(per_input * (end - done) as u32);
        let range = done..end;
        catch(|| prepared.run(&mut *solver, inputs, range.clone(), &mut out[range]))?;
        (done, len) = (end, len * 2);
    }
    Ok(out)
}

/// Solves `inputs` once with `solver`, prepared first; a panic becomes
/// its message.
pub(crate) fn solve<I, O: Clone + Default>(
    solver: &mut dyn Solve<I, O>,
    inputs: &[I],
) -> Result<Vec<O>, String> {
    let prepared = prepare(solver, inputs)?;
    solve_prepared(solver, inputs, &prepared)
}

/// Solves all of `inputs` from the forms `prepared` holds; a panic becomes
/// its message.
pub(crate) fn solve_prepared<I, O: Clone + Default>(
    solver: &mut dyn Solve<I, O>,
    inputs: &[I],
    prepared: &Prepared,
) -> Result<Vec<O>, String> {
    let mut out = vec![O::default(); inputs.len()];
    catch(|| prepared.run(solver, inputs, 0..inputs.len(), &mut out))?;
    Ok(out)
}

/// `solver`'s own form of `inputs` (none for most solvers), made before
/// anything is timed; a panic becomes its message.
pub(crate) fn prepare<I, O>(solver: &dyn Solve<I, O>, inputs: &[I]) -> Result<Prepared, String> {
    catch(|| solver.prepare(inputs)).map_err(|panic| format!("{panic} while preparing its inputs"))
}

/// Looks up a variant and builds it, with the CLI's error for each way that
/// can fail.
pub(crate) fn build_solver<W: Workload + ?Sized>(
    workload: &W,
    variant: &str,
) -> Result<Box<dyn Solve<W::Input, W::Output>>, Error> {
    let variants = workload.variants();
    let Some(info) = variants.iter().find(|v| v.name == variant) else {
        let names: Vec<_> = variants.iter().map(|v| v.name).collect();
        return Err(Error::usage(format!(
            "unknown variant '{variant}' for workload '{}' (known: {})",
            workload.name(),
            names.join(", ")
        )));
    };
    if let Some(reason) = &info.unavailable {
        return Err(Error::usage(format!(
            "variant '{variant}' of '{}' is unavailable: {reason}",
            workload.name()
        )));
    }
    workload.solver(variant).ok_or_else(|| {
        Error::usage(format!(
            "variant '{variant}' of '{}' could not be built on this machine",
            workload.name()
        ))
    })
}
