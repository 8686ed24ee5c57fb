//! What [`render`](super::render) leaves in the report directory: the
//! [`Report`] and each chart in it, as the pages link them and the caller
//! reads them back.

use super::flamegraphs::FlameGraphFile;
pub use crate::chart::table::FigureTable;
use std::path::PathBuf;

/// One chart written to the report directory.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartFile {
    /// Workload the chart belongs to.
    pub workload: String,
    /// The machine whose results it draws, when the report holds several
    /// (each machine's charts are drawn apart).
    pub machine: Option<String>,
    /// Title, also the image's alt text.
    pub title: String,
    /// One or two sentences on what the chart shows.
    pub caption: String,
    /// File name of the SVG, relative to the report directory.
    pub svg: String,
    /// File name of the PNG, relative to the report directory.
    pub png: String,
    /// Pixel size of both images.
    pub size: (u32, u32),
    /// The figures it draws, printed beneath it.
    pub table: Option<FigureTable>,
    /// The growth law of each line of a size sweep's time chart, one
    /// sentence each (`popcnt: O(n), …`).
    pub laws: Vec<String>,
}

/// A written report.
#[derive(Clone, Debug)]
pub struct Report {
    /// The report directory.
    pub dir: PathBuf,
    /// `index.html` inside it.
    pub index: PathBuf,
    /// `report.md` inside it.
    pub markdown: PathBuf,
    /// Every chart, in page order.
    pub charts: Vec<ChartFile>,
    /// Every flame graph (with [`ReportOptions::flamegraphs`]), in file
    /// and record order.
    ///
    /// [`ReportOptions::flamegraphs`]: super::ReportOptions::flamegraphs
    pub flamegraphs: Vec<FlameGraphFile>,
    /// What was left out and why, one line each.
    pub skipped: Vec<String>,
}
