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
    use crate::entry::Suite;

    /// Availability is read from each variant's declared CPU features, not
    /// by building it: the declaration must say exactly when it builds.
    #[test]
    fn every_workload_is_registered_soundly() {
        for w in WORKLOADS {
            assert_eq!(Suite::check(*w), Ok(()), "{}", w.name());
        }
    }
}
