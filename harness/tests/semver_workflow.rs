//! The semver guard has the shape that makes it a guard: on every pull
//! request and push to main, read-only, with the whole history checked out,
//! it runs a pinned cargo-semver-checks on the `bitbench` library, every
//! feature on, against the commit that CHANGELOG.md names for the newest
//! release, and that commit is a real one holding that release's version.

mod common;

use common::workflow;
use std::process::Command;

const PATH: &str = ".github/workflows/semver.yml";

/// The newest release's version and commit, from its CHANGELOG heading
/// (`## 0.1.0 — commit <40 hex digits> (date)`).
fn newest_release() -> (String, String) {
    let changelog = workflow::read("CHANGELOG.md");
    let heading = changelog
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .find(|h| !h.starts_with("Unreleased"))
        .expect("CHANGELOG.md has a release");
    let (version, rest) = heading.split_once(" — commit ").unwrap_or_else(|| {
        panic!("a release heading reads `## X.Y.Z — commit HASH (date)`: {heading}")
    });
    let commit: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    assert_eq!(commit.len(), 40, "a full commit hash: {heading}");
    (version.to_owned(), commit)
}

#[test]
fn semver_checks_runs_on_every_change_against_the_changelogs_release() {
    let doc = workflow::load(PATH);
    let events = workflow::events(&doc);
    for event in ["pull_request", "push"] {
        assert!(
            events.iter().any(|e| e == event),
            "not on {event}: {events:?}"
        );
    }
    let jobs = workflow::jobs(&doc);
    assert_eq!(jobs.len(), 1, "{jobs:#?}");
    let job = &jobs[0];
    assert!(
        workflow::read_only(workflow::permissions(&doc, job)),
        "the guard only reads"
    );
    let steps = job.steps();

    let checkout = workflow::step(&steps, "checking out", |s| {
        s.uses.starts_with("actions/checkout@")
    });
    let with = |key: &str| {
        checkout
            .with
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(
        with("fetch-depth"),
        Some("0"),
        "the baseline needs the history"
    );

    let install = workflow::step(&steps, "installing the checker", |s| {
        s.with
            .iter()
            .any(|(_, v)| v.starts_with("cargo-semver-checks"))
    });
    let tool = &install.with.iter().find(|(k, _)| k == "tool").unwrap().1;
    let pinned = tool
        .strip_prefix("cargo-semver-checks@")
        .unwrap_or_default();
    assert!(
        pinned.split('.').count() == 3 && pinned.split('.').all(|n| n.parse::<u32>().is_ok()),
        "the checker is pinned to an exact version: {tool}"
    );

    let check = workflow::step(&steps, "running the checker", |s| {
        s.run.contains("cargo semver-checks")
    });
    let words: Vec<&str> = check.run.split_whitespace().collect();
    let after = |flag: &str| {
        words
            .windows(2)
            .find(|w| w[0] == flag)
            .map(|w| w[1].trim_matches('"'))
            .unwrap_or_else(|| panic!("no {flag} in {}", check.run))
    };
    assert_eq!(after("--package"), "bitbench");
    assert!(words.contains(&"--all-features"), "{}", check.run);
    let baseline = after("--baseline-rev");
    let baseline = match baseline.strip_prefix('$') {
        Some(var) => workflow::scalar(&doc["env"][var])
            .or_else(|| workflow::scalar(&job.yaml["env"][var]))
            .unwrap_or_else(|| panic!("{var} is set in no env: of the workflow or job")),
        None => baseline.to_owned(),
    };

    let (version, commit) = newest_release();
    assert_eq!(
        baseline, commit,
        "the workflow and CHANGELOG.md name one baseline"
    );

    // The commit is in this repository and holds that release's version.
    // (A shallow clone has no history to look in.)
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("git runs")
    };
    let shallow = git(&["rev-parse", "--is-shallow-repository"]);
    if String::from_utf8_lossy(&shallow.stdout).trim() == "false" {
        let manifest = git(&["show", &format!("{commit}:harness/Cargo.toml")]);
        assert!(manifest.status.success(), "{commit} is not in the history");
        let text = String::from_utf8_lossy(&manifest.stdout);
        assert!(
            text.lines()
                .any(|l| l == format!("version = \"{version}\"")),
            "{commit}'s harness/Cargo.toml is not {version}"
        );
    }
}
