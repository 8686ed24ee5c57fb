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

// The API: a kernel's adapter, the entry point and the built-in suite.
#[cfg(feature = "suite")]
pub mod builtin;
pub mod cli;
mod entry;
mod erased;
pub mod error;
#[cfg(feature = "fuzz")]
pub mod fuzz;
mod workload;

pub use entry::{Origin, Suite, SuiteError};
pub use erased::DynWorkload;
pub use error::Error;
pub use workload::{InputSetInfo, Solve, VariantInfo, Workload};

// The engines. Public only for our own benches and tests, which are
// separate crates; hidden from the docs because they are not API.
#[doc(hidden)]
pub mod batch;
#[doc(hidden)]
pub mod bench;
#[doc(hidden)]
pub mod check;
#[doc(hidden)]
pub mod cmd;
#[cfg(feature = "count")]
#[doc(hidden)]
pub mod counting;
mod guard;
#[doc(hidden)]
pub mod levels;
#[doc(hidden)]
pub mod machine;
#[doc(hidden)]
pub mod out;
mod progress;
mod setup;
mod stats;
mod verify;
