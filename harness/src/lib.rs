//! bitbench: differential testing and benchmarking of interchangeable
//! kernel implementations.
//!
//! A crate implements [`Workload`] for its kernel (its variants, input
//! sets, text formats and oracle) and calls [`main!`] to get the whole
//! command line: differential `check` against the oracle, `bench` with the
//! results file, `count` (instructions under valgrind), the target-cpu
//! `matrix`, `compare`, `report` charts, `export` and `fuzz`. The
//! `bitbench` binary is our own suite of six kernels (feature `suite`,
//! on by default) registered the same way.
//!
//! ```toml
//! [dependencies]
//! bitbench = { version = "0.1", default-features = false }
//! ```

pub mod batch;
pub mod bench;
#[cfg(feature = "suite")]
pub mod builtin;
pub mod check;
pub mod cli;
pub mod cmd;
#[cfg(feature = "count")]
pub mod counting;
mod entry;
mod erased;
pub mod error;
mod guard;
pub mod levels;
pub mod machine;
pub mod out;
pub mod progress;
pub mod stats;
mod verify;
mod workload;

pub use entry::{Origin, Suite, SuiteError};
pub use erased::{DynWorkload, build_solver};
pub use workload::{InputSetInfo, Solve, VariantInfo, Workload};
