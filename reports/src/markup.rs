//! Text made safe for the pages' markup, HTML and Markdown, so that a
//! workload, variant or reason with `<`, `&` or `|` in its name shows as
//! written. The run report and the history report both use it.

/// `s` with the characters HTML gives meaning escaped, for text and
/// attribute values alike.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Markdown table cell: no pipes or newlines.
pub(crate) fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
