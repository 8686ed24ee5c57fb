//! The built-in suite: our six workloads over the kernel crates in
//! `impls/`, registered through the same public entry an outside crate
//! uses (the `bitbench` binary is `cli::main(WORKLOADS, origin!())`).
//!
//! Adding a built-in workload is one adapter module here and one line in
//! [`WORKLOADS`].

pub mod cephalopod;
pub mod components;
pub mod connectx;
pub mod meteor;

use crate::erased::DynWorkload;

/// The suite's workloads, one line each.
pub static WORKLOADS: &[&dyn DynWorkload] = &[
    &components::ALL,
    &components::GROUPS4,
    &connectx::WIN,
    &connectx::PERFT,
    &meteor::METEOR,
    &cephalopod::CEPHALOPOD,
    // new workloads: one line above this comment
];

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
