//! The CI gate's workflow file says what the README promises: `ab` of the
//! pull request's base commit, a full clone (the base must be exportable)
//! and an exact toolchain (a new stable must not move the counts).

mod common;

use common::workflow;
use std::path::Path;

#[test]
fn the_gate_runs_ab_on_the_base_commit_with_full_history_and_a_pinned_toolchain() {
    let yaml = workflow::read(".github/workflows/bench-gate.yml");
    let steps = workflow::steps(&yaml);
    assert!(steps.len() >= 4, "{steps:#?}");

    let gate = steps
        .iter()
        .find(|s| s.run.contains(" ab ") && s.run.contains("--metric instructions"))
        .expect("a step gating with `ab`");
    assert!(
        gate.run
            .contains("ab \"${{ github.event.pull_request.base.sha }}\""),
        "{gate:#?}"
    );

    let checkout = steps
        .iter()
        .find(|s| s.uses.starts_with("actions/checkout@"))
        .expect("a checkout step");
    assert_eq!(checkout.with("fetch-depth"), Some("0"), "{checkout:#?}");

    workflow::pinned_toolchain(&steps);
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rust-toolchain.toml")
            .exists()
    );
}
