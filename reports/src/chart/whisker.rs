//! The interval whisker every chart draws: a stem from low to high with a
//! cap at each end, never thinner, shorter or narrower than a reader can
//! see.
//!
//! A tight 95 % interval maps to a pixel or two: drawn as measured, its
//! caps merge into the bar's edge or hide under a point's marker, and the
//! figure reads as having no interval at all. So the stem and caps have a
//! minimum stroke, the caps a minimum length, and a stem shorter than
//! [`MIN_SPAN`] is drawn that long about its middle: a tight interval
//! reads as a short whisker, which is what it is.

use super::{Canvas, Res};
use plotters::prelude::*;

/// Stroke of the stem and caps, in pixels.
pub(crate) const STROKE: u32 = 2;
/// Shortest cap, in pixels across the stem.
pub(crate) const MIN_CAP: i32 = 10;
/// Shortest stem, in pixels: a narrower interval is drawn this long.
pub(crate) const MIN_SPAN: i32 = 6;
/// Cap length for a whisker through a point's marker (5 px in radius), so
/// its caps show past the marker even when the stem does not.
pub(crate) const CAP_OVER_MARKER: i32 = 16;

/// Which way the stem runs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Along {
    /// A vertical stem, on a vertical value axis.
    Y,
    /// A horizontal stem, on a horizontal value axis.
    X,
}

/// Draws a whisker at `across` (the pixel on the other axis) from pixel
/// `low` to `high` along the value axis, with caps `cap` pixels long (at
/// least [`MIN_CAP`]).
pub(crate) fn whisker<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    along: Along,
    across: i32,
    (low, high): (i32, i32),
    cap: i32,
    color: RGBColor,
) -> Res {
    let (a, b) = visible_span(low, high);
    let half = cap.max(MIN_CAP) / 2;
    let point = |at: i32, off: i32| match along {
        Along::Y => (across + off, at),
        Along::X => (at, across + off),
    };
    c.line(vec![point(a, 0), point(b, 0)], color, STROKE)?;
    for end in [a, b] {
        c.line(vec![point(end, -half), point(end, half)], color, STROKE)?;
    }
    Ok(())
}

/// The pixels `(low, high)` in order, pushed apart about their middle to
/// at least [`MIN_SPAN`]: where [`whisker`] draws the ends.
pub(crate) fn visible_span(low: i32, high: i32) -> (i32, i32) {
    let (a, b) = (low.min(high), low.max(high));
    let short = MIN_SPAN - (b - a);
    if short <= 0 {
        return (a, b);
    }
    let before = short / 2;
    (a - before, b + short - before)
}

#[cfg(test)]
mod tests {
    use super::{MIN_SPAN, visible_span};

    #[test]
    fn a_span_is_at_least_the_minimum_about_its_middle() {
        assert_eq!(visible_span(100, 100), (97, 103));
        assert_eq!(visible_span(101, 100), (98, 104));
        assert_eq!(visible_span(100, 103), (99, 105));
        assert_eq!(visible_span(40, 90), (40, 90));
        let (a, b) = visible_span(7, 8);
        assert_eq!(b - a, MIN_SPAN);
    }
}
