//! Results files and the reports drawn from them.
//!
//! This crate knows nothing about kernels: it owns the versioned JSON
//! results format that every bitbench command reads or writes, so that
//! files from different machines and commits can be compared and charted,
//! and it draws those files as SVG/PNG charts with an HTML and a Markdown
//! page (see [`render`]), using only record fields and input-set names.

// docs.rs labels each item with the feature or target it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod chart;
pub mod compare;
mod dataset;
pub mod dispatch;
pub mod disturbance;
pub mod environment;
pub mod excerpt;
pub mod export;
mod font;
pub mod growth;
pub mod history;
pub mod interval;
mod markup;
pub mod meaning;
pub mod metric;
pub mod numbers;
mod palette;
mod plan;
pub mod profile;
mod reference;
mod report;
pub mod results;
mod scale;
pub mod thresholds;
mod verdict;

pub use dataset::Source;
pub use meaning::Meaning;
pub use reference::{Reference, Rule, speedup_reference};
pub use report::{
    ChartFile, FigureTable, FlameGraphFile, Report, ReportError, ReportOptions, render, render_for,
    summary,
};
pub use results::{
    Build, Clock, Disturbance, ENVIRONMENT, Machine, Metric, Paired, Parameter, Record, RecordKey,
    ResultsError, ResultsFile, SCHEMA, Status,
};
