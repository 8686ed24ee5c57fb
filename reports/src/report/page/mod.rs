//! The two pages of a report: `index.html` for browsers and CI artifacts,
//! `report.md` for pasting into write-ups. Both show the same charts,
//! linked relatively, with the runs' machines and commands, and both say
//! first which time records may not hold: a figure measured on a busy
//! machine must not be quoted as if it were not.
//!
//! What both show, and the words they share, are in `contents.rs`; each
//! page's markup is in its own file.

mod contents;
mod html;
mod markdown;

pub(super) use contents::Contents;
pub(super) use html::html;
pub(super) use markdown::markdown;
