//! Verify before measuring (rebar's rule), once for every measuring tool.
//!
//! `bench`'s own loop and the batches prepared for criterion and gungraun
//! all solve the measured inputs once and compare with a reference before
//! any timing: the oracle, or where its cost model refuses an input, the
//! declared default variant (which `check` verifies against the oracle on
//! smaller inputs). A wrong answer or a panic is the variant's result, with
//! a reason naming the input; it is never timed.

use crate::error::Error;
use crate::guard::catch;
use crate::workload::{Solve, Workload, runnable};

/// The reference's answers on one batch of inputs.
pub(crate) struct Expected<O> {
    /// The variant that produced them.
    pub name: &'static str,
    /// One answer per input.
    pub answers: Vec<O>,
}

/// The reference's answers on `inputs`: `Ok(None)` when neither the oracle
/// nor the declared default can run them here.
pub(crate) fn expected<W: Workload + ?Sized>(
    w: &W,
    inputs: &[W::Input],
) -> Result<Option<Expected<W::Output>>, Error> {
    let Some(name) = reference(w, inputs) else {
        return Ok(None);
    };
    let mut solver = build_solver(w, name)?;
    match solve(&mut *solver, inputs) {
        Ok(answers) => Ok(Some(Expected { name, answers })),
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

/// Solves `inputs` once with `solver`; a panic becomes its message.
pub(crate) fn solve<I, O: Clone + Default>(
    solver: &mut dyn Solve<I, O>,
    inputs: &[I],
) -> Result<Vec<O>, String> {
    let mut out = vec![O::default(); inputs.len()];
    catch(|| solver.solve_batch(inputs, &mut out))?;
    Ok(out)
}

/// Solves `inputs` with `variant` and compares with `expected` (when
/// there is a reference); returns the variant's answers, or why they
/// cannot be measured.
pub(crate) fn checked<W: Workload + ?Sized>(
    w: &W,
    variant: &str,
    solver: &mut dyn Solve<W::Input, W::Output>,
    inputs: &[W::Input],
    expected: Option<&Expected<W::Output>>,
) -> Result<Vec<W::Output>, String> {
    let got = solve(solver, inputs).map_err(|panic| format!("{variant} {panic}, not measured"))?;
    let Some(expected) = expected.filter(|e| e.name != variant) else {
        return Ok(got);
    };
    match (0..inputs.len()).find(|&i| !w.same(&expected.answers[i], &got[i])) {
        None => Ok(got),
        Some(i) => Err(format!(
            "wrong answer, not measured: on {} expected {} ({}) but got {}",
            w.format_input(&inputs[i]),
            w.format_output(&expected.answers[i]),
            expected.name,
            w.format_output(&got[i])
        )),
    }
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
