//! Verification's last step: a variant's answers on a measured batch
//! compared with the reference's ([`super::verify`]), before any timing.
//! A wrong one is told by `wrong_answer.rs`: shrunk, cut to a few KB, and
//! named by the set, seed and index that regenerate its input.

use super::verify::{Expected, solve_prepared};
use crate::fault::beacon::{self, Batch, Step};
use crate::repro::Generated;
use crate::workload::{Prepared, Solve, Workload};
use std::time::Duration;

/// Solves `inputs` (drawn from `source`) with `variant`, from the forms
/// `prepared` holds, and compares with `expected` (when there is a
/// reference); returns the variant's answers, or why they cannot be
/// measured.
///
/// The run is announced as a step of the set's batch, allowed ten times
/// the reference's time on it.
pub(crate) fn checked<W: Workload + ?Sized>(
    w: &W,
    variant: &str,
    solver: &mut dyn Solve<W::Input, W::Output>,
    inputs: &[W::Input],
    source: &Generated<'_>,
    prepared: &Prepared,
    expected: Option<&Expected<W::Output>>,
) -> Result<Vec<W::Output>, String> {
    let took = expected.map_or(Duration::ZERO, |e| e.took);
    let batch = Batch::Set {
        set: source.set.to_owned(),
    };
    let running = beacon::begin(|| Step::new(variant, batch, took));
    let got = solve_prepared(solver, inputs, prepared)
        .map_err(|panic| format!("{variant} {panic}, not measured"))?;
    drop(running);
    let Some(expected) = expected.filter(|e| e.name != variant) else {
        return Ok(got);
    };
    match (0..inputs.len()).find(|&i| !w.same(&expected.answers[i], &got[i])) {
        None => Ok(got),
        Some(i) => Err(super::wrong_answer::reason(
            w,
            variant,
            solver,
            (inputs, i, source),
            expected,
            &got[i],
        )),
    }
}

/// A dispatcher's wrong answer before timing names the variant it chose,
/// with the dispatch module's toy workload.
#[cfg(test)]
mod tests {
    use super::checked;
    use crate::dispatch::tests::{Toy, at, three_ranges};
    use crate::engine::verify::Expected;
    use crate::repro::Generated;
    use crate::workload::{Prepared, Workload};

    #[test]
    fn a_wrong_answer_before_timing_names_the_variant_chosen() {
        if !three_ranges() {
            return;
        }
        let w = Toy::default();
        // scalar's answers end in 1; at regime 15 the dispatcher runs wide,
        // whose answers end in 2.
        let inputs = at(15, 0..4);
        let expected = Expected {
            name: "scalar",
            answers: inputs.iter().map(|&(_, v)| v * 10 + 1).collect(),
            took: std::time::Duration::ZERO,
        };
        let mut solver = w.solver("dispatch").unwrap();
        let source = Generated {
            set: "all",
            seed: 1,
            count: 4,
        };
        let why = checked(
            &w,
            "dispatch",
            &mut *solver,
            &inputs,
            &source,
            &Prepared::none(),
            Some(&expected),
        )
        .unwrap_err();
        assert!(
            why.contains("expected 1 (scalar) but got 2 (chose wide for this input) (input 0 of set 'all' (seed 1)"),
            "{why}"
        );
    }
}
