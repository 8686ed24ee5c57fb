//! The terminal tables `bench` and `count` print: one row per input set,
//! one column per variant, cells chosen by the caller.

use crate::erased::DynWorkload;
use crate::{out, outln};
use reports::Record;

/// The table's axes: the workload's variants present in `records` (registry
/// order) and their input sets (first-seen order).
pub fn axes<'a>(w: &dyn DynWorkload, records: &[&'a Record]) -> (Vec<&'static str>, Vec<&'a str>) {
    let variants = w
        .variants()
        .iter()
        .map(|v| v.name)
        .filter(|v| records.iter().any(|r| r.variant == *v))
        .collect();
    let mut sets: Vec<&str> = Vec::new();
    for r in records {
        if !sets.contains(&r.input_set.as_str()) {
            sets.push(&r.input_set);
        }
    }
    (variants, sets)
}

/// Prints `title`, a header of variants and one row per set, each cell
/// right-aligned in a column at least `min_col` wide.
pub fn print_grid(
    title: &str,
    sets: &[&str],
    variants: &[&str],
    min_col: usize,
    cell: impl Fn(&str, &str) -> String,
) {
    let set_width = sets.iter().map(|s| s.len()).max().unwrap_or(0).max(9);
    let col = variants
        .iter()
        .map(|v| v.len())
        .max()
        .unwrap_or(0)
        .max(min_col);
    outln!("\n{title}");
    out!("{:<set_width$}", "input set");
    for v in variants {
        out!("  {v:>col$}");
    }
    outln!();
    for set in sets {
        out!("{set:<set_width$}");
        for v in variants {
            out!("  {:>col$}", cell(v, set));
        }
        outln!();
    }
}
