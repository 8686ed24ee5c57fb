//! Line charts of a measurement against a swept parameter (a density, a
//! buffer size): one line per series, colour and marker shape by variant, dash by
//! series group, legend beside the plot. A measured figure carries its 95 %
//! interval as a translucent band (as trend charts do), so two lines
//! closer than their noise read as such.

use super::table::{FigureTable, estimate};
use super::{
    Anchor, CENTER, Canvas, Figure, LABEL, LEFT, LegendItem, Res, TICK, TITLE, TOP, band, legend,
    legend_width, y_axis, y_tick_width,
};
use crate::meaning::Meaning;
use crate::palette::{GRID, INK};
use crate::scale::Scale;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// A point of a line: x, y and the band (low, high) around y, if any.
pub(crate) type LinePoint = (f64, f64, Option<(f64, f64)>);

/// One line: legend text, style and points sorted by x.
#[derive(Clone, Debug)]
pub(crate) struct Series {
    pub label: String,
    pub color: RGBColor,
    /// The shape of its markers (by variant).
    pub marker: usize,
    /// Its dash style (by group; see [`Canvas::dashed`]).
    pub dash: usize,
    pub points: Vec<LinePoint>,
    /// Its fitted growth law sampled along the sweep, drawn thinly under
    /// the points; empty where none was fitted.
    pub fitted: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Clone, Debug)]
pub(crate) struct LineChart {
    pub title: String,
    pub subtitle: String,
    pub x_title: String,
    /// What the swept parameter is: its axis follows from it.
    pub x_meaning: Option<Meaning>,
    pub y_title: String,
    pub legend_heading: String,
    pub series: Vec<Series>,
    /// The growth law of each line, one sentence each, for the pages.
    pub laws: Vec<String>,
}

const MARGIN: i32 = 16;
const TOP_Y: i32 = 90;
const PLOT_W: i32 = 760;
const PLOT_H: i32 = 420;

impl LineChart {
    fn scales(&self) -> (Scale, Scale) {
        let x = Scale::parameter(
            self.series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0)),
            self.x_meaning,
        );
        let y = Scale::fit(self.series.iter().flat_map(|s| {
            s.points.iter().flat_map(|&(_, y, band)| {
                [Some(y), band.map(|b| b.0), band.map(|b| b.1)]
                    .into_iter()
                    .flatten()
            })
        }));
        (x, y)
    }

    fn items(&self) -> Vec<LegendItem> {
        self.series
            .iter()
            .map(|s| LegendItem {
                text: s.label.clone(),
                color: s.color,
                marker: Some(s.marker),
                dash: s.dash,
            })
            .collect()
    }

    fn left(&self) -> i32 {
        MARGIN + 30 + y_tick_width(&self.scales().1) + 10
    }
}

impl Figure for LineChart {
    fn size(&self) -> (u32, u32) {
        let w = (self.left()
            + PLOT_W
            + 24
            + legend_width(&self.items(), &self.legend_heading)
            + MARGIN)
            .max(super::heading_width(&self.title, &self.subtitle));
        let legend_h = TOP_Y + (self.series.len() as i32 + 2) * super::LEGEND_ROW;
        let h = (TOP_Y + PLOT_H + 70).max(legend_h);
        (w as u32, h as u32)
    }

    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res {
        let left = self.left();
        let (x0, x1, y0, y1) = (left, left + PLOT_W, TOP_Y + PLOT_H, TOP_Y);
        let (xs, ys) = self.scales();
        let (xs, ys) = (
            xs.onto(f64::from(x0), f64::from(x1)),
            ys.onto(f64::from(y0), f64::from(y1)),
        );
        c.bold(
            &self.title,
            (MARGIN, 22),
            TITLE,
            Anchor(HPos::Left, VPos::Center),
        )?;
        c.text(&self.subtitle, (MARGIN, 50), LABEL, INK, LEFT)?;
        y_axis(c, &ys, (x0, x1), &self.y_title, MARGIN + 12)?;
        for t in xs.ticks() {
            let x = xs.px(t);
            c.line(vec![(x, y0), (x, y1)], GRID, 1)?;
            c.line(vec![(x, y0), (x, y0 + 4)], INK, 1)?;
            c.text(&xs.label(t), (x, y0 + 8), TICK, INK, TOP)?;
        }
        c.line(vec![(x0, y0), (x1, y0)], INK, 1)?;
        c.text(&self.x_title, ((x0 + x1) / 2, y0 + 48), LABEL, INK, CENTER)?;
        // Every band first, so no band covers another series' line.
        for s in &self.series {
            let columns: Vec<Option<(i32, i32, i32)>> = s
                .points
                .iter()
                .map(|&(x, _, b)| b.map(|(lo, hi)| (xs.px(x), ys.px(lo), ys.px(hi))))
                .collect();
            band(c, &columns, s.color)?;
        }
        for s in self.series.iter().filter(|s| s.fitted.len() > 1) {
            let curve = s
                .fitted
                .iter()
                .map(|&(x, y)| (xs.px(x), ys.px(y)))
                .collect();
            c.line(curve, s.color, 1)?;
        }
        for s in &self.series {
            let pts: Vec<(i32, i32)> = s
                .points
                .iter()
                .map(|&(x, y, _)| (xs.px(x), ys.px(y)))
                .collect();
            c.dashed(pts.clone(), s.color, 2, s.dash)?;
            for p in pts {
                c.marker(s.marker, p, s.color)?;
            }
        }
        legend(c, (x1 + 24, TOP_Y), &self.legend_heading, &self.items())
    }

    fn laws(&self) -> Vec<String> {
        self.laws.clone()
    }

    /// A row per line, a column per swept value (labelled as the axis
    /// labels it: `4 KiB`), each cell the point and its band.
    fn table(&self) -> Option<FigureTable> {
        let mut xs: Vec<f64> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let axis = self.scales().0;
        let rows = self
            .series
            .iter()
            .map(|s| {
                let cells = xs
                    .iter()
                    .map(|&x| {
                        s.points
                            .iter()
                            .find(|p| p.0 == x)
                            .map_or_else(String::new, |&(_, y, band)| estimate(y, band))
                    })
                    .collect();
                (s.label.clone(), cells)
            })
            .collect();
        Some(FigureTable {
            quantity: self.y_title.clone(),
            rows_name: self.legend_heading.clone(),
            columns_name: self.x_title.clone(),
            columns: xs.iter().map(|&x| axis.label(x)).collect(),
            rows,
        })
    }
}
