//! The charts of a paired A/B: one row per record on a shared `B ÷ A` axis
//! with a line at 1 (no change), either the change with its interval or
//! every pair's ratio as a strip.
//!
//! Rows are horizontal so record names of any length read as text, and
//! one axis for all rows lets a reader compare changes between records.
//! The threshold the changes were judged against is a grey band around 1,
//! each change is drawn in its verdict's colour with the change and the
//! verdict written beside it, and the rows come in the order the caller
//! gives (the A/B plan sorts them by change).

use super::table::FigureTable;
use super::whisker::{Along, CAP_OVER_MARKER, whisker};
use super::{
    Anchor, Canvas, Figure, LABEL, LEFT, RIGHT, Res, TICK, TITLE, TOP, heading_width, measure,
    widest,
};
use crate::numbers::sig3;
use crate::palette;
use crate::palette::{ERROR, GREY, GRID, INK, variant};
use crate::scale::{Scale, compact};
use crate::verdict::Verdict;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// One record's paired comparison.
#[derive(Clone, Debug)]
pub(crate) struct AbRow {
    pub label: String,
    /// The change, `B ÷ A`.
    pub ratio: f64,
    /// Its 95 % interval, when there were pairs enough.
    pub interval: Option<(f64, f64)>,
    /// Each pair's `B ÷ A`.
    pub ratios: Vec<f64>,
    /// What `ab` judged the change to be, where the file says.
    pub verdict: Option<Verdict>,
}

/// What each row shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum AbShow {
    /// The change with its interval.
    Change,
    /// Every pair's ratio, with the change marked.
    Pairs,
}

/// A chart of paired A/B rows.
#[derive(Clone, Debug)]
pub(crate) struct AbChart {
    pub title: String,
    pub subtitle: String,
    pub show: AbShow,
    pub rows: Vec<AbRow>,
    /// The threshold the changes were judged against, in percent.
    pub threshold_pct: Option<f64>,
}

const MARGIN: i32 = 16;
const HEADER: i32 = 116;
const PLOT_W: i32 = 640;
const AXIS: i32 = 64;
/// The light grey of the threshold band.
const BAND: RGBColor = RGBColor(0xEE, 0xEE, 0xEE);
/// The verdicts the legend names, in its order.
const LEGEND: [Verdict; 4] = [
    Verdict::Regressed,
    Verdict::Improved,
    Verdict::NoChange,
    Verdict::Inconclusive(String::new()),
];

impl AbChart {
    fn row_h(&self) -> i32 {
        match self.show {
            AbShow::Change => 30,
            AbShow::Pairs => 46,
        }
    }

    fn left(&self) -> i32 {
        MARGIN + widest(self.rows.iter().map(|r| r.label.as_str()), TICK) + 12
    }

    /// What is written right of a row: its change in percent and verdict.
    fn note(r: &AbRow) -> String {
        let change = format!("{:+.1} %", (r.ratio - 1.0) * 100.0);
        match &r.verdict {
            Some(v) => format!("{change} {}", word(v)),
            None => change,
        }
    }

    fn right(&self) -> i32 {
        widest(
            self.rows
                .iter()
                .map(Self::note)
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str),
            TICK,
        ) + 16
    }

    /// The shared axis: every change and interval, the middle 98 % of the
    /// pairs (a preempted sample must not squash the rest), and 1.
    fn scale(&self) -> Scale {
        let mut values = vec![1.0];
        if let Some(t) = self.threshold_pct {
            values.extend([1.0 - t / 100.0, 1.0 + t / 100.0]);
        }
        for r in &self.rows {
            values.push(r.ratio);
            if let Some((lo, hi)) = r.interval {
                values.extend([lo, hi]);
            }
            if self.show == AbShow::Pairs && !r.ratios.is_empty() {
                let mut sorted: Vec<f64> =
                    r.ratios.iter().copied().filter(|v| v.is_finite()).collect();
                sorted.sort_by(f64::total_cmp);
                if let (Some(&lo), Some(&hi)) = (
                    sorted.get(sorted.len() / 100),
                    sorted.get(sorted.len() - 1 - sorted.len() / 100),
                ) {
                    values.extend([lo, hi]);
                }
            }
        }
        let values: Vec<f64> = values.into_iter().filter(|v| v.is_finite()).collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let pad = ((hi - lo) * 0.08).max(0.005);
        Scale::linear(lo - pad, hi + pad)
    }
}

impl Figure for AbChart {
    fn size(&self) -> (u32, u32) {
        let w = (self.left() + PLOT_W + self.right() + MARGIN)
            .max(heading_width(&self.title, &self.subtitle));
        let h = HEADER + self.row_h() * self.rows.len().max(1) as i32 + AXIS + MARGIN;
        (w as u32, h as u32)
    }

    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res {
        let top_left = Anchor(HPos::Left, VPos::Top);
        c.bold(&self.title, (MARGIN, MARGIN), TITLE, top_left)?;
        c.text(&self.subtitle, (MARGIN, MARGIN + 30), LABEL, GREY, top_left)?;
        let (x0, x1) = (self.left(), self.left() + PLOT_W);
        let scale = self.scale().onto(x0 as f64, x1 as f64);
        let (y0, rh) = (HEADER, self.row_h());
        let y1 = y0 + rh * self.rows.len().max(1) as i32;
        self.verdict_legend(c, x0)?;
        if let Some(t) = self.threshold_pct {
            let (lo, hi) = (scale.px(1.0 - t / 100.0), scale.px(1.0 + t / 100.0));
            c.fill((lo, y0), (hi, y1), BAND)?;
            c.text(
                &format!("±{} % threshold", compact(t)),
                ((lo + hi) / 2, y0 - 4),
                TICK,
                GREY,
                Anchor(HPos::Center, VPos::Bottom),
            )?;
        }
        for t in scale.ticks() {
            let x = scale.px(t);
            c.line(vec![(x, y0), (x, y1)], GRID, 1)?;
            c.line(vec![(x, y1), (x, y1 + 4)], INK, 1)?;
            c.text(&compact(t), (x, y1 + 6), TICK, INK, TOP)?;
        }
        c.line(vec![(x0, y1), (x1, y1)], INK, 1)?;
        let one = scale.px(1.0);
        c.line(vec![(one, y0), (one, y1)], INK, 2)?;
        c.text(
            "B ÷ A (1 = no change; right of 1: B slower)",
            ((x0 + x1) / 2, y1 + 36),
            LABEL,
            INK,
            TOP,
        )?;
        for (i, r) in self.rows.iter().enumerate() {
            let cy = y0 + rh * i as i32 + rh / 2;
            let color = r.verdict.as_ref().map_or(variant(0), palette::verdict);
            c.text(&r.label, (x0 - 8, cy), TICK, INK, RIGHT)?;
            c.text(&Self::note(r), (x1 + 12, cy), TICK, color, LEFT)?;
            let at = scale.px(r.ratio);
            match self.show {
                AbShow::Change => {
                    if let Some((lo, hi)) = r.interval {
                        let span = (scale.px(lo), scale.px(hi));
                        whisker(c, Along::X, cy, span, CAP_OVER_MARKER, color)?;
                    }
                    c.marker(0, (at, cy), color)?;
                }
                AbShow::Pairs => {
                    let spread = rh / 2 - 6;
                    for (k, &v) in r.ratios.iter().enumerate() {
                        // A fixed jitter, so pairs of one value stay visible
                        // and the file is the same on every render.
                        let dy = ((k * 7919) % 21) as i32 - 10;
                        let (x, y) = (scale.px(v), cy + dy * spread / 10);
                        c.fill((x - 1, y - 1), (x + 1, y + 1), color)?;
                    }
                    c.line(vec![(at, cy - rh / 2 + 3), (at, cy + rh / 2 - 3)], ERROR, 2)?;
                }
            }
        }
        Ok(())
    }

    /// A row per record, in the chart's order: the change, its interval
    /// and the verdict (the pairs' chart draws the same records).
    fn table(&self) -> Option<FigureTable> {
        (self.show == AbShow::Change).then(|| FigureTable {
            quantity: "B ÷ A".into(),
            rows_name: "record".into(),
            columns_name: "the change, its 95 % interval and the verdict".into(),
            columns: vec!["B ÷ A".into(), "95 % interval".into(), "verdict".into()],
            rows: self
                .rows
                .iter()
                .map(|r| {
                    let interval = r
                        .interval
                        .map_or_else(String::new, |(lo, hi)| format!("{}–{}", sig3(lo), sig3(hi)));
                    let verdict = r.verdict.as_ref().map_or_else(String::new, Verdict::label);
                    (r.label.clone(), vec![sig3(r.ratio), interval, verdict])
                })
                .collect(),
        })
    }
}

impl AbChart {
    /// The verdict colours, one swatch and word each, where any row has a
    /// verdict.
    fn verdict_legend<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>, x0: i32) -> Res {
        if self.rows.iter().all(|r| r.verdict.is_none()) {
            return Ok(());
        }
        let (mut x, y) = (x0, MARGIN + 64);
        for v in &LEGEND {
            c.marker(0, (x + 5, y), palette::verdict(v))?;
            let text = word(v);
            c.text(text, (x + 14, y), TICK, INK, LEFT)?;
            x += 14 + measure(text, TICK).0 + 18;
        }
        Ok(())
    }
}

/// A verdict in one word, as the chart writes it.
fn word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Regressed => "regressed",
        Verdict::Improved => "improved",
        Verdict::NoChange => "no change",
        Verdict::Inconclusive(_) => "inconclusive",
        Verdict::Broke(_) => "broke",
        Verdict::Fixed(_) => "fixed",
        Verdict::NotComparable(_) => "not comparable",
    }
}
