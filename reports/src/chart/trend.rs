//! Trend charts: one record's level per commit, commits in branch order
//! on the x axis, one line per variant (or input set) with its interval
//! as a band, and the detected steps marked where they start.
//!
//! Commits are evenly spaced columns, not dates: a quiet month and a busy
//! afternoon read the same, and each column is a place a page can link.

use super::{
    Anchor, CENTER, Canvas, Figure, LABEL, LEFT, LegendItem, RIGHT, Res, SMALL, TICK, TITLE, band,
    legend, legend_width, y_axis, y_tick_width,
};
use crate::palette::{GRID, INK};
use crate::scale::Scale;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// A point of a trend line: its column, value and band.
pub(crate) type TrendPoint = (usize, f64, Option<(f64, f64)>);

/// One line of a trend chart.
#[derive(Clone, Debug)]
pub(crate) struct TrendLine {
    pub label: String,
    pub color: RGBColor,
    pub marker: usize,
    /// (column, value, band), by column.
    pub points: Vec<TrendPoint>,
    /// (column of the last old level, column of the first new one,
    /// after ÷ before).
    pub steps: Vec<(usize, usize, f64)>,
}

/// A trend chart over `columns` commits.
#[derive(Clone, Debug)]
pub(crate) struct TrendChart {
    pub title: String,
    pub subtitle: String,
    pub y_title: String,
    pub legend_heading: String,
    /// One label per column (abbreviated hashes), oldest first.
    pub columns: Vec<String>,
    pub lines: Vec<TrendLine>,
}

const MARGIN: i32 = 16;
const TOP_Y: i32 = 100;
const PLOT_W: i32 = 760;
const PLOT_H: i32 = 400;
/// Room under the plot for vertical commit labels and the axis title.
const BELOW: i32 = 110;

impl TrendChart {
    fn scale(&self) -> Scale {
        Scale::fit(self.lines.iter().flat_map(|l| {
            l.points
                .iter()
                .flat_map(|&(_, v, band)| [Some(v), band.map(|b| b.1)])
                .flatten()
        }))
    }

    fn items(&self) -> Vec<LegendItem> {
        self.lines
            .iter()
            .map(|l| LegendItem {
                text: l.label.clone(),
                color: l.color,
                marker: Some(l.marker),
                dash: 0,
            })
            .collect()
    }

    fn left(&self) -> i32 {
        MARGIN + 30 + y_tick_width(&self.scale()) + 10
    }

    /// Pixel span `(x0, x1)` of each column, oldest first; the plot's top
    /// and bottom (labels included) are [`TrendChart::rows`].
    pub fn spans(&self) -> Vec<(i32, i32)> {
        let n = self.columns.len().max(1) as i32;
        let left = self.left();
        (0..n)
            .map(|i| (left + PLOT_W * i / n, left + PLOT_W * (i + 1) / n))
            .collect()
    }

    /// Top and bottom pixel of the columns, commit labels included.
    pub fn rows(&self) -> (i32, i32) {
        (TOP_Y, TOP_Y + PLOT_H + BELOW - 40)
    }

    fn x(&self, column: usize) -> i32 {
        let (a, b) = self.spans()[column];
        (a + b) / 2
    }
}

impl Figure for TrendChart {
    fn size(&self) -> (u32, u32) {
        let w = (self.left()
            + PLOT_W
            + 24
            + legend_width(&self.items(), &self.legend_heading)
            + MARGIN)
            .max(super::heading_width(&self.title, &self.subtitle));
        let legend_h = TOP_Y + (self.lines.len() as i32 + 2) * super::LEGEND_ROW;
        let h = (TOP_Y + PLOT_H + BELOW).max(legend_h);
        (w as u32, h as u32)
    }

    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res {
        let left = self.left();
        let (x0, x1, y0, y1) = (left, left + PLOT_W, TOP_Y + PLOT_H, TOP_Y);
        let ys = self.scale().onto(f64::from(y0), f64::from(y1));
        c.bold(
            &self.title,
            (MARGIN, 22),
            TITLE,
            Anchor(HPos::Left, VPos::Center),
        )?;
        c.text(&self.subtitle, (MARGIN, 50), LABEL, INK, LEFT)?;
        y_axis(c, &ys, (x0, x1), &self.y_title, MARGIN + 12)?;
        // Thin the commit labels so vertical text never overlaps.
        let every = ((TICK as i32 + 4) * self.columns.len() as i32 / PLOT_W + 1).max(1) as usize;
        for (i, label) in self.columns.iter().enumerate() {
            let x = self.x(i);
            c.line(vec![(x, y0), (x, y0 + 4)], INK, 1)?;
            if i % every == 0 || i + 1 == self.columns.len() {
                c.line(vec![(x, y0), (x, y1)], GRID, 1)?;
                c.vertical(label, (x, y0 + 8), TICK, INK, RIGHT)?;
            }
        }
        c.line(vec![(x0, y0), (x1, y0)], INK, 1)?;
        c.text(
            "commit (first-parent order, oldest left)",
            ((x0 + x1) / 2, y0 + BELOW - 18),
            LABEL,
            INK,
            CENTER,
        )?;
        for l in &self.lines {
            let columns: Vec<Option<(i32, i32, i32)>> = l
                .points
                .iter()
                .map(|&(col, _, b)| b.map(|(lo, hi)| (self.x(col), ys.px(lo), ys.px(hi))))
                .collect();
            band(c, &columns, l.color)?;
        }
        // Change labels of steps at one boundary stack upwards.
        let mut labelled: Vec<i32> = Vec::new();
        for l in &self.lines {
            let pts: Vec<(i32, i32)> = l
                .points
                .iter()
                .map(|&(col, v, _)| (self.x(col), ys.px(v)))
                .collect();
            c.line(pts.clone(), l.color, 2)?;
            for p in pts {
                c.marker(l.marker, p, l.color)?;
            }
            for &(old, new, ratio) in &l.steps {
                let x = (self.x(old) + self.x(new)) / 2;
                c.line(vec![(x, y0), (x, y1)], l.color, 2)?;
                let stacked = labelled.iter().filter(|&&at| at == x).count() as i32;
                labelled.push(x);
                let change = format!("{:+.1} %", (ratio - 1.0) * 100.0);
                c.text(
                    &change,
                    (x + 4, y1 - 12 - 16 * stacked),
                    SMALL,
                    l.color,
                    LEFT,
                )?;
            }
        }
        legend(c, (x1 + 24, TOP_Y), &self.legend_heading, &self.items())
    }
}
