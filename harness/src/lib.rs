//! bitbench: differential testing and benchmarking of bitboard kernels.
//!
//! The harness adapts each kernel crate through the [`workload::Workload`]
//! trait and runs the same machinery on all of them: verification against
//! an oracle ([`check`]), timing ([`bench`]) and the results file. The
//! `bitbench` binary is a thin CLI over this library.

pub mod batch;
pub mod bench;
pub mod check;
pub mod cmd;
pub mod counting;
pub mod error;
pub mod levels;
pub mod machine;
pub mod out;
pub mod progress;
pub mod stats;
pub mod workload;
pub mod workloads;
