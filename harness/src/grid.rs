//! The grids `bench`, `count` and the setup metric print in the terminal:
//! one row per input set, one column per variant, cells chosen by the
//! caller and formatted here (three significant digits at any size, see
//! [`reports::numbers`]). Below the commands, so an engine may print one.

use crate::dyn_workload::DynWorkload;
use crate::{out, outln};
use reports::Record;
use reports::numbers::{self, byte_rate, sig3};

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
/// right-aligned in a column as wide as its widest cell and at least
/// `min_col`.
pub fn print_grid(
    title: &str,
    sets: &[&str],
    variants: &[&str],
    min_col: usize,
    cell: impl Fn(&str, &str) -> String,
) {
    let cells: Vec<Vec<String>> = sets
        .iter()
        .map(|set| variants.iter().map(|v| cell(v, set)).collect())
        .collect();
    let set_width = sets.iter().map(|s| s.len()).max().unwrap_or(0).max(9);
    let col = variants
        .iter()
        .map(|v| v.chars().count())
        .chain(cells.iter().flatten().map(|c| c.chars().count()))
        .max()
        .unwrap_or(0)
        .max(min_col);
    outln!("\n{title}");
    out!("{:<set_width$}", "input set");
    for v in variants {
        out!("  {v:>col$}");
    }
    outln!();
    for (set, row) in sets.iter().zip(&cells) {
        out!("{set:<set_width$}");
        for c in row {
            out!("  {c:>col$}");
        }
        outln!();
    }
}

/// A time per element with three significant digits, in picoseconds
/// below 1 ns; per byte, the rate beside it: `20.7ps 48.3 GB/s`.
pub fn time(ns: f64, element: &str) -> String {
    with_rate(numbers::time(ns), ns, element)
}

/// A median with its 95 % interval in the median's unit, e.g.
/// `121ns (118–122)`, or, where there were too few samples for an
/// interval, its range labelled as such: `121ns (min–max 118–130)`; per
/// byte, the rate follows.
pub fn with_interval(r: &Record, element: &str) -> String {
    let (scale, _) = numbers::time_unit(r.median);
    let (label, low, high) = match r.interval {
        Some(i) => ("", i.low, i.high),
        None => ("min–max ", r.min, r.max),
    };
    let text = format!(
        "{} ({label}{}–{})",
        numbers::time(r.median),
        sig3(low / scale),
        sig3(high / scale)
    );
    with_rate(text, r.median, element)
}

fn with_rate(text: String, ns: f64, element: &str) -> String {
    if numbers::is_bytes(element) {
        format!("{text} {}", byte_rate(ns))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reports::interval::Interval;

    #[test]
    fn cells_keep_three_digits_below_a_nanosecond() {
        assert_eq!(time(4.567, "board"), "4.57ns");
        assert_eq!(time(0.0207, "board"), "20.7ps");
        assert_eq!(time(0.0207, "byte"), "20.7ps 48.3 GB/s");
        let r = Record {
            median: 0.0290,
            min: 0.0285,
            max: 0.0400,
            ..Record::default()
        };
        assert_eq!(
            with_interval(&r, "byte"),
            "29.0ps (min–max 28.5–40.0) 34.5 GB/s"
        );
        let r = Record {
            median: 121.0,
            interval: Some(Interval {
                low: 118.0,
                high: 122.4,
            }),
            ..Record::default()
        };
        assert_eq!(with_interval(&r, "board"), "121ns (118–122)");
    }
}
