//! A wrong answer found before timing, told in a few KB whatever the
//! input's size.
//!
//! Verification runs the measured inputs, which may be megabyte buffers,
//! so the input is first shrunk within [`SHRINK_BUDGET`] (as `check`
//! shrinks, through [`super::minimise`]). Whatever is left too long is cut
//! by [`reports::excerpt`] to a window around the answers' first
//! difference, the lengths said. The reason always names the set, seed and
//! index that regenerate the input, and a command that reproduces it:
//! `solve` on the input itself when it is short, else `inputs` piped to
//! `solve --input-file`.

use super::minimise::{answer, minimise};
use super::verify::{Expected, build_solver};
use crate::fault::chose_note;
use crate::repro::{Generated, regenerate_line, solve_line};
use crate::shrink::Budget;
use crate::workload::{Solve, Workload};
use reports::excerpt::{WIDTH, disagreement};
use std::time::Duration;

/// How far a wrong answer before timing is shrunk: a fraction of a
/// measuring run, since `check` is where the smallest input is sought.
const SHRINK_BUDGET: Budget = Budget {
    steps: 1000,
    time: Duration::from_secs(2),
};

/// The reason of a record whose `variant` answered input `index` of
/// `inputs` (drawn from `source`) with `got`, unlike `expected`: the
/// input shrunk where the workload can shrink it, every value cut to a
/// few hundred characters, where it came from and how to reproduce it.
pub(crate) fn reason<W: Workload + ?Sized>(
    w: &W,
    variant: &str,
    solver: &mut dyn Solve<W::Input, W::Output>,
    (inputs, index, source): (&[W::Input], usize, &Generated<'_>),
    expected: &Expected<W::Output>,
    got: &W::Output,
) -> String {
    let drawn = &inputs[index];
    let reference = expected.name;
    let drawn_text = w.format_input(drawn);
    let mut told = Told {
        reference,
        input: drawn_text.clone(),
        expected: w.format_output(&expected.answers[index]),
        got: w.format_output(got),
        chosen: solver.chosen(drawn),
        how: "not shrunk: the workload's shrink offers no smaller input".to_owned(),
    };
    if !w.shrink(drawn).is_empty()
        && let Ok(mut reference_solver) = build_solver(w, reference)
    {
        let names = [reference, variant];
        let found = minimise(
            w,
            names,
            &mut *reference_solver,
            solver,
            drawn.clone(),
            SHRINK_BUDGET,
        );
        let budget = if found.out_of_budget {
            ", until its budget ran out"
        } else {
            ""
        };
        told.how = match found.steps {
            0 if found.out_of_budget => "not shrunk: its budget ran out".to_owned(),
            0 => "not shrunk: no smaller input disagrees".to_owned(),
            steps => {
                let small = &found.value;
                told.input = w.format_input(small);
                told.expected = answer(w, reference, &mut *reference_solver, small);
                told.got = answer(w, variant, solver, small);
                told.chosen = solver.chosen(small);
                let from = drawn_text.chars().count();
                format!("shrunk in {steps} steps from {from} chars{budget}")
            }
        };
    }
    let program = crate::repro::program(env!("CARGO_PKG_NAME"));
    // An input too long to show whole is regenerated as drawn.
    let repro = if told.input.chars().count() <= WIDTH {
        solve_line(
            &program,
            w.name(),
            Some(variant),
            &[told.input.clone()],
            None,
        )
    } else {
        regenerate_line(&program, w.name(), variant, source, index)
    };
    let origin = format!(
        "input {index} of set '{}' (seed {})",
        source.set, source.seed
    );
    told.sentence(&origin, &repro)
}

/// A wrong answer's values, in full, before they are cut.
struct Told<'a> {
    reference: &'a str,
    input: String,
    expected: String,
    got: String,
    /// The variant a dispatcher chose for the input.
    chosen: Option<&'static str>,
    /// Whether and how the input was shrunk.
    how: String,
}

impl Told<'_> {
    /// One line: `on INPUT expected ANSWER (REFERENCE) but got ANSWER`,
    /// each value cut around the answers' first difference (the input at
    /// the same fraction of its length), then where the difference is when
    /// anything was cut, `origin`, how the input was shrunk, and `repro`.
    fn sentence(&self, origin: &str, repro: &str) -> String {
        let cut = disagreement(&self.input, &self.expected, &self.got);
        let differ = cut.differ_at.map_or_else(String::new, |at| {
            format!("; the answers first differ at char {at}")
        });
        format!(
            "wrong answer, not measured: on {} expected {} ({}) but got {}{}{differ} \
             ({origin}, {}); reproduce: {repro}",
            cut.input,
            cut.expected,
            self.reference,
            cut.got,
            chose_note(self.chosen),
            self.how,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn told(input: String, expected: String, got: String) -> Told<'static> {
        Told {
            reference: "oracle",
            input,
            expected,
            got,
            chosen: None,
            how: "not shrunk".to_owned(),
        }
    }

    #[test]
    fn short_values_are_told_whole() {
        let t = told("ab".into(), "ab".into(), "ba".into());
        assert_eq!(
            t.sentence("input 3 of set 's' (seed 1)", "p solve w 'ab'"),
            "wrong answer, not measured: on ab expected ab (oracle) but got ba \
             (input 3 of set 's' (seed 1), not shrunk); reproduce: p solve w 'ab'"
        );
    }

    #[test]
    fn long_values_are_cut_around_the_first_difference() {
        // A hex encoder's answers, 2 MiB each, differing at char 1_000_001.
        let input = "0123456789abcdef".repeat(1 << 16);
        let expected = input.clone();
        let mut got = expected.clone();
        got.replace_range(1_000_001..1_000_002, "x");
        let around_x = got[999_950..1_000_050].to_owned();
        let t = told(input, expected, got);
        let sentence = t.sentence("input 0 of set 'size:1048576' (seed 1)", "repro");
        assert!(sentence.len() < 1000, "{}: {sentence}", sentence.len());
        assert!(
            sentence.contains("; the answers first differ at char 1000001 ("),
            "{sentence}"
        );
        // Each side's window holds the place, and says where it is.
        let window = "[chars 999901..1000101 of 1048576]";
        assert_eq!(sentence.matches(window).count(), 3, "{sentence}");
        assert!(sentence.contains(&around_x), "{sentence}");
    }
}
