//! Grouped bar charts: one bar per variant inside each category, one
//! panel per input set when a chart needs both dimensions.
//!
//! Variant names live in the legend, never under the bars, so eight or
//! twenty variants cannot produce overlapping labels; category labels are
//! wrapped onto lines and turned vertical when they do not fit.

use super::{
    Anchor, CENTER, Canvas, Figure, LABEL, LEFT, LegendItem, RIGHT, Res, SMALL, TICK, TITLE, TOP,
    legend, legend_width, widest, y_axis, y_tick_width,
};
use crate::palette::{ERROR, GREY, INK};
use crate::scale::{Scale, compact};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// What to draw in one variant's slot.
#[derive(Clone, Debug)]
pub(crate) enum Bar {
    /// A measured value with an optional (low, high) whisker.
    Value {
        value: f64,
        whisker: Option<(f64, f64)>,
    },
    /// The record exists but holds no value (`error`, `crashed`, `hung`,
    /// `skipped`, `no oracle`).
    Missing(&'static str),
}

/// A category on the x axis: label lines and one slot per legend entry.
#[derive(Clone, Debug)]
pub(crate) struct Category {
    pub label: Vec<String>,
    pub bars: Vec<Option<Bar>>,
}

/// One panel: a title and its categories.
#[derive(Clone, Debug)]
pub(crate) struct Panel {
    pub title: String,
    pub categories: Vec<Category>,
}

/// A grouped bar chart; `legend[i]` styles slot `i` of every category.
#[derive(Clone, Debug)]
pub(crate) struct BarChart {
    pub title: String,
    pub subtitle: String,
    pub y_title: String,
    pub x_title: String,
    pub legend_heading: String,
    pub legend: Vec<LegendItem>,
    pub panels: Vec<Panel>,
    /// Appended to printed values, e.g. `×`.
    pub value_suffix: &'static str,
    /// A horizontal reference line, e.g. speedup 1.
    pub reference: Option<f64>,
}

const MARGIN: i32 = 16;
const HEADER: i32 = 70;
const PANEL_TITLE: i32 = 30;
/// Room above the plot for values printed over the tallest bars.
const HEADROOM: i32 = 52;
const PLOT_H: i32 = 250;
const LINE_H: i32 = 20;
const X_TITLE: i32 = 34;
const MIN_PLOT_W: i32 = 620;
const MAX_PLOT_W: i32 = 2000;
const BAR_W: i32 = 20;

struct Layout {
    left: i32,
    plot_w: i32,
    cat_w: i32,
    bar_w: i32,
    vertical_labels: bool,
    panel_h: i32,
    legend_w: i32,
    scales: Vec<Scale>,
}

impl BarChart {
    fn slots(&self) -> i32 {
        self.legend.len().max(1) as i32
    }

    fn max_categories(&self) -> i32 {
        self.panels
            .iter()
            .map(|p| p.categories.len())
            .max()
            .unwrap_or(1)
            .max(1) as i32
    }

    fn layout(&self) -> Layout {
        let (slots, cats) = (self.slots(), self.max_categories());
        let bar_w = ((MAX_PLOT_W * 4 / 5) / (slots * cats)).clamp(4, BAR_W);
        let plot_w = (bar_w * slots * cats * 5 / 4).max(MIN_PLOT_W);
        let cat_w = plot_w / cats;
        let lines = self
            .panels
            .iter()
            .flat_map(|p| &p.categories)
            .flat_map(|c| c.label.iter().map(String::as_str));
        let label_w = widest(lines.clone(), TICK);
        let max_lines = self
            .panels
            .iter()
            .flat_map(|p| &p.categories)
            .map(|c| c.label.len())
            .max()
            .unwrap_or(1) as i32;
        let vertical_labels = label_w > cat_w - 8;
        let label_h = if vertical_labels {
            label_w + 12
        } else {
            max_lines * LINE_H + 8
        };
        let scales: Vec<Scale> = self
            .panels
            .iter()
            .map(|p| {
                let values = p
                    .categories
                    .iter()
                    .flat_map(|c| &c.bars)
                    .flatten()
                    .flat_map(|b| match b {
                        Bar::Value { value, whisker } => {
                            let (lo, hi) = whisker.unwrap_or((*value, *value));
                            vec![*value, lo, hi]
                        }
                        Bar::Missing(_) => vec![],
                    });
                let values: Vec<f64> = values.chain(self.reference).collect();
                Scale::fit(values, false)
            })
            .collect();
        let ticks_w = scales.iter().map(y_tick_width).max().unwrap_or(0);
        Layout {
            left: MARGIN + 30 + ticks_w + 10,
            plot_w,
            cat_w,
            bar_w,
            vertical_labels,
            panel_h: PANEL_TITLE + HEADROOM + PLOT_H + label_h + 10,
            legend_w: legend_width(&self.legend, &self.legend_heading),
            scales,
        }
    }

    fn draw_panel<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>, l: &Layout, i: usize) -> Res {
        let panel = &self.panels[i];
        let top = HEADER + i as i32 * l.panel_h;
        let (x0, x1) = (l.left, l.left + l.plot_w);
        let plot_top = top + PANEL_TITLE + HEADROOM;
        let base = plot_top + PLOT_H;
        let scale = l.scales[i].onto(f64::from(base), f64::from(plot_top));
        c.text(&panel.title, (x0, top + PANEL_TITLE / 2), LABEL, INK, LEFT)?;
        y_axis(c, &scale, (x0, x1), &self.y_title, MARGIN + 12)?;
        if let Some(r) = self.reference {
            let y = scale.px(r);
            c.line(vec![(x0, y), (x1, y)], INK, 2)?;
        }
        let slots = self.slots();
        for (k, cat) in panel.categories.iter().enumerate() {
            let cx0 = x0 + k as i32 * l.cat_w;
            let bars_x0 = cx0 + (l.cat_w - slots * l.bar_w) / 2;
            for (s, bar) in cat.bars.iter().enumerate() {
                let Some(bar) = bar else { continue };
                let bx = bars_x0 + s as i32 * l.bar_w;
                let mid = bx + l.bar_w / 2;
                match bar {
                    Bar::Value { value, whisker } => {
                        let y = scale.px(*value);
                        let color = self.legend[s].color;
                        c.fill((bx + 1, y), (bx + l.bar_w - 1, base), color)?;
                        c.frame((bx + 1, y), (bx + l.bar_w - 1, base), INK)?;
                        let mut label_y = y;
                        if let Some((lo, hi)) = whisker {
                            let (ylo, yhi) = (scale.px(*lo), scale.px(*hi));
                            let cap = (l.bar_w / 4).max(2);
                            c.line(vec![(mid, ylo), (mid, yhi)], INK, 1)?;
                            c.line(vec![(mid - cap, yhi), (mid + cap, yhi)], INK, 1)?;
                            c.line(vec![(mid - cap, ylo), (mid + cap, ylo)], INK, 1)?;
                            label_y = label_y.min(yhi);
                        }
                        if l.bar_w >= 14 {
                            let text = format!("{}{}", compact(*value), self.value_suffix);
                            c.vertical(&text, (mid, label_y - 4), SMALL, INK, LEFT)?;
                        }
                    }
                    Bar::Missing(why) => {
                        let finding = matches!(*why, "error" | "crashed" | "hung");
                        let color = if finding { ERROR } else { GREY };
                        if l.bar_w >= 14 {
                            c.vertical(why, (mid, base - 4), SMALL, color, LEFT)?;
                        } else {
                            c.text("×", (mid, base - 8), SMALL, color, CENTER)?;
                        }
                    }
                }
            }
            let label_x = cx0 + l.cat_w / 2;
            if l.vertical_labels {
                let text = cat.label.join(" · ");
                c.vertical(&text, (label_x, base + 8), TICK, INK, RIGHT)?;
            } else {
                for (n, line) in cat.label.iter().enumerate() {
                    c.text(
                        line,
                        (label_x, base + 8 + n as i32 * LINE_H),
                        TICK,
                        INK,
                        TOP,
                    )?;
                }
            }
            if k > 0 {
                c.line(vec![(cx0, base), (cx0, base + 6)], INK, 1)?;
            }
        }
        c.line(vec![(x0, base), (x1, base)], INK, 1)
    }
}

impl Figure for BarChart {
    fn size(&self) -> (u32, u32) {
        let l = self.layout();
        let w = (l.left + l.plot_w + 24 + l.legend_w + MARGIN)
            .max(super::heading_width(&self.title, &self.subtitle));
        let legend_h = HEADER + (self.legend.len() as i32 + 2) * super::LEGEND_ROW;
        let h = (HEADER + l.panel_h * self.panels.len() as i32 + X_TITLE + MARGIN).max(legend_h);
        (w as u32, h as u32)
    }

    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res {
        let l = self.layout();
        c.bold(
            &self.title,
            (MARGIN, 22),
            TITLE,
            Anchor(HPos::Left, VPos::Center),
        )?;
        c.text(&self.subtitle, (MARGIN, 50), LABEL, INK, LEFT)?;
        for i in 0..self.panels.len() {
            self.draw_panel(c, &l, i)?;
        }
        let bottom = HEADER + l.panel_h * self.panels.len() as i32;
        c.text(
            &self.x_title,
            (l.left + l.plot_w / 2, bottom + X_TITLE / 2),
            LABEL,
            INK,
            CENTER,
        )?;
        legend(
            c,
            (l.left + l.plot_w + 24, HEADER + PANEL_TITLE),
            &self.legend_heading,
            &self.legend,
        )
    }
}
