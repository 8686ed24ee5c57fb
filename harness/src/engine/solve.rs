//! Answering given inputs, and listing the inputs of a set, for `solve` and
//! `inputs` (which only print what this returns).
//!
//! A variant the user names runs even where the cost model would skip it in
//! `check` and `bench` (a note says so on stderr): the user asked for it.
//! Only where the model estimates it would practically never finish does
//! `solve` print the estimate and ask for `--force`.

use crate::engine::verify::{self, build_solver};
use crate::error::Error;
use crate::fault::beacon::{self, Batch, Step};
use crate::sets;
use crate::workload::Workload;

/// What `solve` should answer, and how.
#[derive(Clone, Debug, Default)]
pub struct SolveRequest<'a> {
    /// The variant; empty means the declared default.
    pub variant: &'a str,
    /// Inputs in the workload's text format.
    pub inputs: &'a [String],
    /// A file of further inputs.
    pub input_file: Option<&'a str>,
    /// `text` or one of the workload's output formats.
    pub format: &'a str,
    /// Run even what the cost model calls impractical.
    pub force: bool,
}

/// Solves each input and returns one formatted output per input.
pub fn solve<W: Workload + ?Sized>(
    w: &W,
    request: &SolveRequest<'_>,
) -> Result<Vec<String>, Error> {
    let SolveRequest {
        variant,
        inputs: texts,
        input_file,
        format,
        force,
    } = *request;
    let variant = if variant.is_empty() {
        w.default_variant()
    } else {
        variant
    };
    if format != "text" && !w.output_formats().contains(&format) {
        let mut known = vec!["text"];
        known.extend(w.output_formats());
        return Err(Error::usage(format!(
            "unknown format '{format}' for '{}' (known: {})",
            w.name(),
            known.join(", ")
        )));
    }
    let mut solver = build_solver(w, variant)?;
    let mut inputs = Vec::new();
    for text in texts {
        inputs.push(
            w.parse_input(text)
                .map_err(|e| Error::usage(format!("input '{text}': {e}")))?,
        );
    }
    if let Some(path) = input_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::usage(format!("{path}: cannot read: {e}")))?;
        inputs.extend(
            w.parse_input_file(&text)
                .map_err(|e| Error::usage(format!("{path}: {e}")))?,
        );
    }
    if inputs.is_empty() {
        return Err(Error::usage(
            "no input: give INPUT arguments or --input-file FILE",
        ));
    }
    for input in &inputs {
        let text = w.format_input(input);
        if let Some(estimate) = w.impractical(variant, input).filter(|_| !force) {
            return Err(Error::usage(format!(
                "variant '{variant}' would practically never finish on '{text}' ({estimate}); \
                 pass --force to run it anyway, or choose another --variant"
            )));
        }
        if let Some(reason) = w.skip(variant, input) {
            eprintln!("note: {variant} on '{text}' is slow ({reason}); running it as asked");
        }
    }
    inputs
        .iter()
        .map(|input| {
            // One step per input: a crash or hang names it.
            let _running = beacon::begin(|| {
                let lines = vec![w.format_input(input)];
                Step::new(variant, Batch::Lines { lines }, std::time::Duration::ZERO)
            });
            let out = verify::solve(&mut *solver, std::slice::from_ref(input))
                .map_err(|panic| {
                    Error::failed(format!(
                        "{}: {variant} {panic} on '{}'",
                        w.name(),
                        w.format_input(input)
                    ))
                })?
                .remove(0);
            Ok(if format == "text" {
                w.format_output(&out)
            } else {
                w.format_output_as(format, &out)
            })
        })
        .collect()
}

/// The inputs of `set` as text lines: `n` for an open-ended set, every
/// input of a fixed one. A name that stands for several sets (`official`,
/// a sweep) gives the inputs of each member in turn.
pub fn input_lines<W: Workload + ?Sized>(
    w: &W,
    set: &str,
    seed: u64,
    n: usize,
) -> Result<Vec<String>, Error> {
    let members = sets::expand(&w.input_sets(), &[set.to_owned()], false).map_err(Error::usage)?;
    let mut lines = Vec::new();
    for member in members {
        let inputs = w
            .generate(&member, seed, n)
            .map_err(|e| Error::usage(format!("input set '{member}': {e}")))?;
        lines.extend(inputs.iter().map(|i| w.format_input(i)));
    }
    Ok(lines)
}
