//! The embedded font, so charts render the same everywhere.
//!
//! PNG rendering rasterises glyphs with `ab_glyph`, which needs font bytes;
//! embedding DejaVu Sans (licence in `assets/DejaVuSans-LICENSE.txt`) means
//! no system fonts are required, on CI boxes or in containers.

use std::sync::Once;

/// DejaVu Sans, version 2.37 (Bitstream Vera licence, see assets/).
static DEJAVU_SANS: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// The family every chart asks for. PNG output looks the name up among the
/// fonts registered below; SVG output writes it verbatim as the CSS
/// `font-family`, so browsers use DejaVu Sans when installed (matching the
/// widths the layout was measured with) and a close sans-serif otherwise.
pub(crate) const FAMILY: &str = "DejaVu Sans, Verdana, sans-serif";

/// Registers the embedded font once per process.
pub(crate) fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for style in [
            plotters::style::FontStyle::Normal,
            plotters::style::FontStyle::Bold,
        ] {
            // The bytes are a valid TrueType file checked in with the crate;
            // the test below proves it parses.
            let _ = plotters::style::register_font(FAMILY, style, DEJAVU_SANS);
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_font_parses() {
        assert!(
            plotters::style::register_font(
                "test-family",
                plotters::style::FontStyle::Normal,
                super::DEJAVU_SANS
            )
            .is_ok()
        );
    }
}
