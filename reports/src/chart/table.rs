//! The figures a chart draws, as a table the pages print beneath it, so a
//! reader who wants the number at 4 KiB reads it rather than reading it
//! off a line.
//!
//! Each chart builds its own from the values it draws, in the chart's unit,
//! so the table and the picture cannot disagree.

use crate::numbers::sig3;

/// A chart's figures: one row per drawn series (a variant, or a variant
/// and its group), one column per category or swept value.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureTable {
    /// What the cells are, with their unit: `time (ns/byte)`.
    pub quantity: String,
    /// What the rows are: `variant`.
    pub rows_name: String,
    /// What the columns are: `input set`, `bytes`.
    pub columns_name: String,
    /// The columns: input sets, or a swept parameter's values (`8 B`).
    pub columns: Vec<String>,
    /// Each row's name and its cells, one per column; empty where the
    /// series has no figure there.
    pub rows: Vec<(String, Vec<String>)>,
}

/// A drawn figure and its band as a cell, three significant digits each:
/// `0.0201 (0.0199–0.0203)`, or the figure alone where no band was drawn.
pub(crate) fn estimate(value: f64, band: Option<(f64, f64)>) -> String {
    match band {
        Some((lo, hi)) => format!("{} ({}–{})", sig3(value), sig3(lo), sig3(hi)),
        None => sig3(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_is_the_figure_and_its_band() {
        assert_eq!(
            estimate(0.0201, Some((0.0199, 0.0203))),
            "0.0201 (0.0199–0.0203)"
        );
        assert_eq!(estimate(12.5, None), "12.5");
    }
}
