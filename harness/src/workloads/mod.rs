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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::Workload;

    /// Availability is read from each variant's declared CPU features, not
    /// by building it: the declaration must say exactly when it builds.
    fn declared_availability_is_true<W: Workload>(w: &W) {
        for v in w.variants() {
            assert_eq!(
                w.solver(v.name).is_some(),
                v.unavailable.is_none(),
                "{}/{}: declared {:?}",
                w.name(),
                v.name,
                v.unavailable
            );
        }
    }

    #[test]
    fn every_variant_builds_exactly_when_its_features_are_present() {
        declared_availability_is_true(&components::ALL);
        declared_availability_is_true(&components::GROUPS4);
        declared_availability_is_true(&connectx::WIN);
        declared_availability_is_true(&connectx::PERFT);
        declared_availability_is_true(&meteor::METEOR);
        declared_availability_is_true(&cephalopod::CEPHALOPOD);
    }
}
