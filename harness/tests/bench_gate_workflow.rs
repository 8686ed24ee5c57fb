//! The CI gate's workflow file says what the README promises: `ab` of the
//! pull request's base commit, a full clone (the base must be exportable)
//! and an exact toolchain (a new stable must not move the counts).

mod common;

use common::workflow::{self, Job, Step, Yaml};
use std::path::Path;

const PATH: &str = ".github/workflows/bench-gate.yml";

/// The gate's parsed file and its one job.
fn gate() -> (Yaml, Job) {
    let doc = workflow::load(PATH);
    let mut jobs = workflow::jobs(&doc);
    assert_eq!(jobs.len(), 1, "{jobs:#?}");
    (doc, jobs.remove(0))
}

/// The step running `ab` with `--metric metric`.
fn ab_step<'a>(steps: &'a [Step], metric: &str) -> &'a Step {
    steps
        .iter()
        .find(|s| s.run.contains(" ab ") && s.run.contains(&format!("--metric {metric}")))
        .unwrap_or_else(|| panic!("no step running `ab --metric {metric}`: {steps:#?}"))
}

/// The word after `flag` in `script`.
fn argument<'a>(script: &'a str, flag: &str) -> &'a str {
    let words: Vec<&str> = script.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == flag)
        .unwrap_or_else(|| panic!("no {flag} in {script}"));
    words[at + 1]
}

#[test]
fn the_gate_runs_ab_on_the_base_commit_with_full_history_and_a_pinned_toolchain() {
    let (_, job) = gate();
    let steps = job.steps();
    assert!(steps.len() >= 4, "{steps:#?}");

    for metric in ["instructions", "time"] {
        let step = ab_step(&steps, metric);
        assert!(
            step.run
                .contains("ab \"${{ github.event.pull_request.base.sha }}\" HEAD"),
            "{step:#?}"
        );
        assert_eq!(argument(&step.run, "--format"), "markdown", "{step:#?}");
        assert!(step.run.contains("set -o pipefail"), "{step:#?}");
    }
    // Instructions decide; time is reported only.
    let gate = ab_step(&steps, "instructions");
    assert!(gate.yaml.as_ref().unwrap()["continue-on-error"].is_badvalue());
    let time = ab_step(&steps, "time");
    assert_eq!(
        time.yaml.as_ref().unwrap()["continue-on-error"],
        Yaml::Boolean(true),
        "{time:#?}"
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
