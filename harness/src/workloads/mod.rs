//! The workload registry: every kernel the harness knows, in one list.
//!
//! Adding a workload is one adapter module here and one line in [`all`];
//! every subcommand reads this list.

mod cephalopod;
mod components;
mod connectx;
mod meteor;

use crate::error::CliError;
use crate::workload::DynWorkload;

/// Every registered workload, one line each.
static ALL: &[&dyn DynWorkload] = &[
    &components::ALL,
    &components::GROUPS4,
    &connectx::WIN,
    &connectx::PERFT,
    &meteor::METEOR,
    &cephalopod::CEPHALOPOD,
    // new workloads: one line above this comment
];

/// Every registered workload.
pub fn all() -> &'static [&'static dyn DynWorkload] {
    ALL
}

/// Looks a workload up by name.
pub fn find(name: &str) -> Result<&'static dyn DynWorkload, CliError> {
    all()
        .iter()
        .copied()
        .find(|w| w.name() == name)
        .ok_or_else(|| {
            let names: Vec<_> = all().iter().map(|w| w.name()).collect();
            CliError::usage(format!(
                "unknown workload '{name}' (known: {})",
                names.join(", ")
            ))
        })
}
