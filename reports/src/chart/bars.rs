//! Grouped bar charts: one bar per variant inside each category, one
//! panel per input set when a chart needs both dimensions.
//!
//! Variant names live in the legend, never under the bars, so eight or
//! twenty variants cannot produce overlapping labels; category labels are
//! wrapped onto lines and turned vertical when they do not fit. A printed
//! value reads upwards from its bar's end and never crosses the reference
//! line (1× on speed-ups): where it would, it starts above the line.

use super::table::{FigureTable, estimate};
use super::whisker::{Along, visible_span, whisker};
use super::{
    Anchor, CENTER, Canvas, Figure, LABEL, LEFT, LegendItem, RIGHT, Res, SMALL, TICK, TITLE, TOP,
    legend, legend_width, measure, widest, y_axis, y_tick_width,
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
/// Stroke of the reference line, in pixels.
const REFERENCE_STROKE: u32 = 2;
/// Pixels between a printed value and what it stays clear of: its bar's
/// end or whisker, and the reference line.
const LABEL_GAP: i32 = 4;
/// The narrowest bar that prints its value (or why it has none) in words.
const WORDS_W: i32 = 14;

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
                Scale::fit(values)
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
        let line = self.reference.map(|r| scale.px(r));
        if let Some(y) = line {
            c.line(vec![(x0, y), (x1, y)], INK, REFERENCE_STROKE)?;
        }
        let slots = self.slots();
        for (k, cat) in panel.categories.iter().enumerate() {
            let cx0 = x0 + k as i32 * l.cat_w;
            let bars_x0 = cx0 + (l.cat_w - slots * l.bar_w) / 2;
            for (s, bar) in cat.bars.iter().enumerate() {
                let Some(bar) = bar else { continue };
                let slot = Slot {
                    x: bars_x0 + s as i32 * l.bar_w,
                    w: l.bar_w,
                    base,
                    line,
                };
                match bar {
                    Bar::Value { value, whisker } => {
                        let color = self.legend[s].color;
                        self.draw_value(c, &slot, &scale, (*value, *whisker), color)?;
                    }
                    Bar::Missing(why) => draw_missing(c, &slot, why)?,
                }
            }
            self.draw_category_label(c, l, cat, cx0, base)?;
            if k > 0 {
                c.line(vec![(cx0, base), (cx0, base + 6)], INK, 1)?;
            }
        }
        c.line(vec![(x0, base), (x1, base)], INK, 1)
    }

    /// A measured bar, its whisker and its printed value (where the bar is
    /// wide enough for one), the value clear of the reference line.
    fn draw_value<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        slot: &Slot,
        scale: &Scale,
        (value, interval): (f64, Option<(f64, f64)>),
        color: RGBColor,
    ) -> Res {
        let (bx, w, mid) = (slot.x, slot.w, slot.mid());
        let y = scale.px(value);
        c.fill((bx + 1, y), (bx + w - 1, slot.base), color)?;
        c.frame((bx + 1, y), (bx + w - 1, slot.base), INK)?;
        let mut end = y;
        if let Some((lo, hi)) = interval {
            let (top, bottom) = visible_span(scale.px(hi), scale.px(lo));
            whisker(c, Along::Y, mid, (top, bottom), w / 2, INK)?;
            end = end.min(top);
        }
        if w >= WORDS_W {
            let text = format!("{}{}", compact(value), self.value_suffix);
            let at = label_start(end, measure(&text, SMALL).0, slot.line);
            c.vertical(&text, (mid, at), SMALL, INK, LEFT)?;
        }
        Ok(())
    }

    /// A category's label under its bars: lines, or one vertical line
    /// when they do not fit.
    fn draw_category_label<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        l: &Layout,
        cat: &Category,
        cx0: i32,
        base: i32,
    ) -> Res {
        let label_x = cx0 + l.cat_w / 2;
        if l.vertical_labels {
            let text = cat.label.join(" · ");
            return c.vertical(&text, (label_x, base + 8), TICK, INK, RIGHT);
        }
        for (n, line) in cat.label.iter().enumerate() {
            let at = (label_x, base + 8 + n as i32 * LINE_H);
            c.text(line, at, TICK, INK, TOP)?;
        }
        Ok(())
    }
}

/// Where one bar goes: its left edge and width, the plot's base, and the
/// reference line's pixel, if the chart has one.
struct Slot {
    x: i32,
    w: i32,
    base: i32,
    line: Option<i32>,
}

impl Slot {
    fn mid(&self) -> i32 {
        self.x + self.w / 2
    }
}

/// A slot without a value: why, reading up from the base (clear of the
/// reference line), or a cross where the bar is too narrow for words.
fn draw_missing<DB: DrawingBackend>(c: &Canvas<'_, DB>, slot: &Slot, why: &str) -> Res {
    let finding = matches!(why, "error" | "crashed" | "hung");
    let color = if finding { ERROR } else { GREY };
    let mid = slot.mid();
    if slot.w >= WORDS_W {
        let at = label_start(slot.base, measure(why, SMALL).0, slot.line);
        c.vertical(why, (mid, at), SMALL, color, LEFT)
    } else {
        c.text("×", (mid, slot.base - 8), SMALL, color, CENTER)
    }
}

/// Where a label reading upwards from just above `end` (a bar's end or
/// its whisker's top) starts, given its `extent` in pixels, so that it
/// stays [`LABEL_GAP`] clear of a reference line at `line`: a label that
/// would cross the line starts just above it instead. Above the line is
/// always free: the scale leaves headroom for the labels of the tallest
/// bars.
fn label_start(end: i32, extent: i32, line: Option<i32>) -> i32 {
    let start = end - LABEL_GAP;
    let half = REFERENCE_STROKE as i32 / 2;
    match line {
        Some(y) if start + LABEL_GAP > y - half && start - extent - LABEL_GAP < y + half => {
            y - half - LABEL_GAP
        }
        _ => start,
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

    /// A row per legend entry (and panel, where there are several), a
    /// column per category, each cell the bar's value and whisker or why
    /// it has none.
    fn table(&self) -> Option<FigureTable> {
        let name = |c: &Category| c.label.join(" ");
        let mut columns: Vec<String> = Vec::new();
        for c in self.panels.iter().flat_map(|p| &p.categories) {
            if !columns.contains(&name(c)) {
                columns.push(name(c));
            }
        }
        let mut rows = Vec::new();
        for panel in &self.panels {
            for (slot, item) in self.legend.iter().enumerate() {
                let cells = columns
                    .iter()
                    .map(|col| {
                        let bar = panel.categories.iter().find(|c| name(c) == *col);
                        match bar.and_then(|c| c.bars.get(slot)?.as_ref()) {
                            Some(Bar::Value { value, whisker }) => estimate(*value, *whisker),
                            Some(Bar::Missing(why)) => (*why).to_owned(),
                            None => String::new(),
                        }
                    })
                    .collect();
                let label = if self.panels.len() > 1 {
                    format!("{} · {}", item.text, panel.title)
                } else {
                    item.text.clone()
                };
                rows.push((label, cells));
            }
        }
        rows.retain(|(_, cells): &(String, Vec<String>)| cells.iter().any(|c| !c.is_empty()));
        Some(FigureTable {
            quantity: self.y_title.clone(),
            rows_name: self.legend_heading.clone(),
            columns_name: self.x_title.clone(),
            columns,
            rows,
        })
    }
}
