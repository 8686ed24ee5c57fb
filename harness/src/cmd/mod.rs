//! One module per subcommand, like rebar's `src/cmd/`.

pub mod bench;
pub mod check;
pub mod compare;
pub mod count;
pub mod export;
pub mod fuzz;
pub mod inputs;
pub mod list;
pub mod main_job;
pub mod matrix;
pub mod report;
pub mod solve;
pub mod table;

use crate::error::CliError;
use crate::workload::DynWorkload;
use crate::workloads;

/// Resolves workload names from the command line; empty means all.
pub fn select(names: &[String]) -> Result<Vec<&'static dyn DynWorkload>, CliError> {
    if names.is_empty() {
        return Ok(workloads::all().to_vec());
    }
    names.iter().map(|n| workloads::find(n)).collect()
}
