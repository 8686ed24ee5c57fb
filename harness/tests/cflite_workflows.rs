//! ClusterFuzzLite's files agree with each other and with what docs/fuzzing.md
//! says: Rust, AddressSanitizer, the targets fuzzed on pull requests
//! (code-change mode) and on a schedule (batch mode), the actions pinned to
//! a commit, and the image's toolchain pinned to a dated nightly.

mod common;

use common::workflow;

/// `project.yaml`'s sanitizers, after checking its language.
fn project_sanitizers() -> Vec<String> {
    let project = workflow::load(".clusterfuzzlite/project.yaml");
    assert_eq!(
        workflow::scalar(&project["language"]).as_deref(),
        Some("rust")
    );
    let sanitizers = workflow::strings(&project["sanitizers"]);
    assert_eq!(sanitizers, ["address"], "{project:?}");
    sanitizers
}

/// Asserts that `file` runs on `event` only and fuzzes in `mode`, with
/// every sanitizer of project.yaml.
fn assert_fuzzes(file: &str, event: &str, mode: &str) {
    let yaml = workflow::load(&format!(".github/workflows/{file}"));
    let events = workflow::events(&yaml);
    assert!(events.iter().any(|e| e == event), "{file}: {events:?}");
    let other = if event == "schedule" {
        "pull_request"
    } else {
        "schedule"
    };
    assert!(!events.iter().any(|e| e == other), "{file}: {events:?}");

    let jobs = workflow::jobs(&yaml);
    assert_eq!(jobs.len(), 1, "{file}: {jobs:#?}");
    assert_eq!(
        workflow::strings(&jobs[0].yaml["strategy"]["matrix"]["sanitizer"]),
        project_sanitizers(),
        "{file}"
    );
    let steps = jobs[0].steps();
    let action = |name: &str| {
        let prefix = format!("google/clusterfuzzlite/actions/{name}@");
        let step = steps
            .iter()
            .find(|s| s.uses.starts_with(&prefix))
            .unwrap_or_else(|| panic!("{file}: no {name} step"));
        let commit = &step.uses[prefix.len()..];
        assert!(
            commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit()),
            "{file}: {name} not pinned to a commit: {commit}"
        );
        assert_eq!(step.with("sanitizer"), Some("${{ matrix.sanitizer }}"));
        step
    };
    assert_eq!(action("build_fuzzers").with("language"), Some("rust"));
    assert_eq!(action("run_fuzzers").with("mode"), Some(mode), "{file}");
}

#[test]
fn pull_requests_are_fuzzed_in_code_change_mode() {
    assert_fuzzes("cflite-pr.yml", "pull_request", "code-change");
}

#[test]
fn the_schedule_fuzzes_in_batch_mode() {
    assert_fuzzes("cflite-batch.yml", "schedule", "batch");
}

#[test]
fn the_image_builds_on_a_dated_nightly_with_build_sh() {
    let docker = workflow::read(".clusterfuzzlite/Dockerfile");
    let lines: Vec<&str> = docker
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    assert!(
        lines.contains(&"FROM gcr.io/oss-fuzz-base/base-builder-rust"),
        "{docker}"
    );
    let toolchain = lines
        .iter()
        .find_map(|l| l.strip_prefix("ENV RUSTUP_TOOLCHAIN="))
        .expect("the toolchain pinned");
    let date = toolchain.strip_prefix("nightly-").unwrap_or("");
    let dated = date.len() == 10
        && date
            .split('-')
            .map(|p| p.parse::<u32>().is_ok())
            .eq([true, true, true]);
    assert!(dated, "not a dated nightly: {toolchain}");
    assert!(
        lines.contains(&"COPY .clusterfuzzlite/build.sh $SRC/"),
        "{docker}"
    );
}
