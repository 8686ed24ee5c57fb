//! Why a report could not be written: the one error every part of writing
//! one returns, the charts, the flame graphs and the pages alike.

use std::fmt;
use std::path::PathBuf;

/// Why a report could not be written.
#[derive(Debug)]
pub enum ReportError {
    /// A file or directory could not be written.
    Io(PathBuf, std::io::Error),
    /// A chart could not be drawn.
    Draw(String),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Io(p, e) => write!(f, "{}: cannot write: {e}", p.display()),
            ReportError::Draw(e) => write!(f, "cannot draw chart: {e}"),
        }
    }
}

impl std::error::Error for ReportError {}
