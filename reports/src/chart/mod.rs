//! Charts: each one a [`Figure`] drawn once per backend, SVG and PNG.
//!
//! Figures lay themselves out in pixels and draw axes, legends and labels
//! by hand (measuring text with the embedded font), which keeps labels from
//! colliding however many variants a workload has.

pub(crate) mod ab;
pub(crate) mod bars;
pub(crate) mod decision_map;
pub(crate) mod footer;
pub(crate) mod heatmap;
pub(crate) mod lines;
pub(crate) mod table;
pub(crate) mod trend;
pub(crate) mod whisker;

use crate::font::FAMILY;
use crate::palette::{GRID, INK};
use crate::scale::Scale;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;
use whisker::{Along, CAP_OVER_MARKER, whisker};

/// Errors while drawing, already rendered as text.
pub(crate) type Res = Result<(), String>;

/// Text sizes in plotters units (pixels × 1.24).
pub(crate) const TITLE: f64 = 25.0;
/// Axis titles and legend text.
pub(crate) const LABEL: f64 = 18.0;
/// Tick labels.
pub(crate) const TICK: f64 = 16.0;
/// Values printed in bars and cells.
pub(crate) const SMALL: f64 = 15.0;

/// A chart that can draw itself on any plotters backend.
pub(crate) trait Figure {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws on a white canvas of [`Figure::size`].
    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res;
    /// The figures it draws, for the table beneath it on the pages; `None`
    /// for a chart that is not a set of figures (a decision map).
    fn table(&self) -> Option<table::FigureTable> {
        None
    }
    /// The growth laws it draws, a sentence each, for the pages.
    fn laws(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Writes `<stem>.svg` and `<stem>.png` into `dir`.
pub(crate) fn save(fig: &impl Figure, dir: &Path, stem: &str) -> Res {
    crate::font::register();
    let size = fig.size();
    let svg = dir.join(format!("{stem}.svg"));
    let png = dir.join(format!("{stem}.png"));
    {
        let root = SVGBackend::new(&svg, size).into_drawing_area();
        paint(fig, &root).map_err(|e| format!("{}: {e}", svg.display()))?;
    }
    let root = BitMapBackend::new(&png, size).into_drawing_area();
    paint(fig, &root).map_err(|e| format!("{}: {e}", png.display()))
}

fn paint<DB: DrawingBackend>(fig: &impl Figure, root: &DrawingArea<DB, Shift>) -> Res {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    fig.draw(&Canvas { area: root })?;
    root.present().map_err(|e| e.to_string())
}

/// Width and height of `text` at `size`, from the embedded font's metrics.
pub(crate) fn measure(text: &str, size: f64) -> (i32, i32) {
    crate::font::register();
    let (w, h) = FontDesc::new(FontFamily::Name(FAMILY), size, FontStyle::Normal)
        .box_size(text)
        .unwrap_or((text.chars().count() as u32 * size as u32 / 2, size as u32));
    (w as i32, h as i32)
}

/// Width a chart's title and subtitle need, with margins.
pub(crate) fn heading_width(title: &str, subtitle: &str) -> i32 {
    measure(title, TITLE).0.max(measure(subtitle, LABEL).0) + 32
}

/// Widest of `texts` at `size`.
pub(crate) fn widest<'a>(texts: impl IntoIterator<Item = &'a str>, size: f64) -> i32 {
    texts
        .into_iter()
        .map(|t| measure(t, size).0)
        .max()
        .unwrap_or(0)
}

/// How a text is anchored at its position.
#[derive(Clone, Copy)]
pub(crate) struct Anchor(pub HPos, pub VPos);

/// Common anchors.
pub(crate) const CENTER: Anchor = Anchor(HPos::Center, VPos::Center);
pub(crate) const LEFT: Anchor = Anchor(HPos::Left, VPos::Center);
pub(crate) const RIGHT: Anchor = Anchor(HPos::Right, VPos::Center);
pub(crate) const TOP: Anchor = Anchor(HPos::Center, VPos::Top);

/// A drawing area with the few primitives the charts need, in pixels.
pub(crate) struct Canvas<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
}

impl<DB: DrawingBackend> Canvas<'_, DB> {
    fn style(size: f64, color: &RGBColor, anchor: Anchor, bold: bool) -> TextStyle<'static> {
        let style = if bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        FontDesc::new(FontFamily::Name(FAMILY), size, style)
            .color(color)
            .pos(Pos::new(anchor.0, anchor.1))
    }

    /// Horizontal text.
    pub fn text(&self, s: &str, at: (i32, i32), size: f64, color: RGBColor, anchor: Anchor) -> Res {
        self.area
            .draw(&Text::new(s, at, Self::style(size, &color, anchor, false)))
            .map_err(|e| e.to_string())
    }

    /// Bold horizontal text (titles).
    pub fn bold(&self, s: &str, at: (i32, i32), size: f64, anchor: Anchor) -> Res {
        self.area
            .draw(&Text::new(s, at, Self::style(size, &INK, anchor, true)))
            .map_err(|e| e.to_string())
    }

    /// Text reading bottom to top; the anchor is in the text's own frame,
    /// so `RIGHT` puts the text's end at `at` and the text below it.
    pub fn vertical(
        &self,
        s: &str,
        at: (i32, i32),
        size: f64,
        color: RGBColor,
        anchor: Anchor,
    ) -> Res {
        let style = Self::style(size, &color, anchor, false).transform(FontTransform::Rotate270);
        self.area
            .draw(&Text::new(s, at, style))
            .map_err(|e| e.to_string())
    }

    /// A filled rectangle between two corners.
    pub fn fill(&self, a: (i32, i32), b: (i32, i32), color: RGBColor) -> Res {
        self.area
            .draw(&Rectangle::new([a, b], color.filled()))
            .map_err(|e| e.to_string())
    }

    /// A rectangle outline.
    pub fn frame(&self, a: (i32, i32), b: (i32, i32), color: RGBColor) -> Res {
        self.area
            .draw(&Rectangle::new([a, b], color.stroke_width(1)))
            .map_err(|e| e.to_string())
    }

    /// A polyline.
    pub fn line(&self, points: Vec<(i32, i32)>, color: RGBColor, width: u32) -> Res {
        self.area
            .draw(&PathElement::new(points, color.stroke_width(width)))
            .map_err(|e| e.to_string())
    }

    /// A polyline in the given dash style (0 solid, 1 dashed, 2 dotted,
    /// 3 long-dashed; cycling), so lines of different groups that share a
    /// colour and marker stay distinguishable.
    pub fn dashed(&self, points: Vec<(i32, i32)>, color: RGBColor, width: u32, dash: usize) -> Res {
        let (size, gap) = match dash % 4 {
            0 => return self.line(points, color, width),
            1 => (9, 5),
            2 => (2, 4),
            _ => (18, 6),
        };
        self.area
            .draw(&DashedPathElement::new(
                points,
                size,
                gap,
                color.stroke_width(width),
            ))
            .map_err(|e| e.to_string())
    }

    /// A series marker of the given shape (0 circle, 1 square, 2 triangle,
    /// 3 diamond, 4 cross; cycling), so series that share a colour stay
    /// distinguishable.
    pub fn marker(&self, shape: usize, at: (i32, i32), color: RGBColor) -> Res {
        let (x, y) = at;
        let r = 5;
        let result = match shape % 5 {
            0 => self.area.draw(&Circle::new(at, r, color.filled())),
            1 => self.area.draw(&Rectangle::new(
                [(x - r, y - r), (x + r, y + r)],
                color.filled(),
            )),
            2 => self.area.draw(&Polygon::new(
                vec![(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)],
                color.filled(),
            )),
            3 => self.area.draw(&Polygon::new(
                vec![
                    (x, y - r - 1),
                    (x + r + 1, y),
                    (x, y + r + 1),
                    (x - r - 1, y),
                ],
                color.filled(),
            )),
            _ => self
                .area
                .draw(&PathElement::new(
                    vec![(x - r, y - r), (x + r, y + r)],
                    color.stroke_width(3),
                ))
                .and_then(|_| {
                    self.area.draw(&PathElement::new(
                        vec![(x - r, y + r), (x + r, y - r)],
                        color.stroke_width(3),
                    ))
                }),
        };
        result.map_err(|e| e.to_string())
    }
}

/// Draws a line's 95 % intervals as a translucent band in its colour,
/// from `(x, low, high)` pixel columns in x order (`None` where a point
/// has no interval). Each run of neighbouring points with an interval is
/// one band; a lone one is a whisker, its caps wider than the marker. A
/// gap is never bridged, so a band never claims an interval a point does
/// not have.
pub(crate) fn band<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    columns: &[Option<(i32, i32, i32)>],
    color: RGBColor,
) -> Res {
    for run in columns.split(Option::is_none) {
        let run: Vec<(i32, i32, i32)> = run.iter().flatten().copied().collect();
        if let [(x, low, high)] = run[..] {
            whisker(c, Along::Y, x, (low, high), CAP_OVER_MARKER, color)?;
        } else if run.len() > 1 {
            let mut outline: Vec<(i32, i32)> = run.iter().map(|&(x, _, hi)| (x, hi)).collect();
            outline.extend(run.iter().rev().map(|&(x, lo, _)| (x, lo)));
            c.area
                .draw(&Polygon::new(outline, color.mix(0.18).filled()))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Draws a vertical value axis: grid lines across `x0..x1`, tick labels to
/// the left of `x0`, and `title` rotated beside them at `title_x`.
pub(crate) fn y_axis<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    scale: &Scale,
    (x0, x1): (i32, i32),
    title: &str,
    title_x: i32,
) -> Res {
    let mut last_y = i32::MAX;
    for t in scale.ticks() {
        let y = scale.px(t);
        c.line(vec![(x0, y), (x1, y)], GRID, 1)?;
        // On log axes with 2× and 5× ticks, skip labels that would touch.
        if last_y - y >= TICK as i32 {
            c.text(&scale.label(t), (x0 - 6, y), TICK, INK, RIGHT)?;
            c.line(vec![(x0 - 4, y), (x0, y)], INK, 1)?;
            last_y = y;
        }
    }
    let (top, bottom) = (scale.px(scale.hi), scale.px(scale.lo));
    c.line(vec![(x0, top), (x0, bottom)], INK, 1)?;
    c.vertical(title, (title_x, (top + bottom) / 2), LABEL, INK, CENTER)
}

/// Width the tick labels of `scale` need.
pub(crate) fn y_tick_width(scale: &Scale) -> i32 {
    scale
        .ticks()
        .into_iter()
        .map(|t| measure(&scale.label(t), TICK).0)
        .max()
        .unwrap_or(0)
}

/// One legend line: a colour swatch or marker and its text.
#[derive(Clone, Debug)]
pub(crate) struct LegendItem {
    pub text: String,
    pub color: RGBColor,
    /// `None` for a filled swatch, `Some(shape)` for a line with a marker.
    pub marker: Option<usize>,
    /// The dash style of the line drawn with a marker (see [`Canvas::dashed`]).
    pub dash: usize,
}

/// Legend line height in pixels.
pub(crate) const LEGEND_ROW: i32 = 24;

/// Width a legend needs.
pub(crate) fn legend_width(items: &[LegendItem], heading: &str) -> i32 {
    let text = widest(items.iter().map(|i| i.text.as_str()), LABEL);
    (text + 40).max(measure(heading, LABEL).0) + 16
}

/// Draws a legend with a heading, one item per line, from (`x`, `y`) down.
pub(crate) fn legend<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    (x, y): (i32, i32),
    heading: &str,
    items: &[LegendItem],
) -> Res {
    c.text(heading, (x, y), LABEL, INK, Anchor(HPos::Left, VPos::Top))?;
    for (i, item) in items.iter().enumerate() {
        let cy = y + LEGEND_ROW * (i as i32 + 1) + LEGEND_ROW / 2;
        match item.marker {
            None => {
                c.fill((x, cy - 7), (x + 26, cy + 7), item.color)?;
                c.frame((x, cy - 7), (x + 26, cy + 7), INK)?;
            }
            Some(shape) => {
                c.dashed(vec![(x, cy), (x + 28, cy)], item.color, 2, item.dash)?;
                c.marker(shape, (x + 14, cy), item.color)?;
            }
        }
        c.text(&item.text, (x + 36, cy), LABEL, INK, LEFT)?;
    }
    Ok(())
}
