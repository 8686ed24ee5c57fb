//! A disagreement made small: the input shrunk while the variant and its
//! reference still disagree, and each one's answer to it.

use crate::engine::verify;
use crate::fault::beacon::{self, Batch, Step};
use crate::fault::chose_note;
use crate::workload::{Solve, Workload};
use std::time::Duration;

/// Steps of shrinking before settling for the input reached so far.
const SHRINK_LIMIT: usize = 10_000;

/// Two distinct elements of `v`, both mutable.
pub fn pair<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "two distinct solvers");
    if a < b {
        let (low, high) = v.split_at_mut(b);
        (&mut low[a], &mut high[0])
    } else {
        let (low, high) = v.split_at_mut(a);
        (&mut high[0], &mut low[b])
    }
}

/// A solver's answer to one input as the report prints it: the formatted
/// output, or the panic; a dispatcher's says which variant it chose
/// (`3 (chose popcnt for this input)`).
pub fn answer<W: Workload + ?Sized>(
    w: &W,
    variant: &str,
    solver: &mut dyn Solve<W::Input, W::Output>,
    input: &W::Input,
) -> String {
    let _running = one_input(w, variant, input);
    let answer = match verify::solve(solver, std::slice::from_ref(input)) {
        Ok(out) => w.format_output(&out[0]),
        Err(panic) => panic,
    };
    answer + &chose_note(solver.chosen(input))
}

/// Greedily shrinks a failing input while the two solvers still disagree.
pub fn minimise<W: Workload + ?Sized>(
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
