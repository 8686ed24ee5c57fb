//! Results files and the reports drawn from them.
//!
//! This crate knows nothing about kernels: it owns the versioned JSON
//! results format that every bitbench command reads or writes, so that
//! files from different machines and commits can be compared and charted.

pub mod results;

pub use results::{
    Build, Machine, Metric, Record, RecordKey, ResultsError, ResultsFile, SCHEMA, Status,
};
