//! The small line under a chart saying where its figures were measured.
//!
//! A chart pasted into a write-up leaves the report's page behind, and a
//! time means little without the machine and how busy it was; so every
//! chart carries that line itself. Any figure gets it by being wrapped in
//! [`Footed`], which draws the figure unchanged and the line below it.

use super::{Canvas, Figure, LEFT, Res, measure};
use crate::palette::GREY;
use plotters::prelude::*;

/// Footer text size in plotters units: smaller than tick labels.
const FOOTNOTE: f64 = 14.0;
/// Height of the footer's line, in pixels.
const HEIGHT: i32 = 24;
/// Left and right margin of the footer's line, in pixels.
const MARGIN: i32 = 16;

/// A footer's text in one or more forms, fullest first: a chart prints the
/// first that fits its width, and widens to fit the last. No form: no
/// footer.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Footer {
    pub forms: Vec<String>,
}

/// A figure with its footer below it.
pub(crate) struct Footed<'a, F> {
    pub figure: &'a F,
    pub footer: &'a Footer,
}

impl<F: Figure> Footed<'_, F> {
    /// The form of the footer printed under a figure `width` pixels wide.
    fn text(&self, width: u32) -> Option<&str> {
        let fits = |form: &&String| (measure(form, FOOTNOTE).0 + 2 * MARGIN) as u32 <= width;
        let forms = &self.footer.forms;
        forms.iter().find(fits).or(forms.last()).map(String::as_str)
    }
}

impl<F: Figure> Figure for Footed<'_, F> {
    fn size(&self) -> (u32, u32) {
        let (w, h) = self.figure.size();
        match self.text(w) {
            Some(text) => {
                let needs = (measure(text, FOOTNOTE).0 + 2 * MARGIN) as u32;
                (w.max(needs), h + HEIGHT as u32)
            }
            None => (w, h),
        }
    }

    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Res {
        self.figure.draw(c)?;
        let (w, h) = self.figure.size();
        match self.text(w) {
            Some(text) => {
                let y = h as i32 + HEIGHT / 2;
                c.text(text, (MARGIN, y), FOOTNOTE, GREY, LEFT)
            }
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Footed, Footer, HEIGHT};
    use crate::chart::{Canvas, Figure, Res};
    use plotters::prelude::*;

    /// A figure of a size, drawing nothing.
    struct Blank(u32);

    impl Figure for Blank {
        fn size(&self) -> (u32, u32) {
            (self.0, 100)
        }

        fn draw<DB: DrawingBackend>(&self, _: &Canvas<'_, DB>) -> Res {
            Ok(())
        }
    }

    #[test]
    fn the_fullest_form_that_fits_is_printed_and_the_last_widens_the_figure() {
        let footer = Footer {
            forms: vec![
                "machines: Test CPU 9000, 2 cores; Big CPU, 64 cores".into(),
                "2 machines".into(),
            ],
        };
        let (wide, narrow, tiny) = (Blank(2000), Blank(200), Blank(20));
        let on = |figure| Footed {
            figure,
            footer: &footer,
        };
        assert_eq!(on(&wide).text(2000), Some(footer.forms[0].as_str()));
        assert_eq!(on(&narrow).text(200), Some("2 machines"));
        let below = 100 + HEIGHT as u32;
        assert_eq!(on(&narrow).size(), (200, below));
        let (w, h) = on(&tiny).size();
        assert!(w > 20 && h == below, "{w} × {h}");
        let none = Footer::default();
        let bare = Footed {
            figure: &narrow,
            footer: &none,
        };
        assert_eq!(bare.size(), (200, 100));
    }
}
