//! A disagreement made small: the input shrunk, within a budget, while a
//! variant and its reference still disagree, and each one's answer to it.
//! `check` minimises what its passes find, and verification before timing
//! ([`super::verify`]) what `bench` and the measuring tools find.

use crate::engine::verify;
use crate::fault::beacon::{self, Batch, Step};
use crate::shrink::{self, Budget, Minimised};
use crate::workload::{Solve, Workload};
use std::convert::Infallible;
use std::time::Duration;

/// A solver's answer to one input as a finding prints it: the formatted
/// output, or the panic.
pub fn answer<W: Workload + ?Sized>(
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

/// Greedily shrinks a failing input while the two solvers still disagree,
/// within `budget`.
pub fn minimise<W: Workload + ?Sized>(
    w: &W,
    [reference_name, variant_name]: [&str; 2],
    reference: &mut dyn Solve<W::Input, W::Output>,
    variant: &mut dyn Solve<W::Input, W::Output>,
    input: W::Input,
    budget: Budget,
) -> Minimised<W::Input> {
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
    let Ok(found) = shrink::minimise(
        input,
        budget,
        |i| w.shrink(i),
        |i| Ok::<_, Infallible>(disagrees(i)),
    );
    found
}

/// Announces `variant` running on the one input `input` (a step of its
/// own while a disagreement is minimised).
fn one_input<W: Workload + ?Sized>(w: &W, variant: &str, input: &W::Input) -> beacon::Running {
    beacon::begin(|| {
        let lines = vec![w.format_input(input)];
        Step::new(variant, Batch::Lines { lines }, Duration::ZERO)
    })
}
