//! The variant a speedup divides by, chosen by one rule that `bitbench
//! bench`'s table and the report's speedup chart share.
//!
//! The oracle is the natural reference, but a run may leave it out
//! (`--variant sym front`) and a table of `-` says nothing. Then the
//! reference falls back to the slowest variant timed on every row, so every
//! other variant's speedup is a number, and the title says which rule
//! picked it.

use std::fmt;

/// Why a variant is the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// It is the oracle and has at least one time.
    Oracle,
    /// The oracle has no time; this is the slowest variant timed on every
    /// row (or, when none is, on the most rows).
    Slowest {
        /// Whether it was timed on every row that has any time.
        everywhere: bool,
    },
}

/// The reference a speedup table divides by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference<'a> {
    /// Its name.
    pub variant: &'a str,
    /// How it was chosen.
    pub rule: Rule,
}

impl fmt::Display for Reference<'_> {
    /// The reference as a title names it, e.g. `naive (the oracle)` or
    /// `sym (slowest variant timed on every row; no oracle time)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            Rule::Oracle => write!(f, "{} (the oracle)", self.variant),
            Rule::Slowest { everywhere: true } => write!(
                f,
                "{} (slowest variant timed on every row; no oracle time)",
                self.variant
            ),
            Rule::Slowest { everywhere: false } => write!(
                f,
                "{} (slowest variant timed on the most rows; no oracle time)",
                self.variant
            ),
        }
    }
}

/// Picks the reference among `variants` over `rows`: `oracle` when it has a
/// time on any row, otherwise the variant timed on the most rows (every row,
/// when one is) with the greatest total time over them. `time(variant, row)`
/// is a variant's time on a row, `None` where it has none. `None` when
/// nothing was timed.
pub fn speedup_reference<'a, R>(
    oracle: Option<&'a str>,
    variants: &[&'a str],
    rows: &[R],
    time: impl Fn(&str, &R) -> Option<f64>,
) -> Option<Reference<'a>> {
    if let Some(oracle) = oracle.filter(|o| rows.iter().any(|row| time(o, row).is_some())) {
        return Some(Reference {
            variant: oracle,
            rule: Rule::Oracle,
        });
    }
    let timed = |v: &str| {
        rows.iter()
            .filter_map(|row| time(v, row))
            .collect::<Vec<_>>()
    };
    let coverage: Vec<(&'a str, Vec<f64>)> = variants
        .iter()
        .map(|&v| (v, timed(v)))
        .filter(|(_, times)| !times.is_empty())
        .collect();
    let most = coverage.iter().map(|(_, t)| t.len()).max()?;
    let rows_timed = rows
        .iter()
        .filter(|row| variants.iter().any(|v| time(v, row).is_some()))
        .count();
    coverage
        .into_iter()
        .filter(|(_, t)| t.len() == most)
        .max_by(|a, b| a.1.iter().sum::<f64>().total_cmp(&b.1.iter().sum()))
        .map(|(variant, _)| Reference {
            variant,
            rule: Rule::Slowest {
                everywhere: most == rows_timed,
            },
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times by (variant, row) from a small table.
    fn table<'t>(cells: &'t [(&str, &str, f64)]) -> impl Fn(&str, &&str) -> Option<f64> + 't {
        |v, row| {
            cells
                .iter()
                .find(|(cv, cr, _)| *cv == v && cr == row)
                .map(|c| c.2)
        }
    }

    #[test]
    fn the_oracle_when_it_has_a_time() {
        let cells = [("naive", "a", 90.0), ("fast", "a", 1.0), ("fast", "b", 1.0)];
        let r = speedup_reference(
            Some("naive"),
            &["naive", "fast"],
            &["a", "b"],
            table(&cells),
        );
        assert_eq!(
            r.map(|r| (r.variant, r.rule)),
            Some(("naive", Rule::Oracle))
        );
    }

    #[test]
    fn the_slowest_timed_everywhere_when_the_oracle_is_absent() {
        // `slow` is slowest in total but misses a row; `mid` is the slowest
        // of those timed on both.
        let cells = [
            ("slow", "a", 50.0),
            ("mid", "a", 5.0),
            ("mid", "b", 6.0),
            ("fast", "a", 1.0),
            ("fast", "b", 2.0),
        ];
        let r = speedup_reference(
            Some("naive"),
            &["slow", "mid", "fast"],
            &["a", "b"],
            table(&cells),
        )
        .unwrap();
        assert_eq!(r.variant, "mid");
        assert_eq!(r.rule, Rule::Slowest { everywhere: true });
        assert!(r.to_string().contains("slowest variant timed on every row"));
    }

    #[test]
    fn the_most_rows_when_none_is_timed_everywhere() {
        let cells = [("x", "a", 3.0), ("x", "b", 3.0), ("y", "c", 9.0)];
        let r = speedup_reference(None, &["x", "y"], &["a", "b", "c"], table(&cells)).unwrap();
        assert_eq!(r.variant, "x");
        assert_eq!(r.rule, Rule::Slowest { everywhere: false });
    }

    #[test]
    fn none_when_nothing_was_timed() {
        assert_eq!(
            speedup_reference(Some("o"), &["o", "v"], &["a"], |_, _: &&str| None),
            None
        );
    }
}
