//! `bitbench solve`: answer inputs given on the command line or in a file.

use crate::erased::build_solver;
use crate::error::CliError;
use crate::workload::{Workload, solve_one};

/// Solves each input with `variant` (empty: the declared default) and
/// returns one formatted output per input.
pub fn solve<W: Workload + ?Sized>(
    w: &W,
    variant: &str,
    texts: &[String],
    input_file: Option<&str>,
    format: &str,
) -> Result<Vec<String>, CliError> {
    let variant = if variant.is_empty() {
        w.default_variant()
    } else {
        variant
    };
    if format != "text" && !w.output_formats().contains(&format) {
        let mut known = vec!["text"];
        known.extend(w.output_formats());
        return Err(CliError::usage(format!(
            "unknown format '{format}' for '{}' (known: {})",
            w.name(),
            known.join(", ")
        )));
    }
    let solver = build_solver(w, variant)?;
    let mut inputs = Vec::new();
    for text in texts {
        inputs.push(
            w.parse_input(text)
                .map_err(|e| CliError::usage(format!("input '{text}': {e}")))?,
        );
    }
    if let Some(path) = input_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::usage(format!("{path}: cannot read: {e}")))?;
        inputs.extend(
            w.parse_input_file(&text)
                .map_err(|e| CliError::usage(format!("{path}: {e}")))?,
        );
    }
    if inputs.is_empty() {
        return Err(CliError::usage(
            "no input: give INPUT arguments or --input-file FILE",
        ));
    }
    inputs
        .iter()
        .map(|input| {
            if let Some(reason) = w.skip(variant, input) {
                return Err(CliError::usage(format!(
                    "variant '{variant}' would take too long on '{}' ({reason}); choose another --variant",
                    w.format_input(input)
                )));
            }
            let out = solve_one(&*solver, input);
            Ok(if format == "text" {
                w.format_output(&out)
            } else {
                w.format_output_as(format, &out)
            })
        })
        .collect()
}
