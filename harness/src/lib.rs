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

// docs.rs labels each item with the feature or target it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The API: a kernel's adapter, the entry point, the counting allocator
// and the built-in suite.
mod allocations;
#[cfg(feature = "suite")]
pub mod builtin;
pub mod cli;
pub mod dispatch;
mod dyn_workload;
mod entry;
mod error;
#[cfg(feature = "fuzz")]
pub mod fuzz;
mod sets;
mod shrink;
mod workload;

pub use allocations::CountingAlloc;
pub use dyn_workload::DynWorkload;
pub use entry::{Origin, Suite, SuiteError};
pub use error::Error;
pub use reports::Meaning;
pub use sets::{InputSet, Member};
pub use shrink::Shrink;
pub use workload::{Prepared, Solve, VariantInfo, Workload, prepared};

// What `main!` expands to call in the user's crate: public for the macro,
// not API.
#[doc(hidden)]
pub use cmd::fuzz::record_paths;

// The engines our own benches (`batch`, `counting`) and tests (`check`)
// drive directly: separate crates, so public, but hidden from the docs
// because they are not API.
#[doc(hidden)]
pub use engine::{batch, check};
#[cfg(feature = "count")]
#[doc(hidden)]
pub mod counting;

// Everything else is the crate's own.
mod ab;
mod attribution;
mod cmd;
mod cores;
mod cycles;
mod disturb;
mod engine;
mod fault;
mod features;
mod fuzz_replay;
mod grid;
mod growth;
mod guard;
mod history;
mod isolated;
mod levels;
mod machine;
mod measuring_env;
mod out;
mod progress;
mod repro;
mod revision;
mod sampling;
mod setup;
mod stats;
mod verdict;
mod words;
