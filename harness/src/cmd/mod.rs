//! One module per subcommand, like rebar's `src/cmd/`.

pub mod ab;
pub mod bench;
pub mod check;
pub mod ci;
pub mod compare;
#[cfg(feature = "count")]
pub mod count;
#[cfg(not(feature = "count"))]
#[path = "count_missing.rs"]
pub mod count;
pub mod dispatch;
pub mod export;
pub mod fuzz;
pub mod history;
pub mod inputs;
pub mod list;
pub mod main_job;
pub mod matrix;
mod metadata;
pub mod report;
pub mod serve;
pub mod solve;
