//! The decision map: which variant a dispatcher runs at each regime
//! (columns) for each target-cpu level and feature tier (rows), each cell
//! in the winner's colour with its margin over the runner-up printed in
//! it, so where the winner changes reads at a glance.

use super::{
    Anchor, CENTER, Canvas, Figure, LABEL, LEFT, LEGEND_ROW, LegendItem, RIGHT, Res, SMALL, TICK,
    TITLE, TOP, legend, legend_width, widest,
};
use crate::palette::{INK, text_on};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// One decided cell: row and column indices into the map's axes.
#[derive(Clone, Debug)]
pub(crate) struct MapCell {
    pub row: usize,
    pub col: usize,
    /// The winner's colour.
    pub color: RGBColor,
    /// What the cell prints: the winner's margin (`1.25×`).
    pub label: String,
}

/// A map of decisions over (row, column) cells; a cell nothing was
/// decided in is drawn empty.
#[derive(Clone, Debug)]
pub(crate) struct DecisionMap {
    pub title: String,
    pub subtitle: String,
    pub x_title: String,
    /// Row labels, top to bottom.
    pub rows: Vec<String>,
    /// Column labels, left to right.
    pub cols: Vec<String>,
    pub cells: Vec<MapCell>,
    /// The winners, in variant order.
    pub legend: Vec<LegendItem>,
}

const MARGIN: i32 = 16;
const TOP_Y: i32 = 84;
const CELL_H: i32 = 30;
const LEGEND_GAP: i32 = 28;
/// Empty cells: nothing decided there.
const EMPTY: RGBColor = RGBColor(0xEE, 0xEE, 0xEE);

impl DecisionMap {
    fn cell_w(&self) -> i32 {
        let labels = widest(self.cells.iter().map(|c| c.label.as_str()), SMALL);
        let cols = widest(self.cols.iter().map(String::as_str), TICK);
        (labels.max(cols) + 16).max(48)
    }

    fn left(&self) -> i32 {
        MARGIN + widest(self.rows.iter().map(String::as_str), TICK) + 10
    }

    fn plot(&self) -> (i32, i32) {
        (
            self.cols.len() as i32 * self.cell_w(),
            self.rows.len() as i32 * CELL_H,
        )
    }

    fn legend_h(&self) -> i32 {
        LEGEND_ROW * (self.legend.len() as i32 + 1)
    }
}

impl Figure for DecisionMap {
    fn size(&self) -> (u32, u32) {
        let (w, h) = self.plot();
        let legend = LEGEND_GAP + legend_width(&self.legend, "variant");
        let title_w = super::heading_width(&self.title, &self.subtitle);
        let width = (self.left() + w + legend + MARGIN).max(title_w);
        (width as u32, (TOP_Y + h.max(self.legend_h()) + 72) as u32)
    }

    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res {
        let left = self.left();
        let (w, h) = self.plot();
        let cell_w = self.cell_w();
        let bottom = TOP_Y + h;
        c.bold(
            &self.title,
            (MARGIN, 22),
            TITLE,
            Anchor(HPos::Left, VPos::Center),
        )?;
        c.text(&self.subtitle, (MARGIN, 50), LABEL, INK, LEFT)?;
        for row in 0..self.rows.len() as i32 {
            for col in 0..self.cols.len() as i32 {
                let (x, y) = (left + col * cell_w, TOP_Y + row * CELL_H);
                c.fill((x, y), (x + cell_w, y + CELL_H), EMPTY)?;
            }
        }
        for cell in &self.cells {
            let x = left + cell.col as i32 * cell_w;
            let y = TOP_Y + cell.row as i32 * CELL_H;
            c.fill((x, y), (x + cell_w, y + CELL_H), cell.color)?;
            c.frame((x, y), (x + cell_w, y + CELL_H), RGBColor(0xFF, 0xFF, 0xFF))?;
            let centre = (x + cell_w / 2, y + CELL_H / 2);
            c.text(&cell.label, centre, SMALL, text_on(cell.color), CENTER)?;
        }
        c.frame((left, TOP_Y), (left + w, bottom), INK)?;
        for (i, r) in self.rows.iter().enumerate() {
            let y = TOP_Y + i as i32 * CELL_H + CELL_H / 2;
            c.text(r, (left - 6, y), TICK, INK, RIGHT)?;
        }
        for (i, label) in self.cols.iter().enumerate() {
            let x = left + i as i32 * cell_w + cell_w / 2;
            c.text(label, (x, bottom + 6), TICK, INK, TOP)?;
        }
        c.text(
            &self.x_title,
            (left + w / 2, bottom + 44),
            LABEL,
            INK,
            CENTER,
        )?;
        legend(c, (left + w + LEGEND_GAP, TOP_Y), "variant", &self.legend)
    }
}
