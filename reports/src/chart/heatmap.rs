//! The rank-by-depth heatmap: time per solve for each (row, column) cell,
//! row 0 at the bottom, on a log colour scale with a colour bar, and the
//! value printed in every cell so the chart reads like a table.

use super::table::{FigureTable, estimate};
use super::{
    Anchor, CENTER, Canvas, Figure, LABEL, LEFT, RIGHT, Res, SMALL, TICK, TITLE, TOP, measure,
    widest,
};
use crate::palette::{ERROR, INK, text_on, viridis};
use crate::scale::{Scale, TimeUnit, compact};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// What one cell holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum CellValue {
    /// Nanoseconds per element.
    Ns(f64),
    /// The record is an error.
    Error,
    /// The variant crashed on this cell's input set.
    Crashed,
    /// The variant passed its deadline on this cell's input set.
    Hung,
    /// The record was skipped.
    Skipped,
}

impl CellValue {
    /// What a cell without a time prints, and in which colour: findings
    /// in the error colour, a skip as a quiet dash.
    fn mark(self) -> Option<(&'static str, RGBColor)> {
        match self {
            CellValue::Ns(_) => None,
            CellValue::Error => Some(("err", ERROR)),
            CellValue::Crashed => Some(("crashed", ERROR)),
            CellValue::Hung => Some(("hung", ERROR)),
            CellValue::Skipped => Some(("–", INK)),
        }
    }
}

/// One cell: row and column indices into the chart's axes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell {
    pub row: usize,
    pub col: usize,
    pub value: CellValue,
}

/// A heatmap over the values of two parameters, rows and columns.
#[derive(Clone, Debug)]
pub(crate) struct Heatmap {
    pub title: String,
    pub subtitle: String,
    pub x_title: String,
    pub y_title: String,
    /// Row values, ascending; index 0 is drawn at the bottom.
    pub rows: Vec<f64>,
    /// Column values, ascending, left to right.
    pub cols: Vec<f64>,
    pub cells: Vec<Cell>,
    /// Unit the printed values and colour bar use.
    pub unit: TimeUnit,
    /// Element name for the unit, e.g. `solve`.
    pub element: String,
}

const MARGIN: i32 = 16;
const TOP_Y: i32 = 84;
const CELL_H: i32 = 26;
const BAR_W: i32 = 26;
/// Shortest colour bar, so a grid of one or two rows still gets a readable scale.
const BAR_MIN_H: i32 = 150;

impl Heatmap {
    fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.cells.iter().filter_map(|c| match c.value {
            CellValue::Ns(v) => Some(v / self.unit.ns),
            _ => None,
        })
    }

    /// The exact log range of the values (a little wider when they are all equal).
    fn colour_scale(&self) -> Scale {
        let (lo, hi) = self
            .values()
            .filter(|v| *v > 0.0)
            .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        if !lo.is_finite() {
            Scale::log(1.0, 10.0)
        } else if hi > lo {
            Scale::log(lo, hi)
        } else {
            Scale::log(lo / 2.0, lo * 2.0)
        }
    }

    fn labels(&self) -> Vec<String> {
        self.values().map(compact).collect()
    }

    fn cell_w(&self) -> i32 {
        let labels = self.labels();
        let marks = self.cells.iter().filter_map(|c| c.value.mark());
        let text = widest(
            labels
                .iter()
                .map(String::as_str)
                .chain(marks.map(|(text, _)| text)),
            SMALL,
        );
        let cols = widest(
            self.cols
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str),
            TICK,
        );
        (text.max(cols) + 10).max(32)
    }

    fn left(&self) -> i32 {
        let rows: Vec<String> = self.rows.iter().map(f64::to_string).collect();
        MARGIN + 30 + widest(rows.iter().map(String::as_str), TICK) + 12
    }

    fn plot(&self) -> (i32, i32) {
        (
            self.cols.len() as i32 * self.cell_w(),
            self.rows.len() as i32 * CELL_H,
        )
    }

    /// Colour-bar ticks: the scale's own (1-2-5 steps inside the range,
    /// decades where those would crowd the bar), or its two ends where
    /// fewer than two round values fall inside.
    fn bar_ticks(&self, scale: &Scale) -> Vec<f64> {
        let ticks = scale.ticks();
        if ticks.len() >= 2 {
            ticks
        } else {
            vec![scale.lo, scale.hi]
        }
    }

    fn bar_h(&self) -> i32 {
        self.plot().1.max(BAR_MIN_H)
    }
}

impl Figure for Heatmap {
    fn size(&self) -> (u32, u32) {
        let (w, h) = self.plot();
        let bar_labels = widest(
            self.bar_ticks(&self.colour_scale())
                .iter()
                .map(|t| compact(*t))
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str),
            TICK,
        );
        let unit = measure(&format!("{}/{}", self.unit.symbol, self.element), LABEL).0;
        let right = 36 + BAR_W + 8 + bar_labels.max(unit / 2) + 24;
        let title_w = super::heading_width(&self.title, &self.subtitle);
        let width = (self.left() + w + right + MARGIN).max(title_w);
        (width as u32, (TOP_Y + h.max(self.bar_h()) + 80) as u32)
    }

    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res {
        let left = self.left();
        let (w, h) = self.plot();
        let cell_w = self.cell_w();
        let bottom = TOP_Y + h;
        let scale = self.colour_scale();
        c.bold(
            &self.title,
            (MARGIN, 22),
            TITLE,
            Anchor(HPos::Left, VPos::Center),
        )?;
        c.text(&self.subtitle, (MARGIN, 50), LABEL, INK, LEFT)?;
        for cell in &self.cells {
            let x = left + cell.col as i32 * cell_w;
            let y = bottom - (cell.row as i32 + 1) * CELL_H;
            let centre = (x + cell_w / 2, y + CELL_H / 2);
            match cell.value {
                CellValue::Ns(ns) => {
                    let v = ns / self.unit.ns;
                    let bg = viridis(scale.fraction(v));
                    c.fill((x, y), (x + cell_w, y + CELL_H), bg)?;
                    c.text(&compact(v), centre, SMALL, text_on(bg), CENTER)?;
                }
                other => {
                    let (text, colour) = other.mark().unwrap_or(("–", INK));
                    c.fill((x, y), (x + cell_w, y + CELL_H), RGBColor(0xEE, 0xEE, 0xEE))?;
                    c.text(text, centre, SMALL, colour, CENTER)?;
                }
            }
        }
        c.frame((left, TOP_Y), (left + w, bottom), INK)?;
        for (i, r) in self.rows.iter().enumerate() {
            let y = bottom - i as i32 * CELL_H - CELL_H / 2;
            c.text(&r.to_string(), (left - 6, y), TICK, INK, RIGHT)?;
        }
        for (i, d) in self.cols.iter().enumerate() {
            let x = left + i as i32 * cell_w + cell_w / 2;
            c.text(&d.to_string(), (x, bottom + 6), TICK, INK, TOP)?;
        }
        c.text(
            &self.x_title,
            (left + w / 2, bottom + 44),
            LABEL,
            INK,
            CENTER,
        )?;
        c.vertical(
            &self.y_title,
            (MARGIN + 12, TOP_Y + h / 2),
            LABEL,
            INK,
            CENTER,
        )?;

        // Colour bar: thin strips from low (bottom) to high (top).
        let bx = left + w + 36;
        let bar_h = self.bar_h();
        let bar = scale.onto(f64::from(TOP_Y + bar_h), f64::from(TOP_Y));
        for k in (0..bar_h).step_by(2) {
            let t = 1.0 - f64::from(k) / f64::from(bar_h);
            c.fill((bx, TOP_Y + k), (bx + BAR_W, TOP_Y + k + 2), viridis(t))?;
        }
        c.frame((bx, TOP_Y), (bx + BAR_W, TOP_Y + bar_h), INK)?;
        for t in self.bar_ticks(&scale) {
            let y = bar.px(t);
            c.line(vec![(bx + BAR_W, y), (bx + BAR_W + 4, y)], INK, 1)?;
            c.text(&compact(t), (bx + BAR_W + 8, y), TICK, INK, LEFT)?;
        }
        let unit = format!("{}/{}", self.unit.symbol, self.element);
        c.text(
            &unit,
            (bx + BAR_W / 2, TOP_Y - 14),
            LABEL,
            INK,
            Anchor(HPos::Center, VPos::Center),
        )
    }

    /// A row per row value (the top row first, as drawn), a column per
    /// column value, each cell the printed time or why there is none.
    fn table(&self) -> Option<FigureTable> {
        let rows = self
            .rows
            .iter()
            .enumerate()
            .rev()
            .map(|(r, &value)| {
                let cells = (0..self.cols.len())
                    .map(|col| {
                        let cell = self.cells.iter().find(|c| c.row == r && c.col == col);
                        match cell.map(|c| c.value) {
                            Some(CellValue::Ns(ns)) => estimate(ns / self.unit.ns, None),
                            Some(other) => other.mark().map_or("", |m| m.0).to_owned(),
                            None => String::new(),
                        }
                    })
                    .collect();
                (compact(value), cells)
            })
            .collect();
        Some(FigureTable {
            quantity: format!("time ({}/{})", self.unit.symbol, self.element),
            rows_name: self.y_title.clone(),
            columns_name: self.x_title.clone(),
            columns: self.cols.iter().map(|&c| compact(c)).collect(),
            rows,
        })
    }
}
