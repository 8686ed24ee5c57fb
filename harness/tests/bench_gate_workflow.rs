//! The CI gate's workflow file says what docs/ab-and-gate.md promises: `ab` of the
//! pull request's base commit, a full clone (the base must be exportable)
//! and an exact toolchain (a new stable must not move the counts); both
//! steps' markdown collected into one pull-request comment and uploaded,
//! with the results, their directories of profiles and flame graphs, and
//! the pull request's number, even when the gate fails; and a read-only
//! token, since the gate runs the pull request's code.

mod common;

use common::workflow::{self, Job, Step, Yaml};
use common::{fresh_scratch, scratch};
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

/// The file `step` tees its markdown into, besides the job summary.
fn markdown_file(step: &Step) -> String {
    let tee = step
        .run
        .lines()
        .find(|l| l.contains("| tee "))
        .unwrap_or_else(|| panic!("the step's output is not kept: {step:#?}"));
    let files: Vec<&str> = tee
        .split("| tee ")
        .nth(1)
        .expect("tee's arguments")
        .split_whitespace()
        .filter(|w| !w.starts_with('-'))
        .collect();
    assert!(files.contains(&"\"$GITHUB_STEP_SUMMARY\""), "{step:#?}");
    let kept: Vec<&&str> = files.iter().filter(|f| f.ends_with(".md")).collect();
    assert_eq!(
        kept.len(),
        1,
        "one markdown file besides the summary: {step:#?}"
    );
    kept[0].to_string()
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

#[test]
fn the_gate_runs_the_pull_requests_code_with_a_read_only_token() {
    let (doc, job) = gate();
    // `pull_request`, never `pull_request_target` (which would hand the
    // pull request's code the base repository's write token).
    assert_eq!(workflow::events(&doc), ["pull_request"]);
    let permissions = workflow::permissions(&doc, &job);
    assert!(workflow::read_only(permissions), "{permissions:?}");
    assert_eq!(
        workflow::scalar(&permissions["contents"]).as_deref(),
        Some("read"),
        "{permissions:?}"
    );
    // No token handed to any step, and none left in the clone.
    for value in workflow::all_scalars(&doc) {
        assert!(
            !value.contains("secrets.") && !value.contains("github.token"),
            "a token in the gate: {value}"
        );
    }
    let steps = job.steps();
    let checkout = steps
        .iter()
        .find(|s| s.uses.starts_with("actions/checkout@"))
        .expect("a checkout step");
    assert_eq!(checkout.with("persist-credentials"), Some("false"));
}

#[test]
fn the_gate_uploads_results_profiles_comment_and_number_even_when_it_fails() {
    let (_, job) = gate();
    let steps = job.steps();
    let upload = steps
        .iter()
        .find(|s| s.uses.starts_with("actions/upload-artifact@v"))
        .expect("an upload step");
    assert_eq!(upload.with("name"), Some("ab"), "{upload:#?}");
    assert!(upload.condition.contains("always()"), "{upload:#?}");
    let paths: Vec<&str> = upload
        .with("path")
        .expect("the upload's paths")
        .lines()
        .map(str::trim)
        .collect();

    // Each `ab` step's results file and the directory `ab` fills beside it
    // (`--out X.json` writes `X/`: profiles and flame graphs).
    for metric in ["instructions", "time"] {
        let out = argument(&ab_step(&steps, metric).run, "--out");
        let dir = out.strip_suffix(".json").expect("a .json results file");
        assert!(paths.contains(&out), "{out} not uploaded: {paths:?}");
        assert!(
            paths.contains(&format!("{dir}/").as_str()) || paths.contains(&dir),
            "{dir}/ not uploaded: {paths:?}"
        );
    }
    let collect = steps
        .iter()
        .position(|s| s.run.contains("> comment.md"))
        .expect("a step writing comment.md");
    assert!(steps[collect].condition.contains("always()"));
    assert!(
        collect < steps.iter().position(|s| std::ptr::eq(s, upload)).unwrap(),
        "the comment is written before the upload"
    );
    for file in ["comment.md", "pr-number"] {
        assert!(paths.contains(&file), "{file} not uploaded: {paths:?}");
    }
}

const RUN_ENV: [(&str, &str); 3] = [
    ("GITHUB_SERVER_URL", "https://github.example"),
    ("GITHUB_REPOSITORY", "owner/bitbench"),
    ("GITHUB_RUN_ID", "4711"),
];

#[test]
fn the_comment_is_a_heading_both_steps_markdown_and_where_the_flame_graphs_are() {
    let (_, job) = gate();
    let steps = job.steps();
    let instructions = markdown_file(ab_step(&steps, "instructions"));
    let time = markdown_file(ab_step(&steps, "time"));
    let collect = steps
        .iter()
        .find(|s| s.run.contains("> comment.md"))
        .expect("a step writing comment.md");
    assert_eq!(
        collect.env("PR_NUMBER"),
        Some("${{ github.event.pull_request.number }}"),
        "{collect:#?}"
    );
    assert!(
        !collect.run.contains("${{"),
        "values come in by env: {collect:#?}"
    );

    // Both reports there: heading, both in order, the artifact's line.
    let dir = fresh_scratch("gate-both");
    std::fs::write(dir.join(&instructions), "### Instructions\n\n| a | b |\n").unwrap();
    std::fs::write(dir.join(&time), "### Time\n\nfaster\n").unwrap();
    let mut env = RUN_ENV.to_vec();
    env.push(("PR_NUMBER", "123"));
    let out = workflow::run_script(collect, &dir, &env);
    assert!(out.status.success(), "{out:?}");
    let comment = std::fs::read_to_string(dir.join("comment.md")).unwrap();
    assert!(comment.starts_with("## "), "{comment}");
    let at = |what: &str| {
        comment
            .find(what)
            .unwrap_or_else(|| panic!("no {what:?} in {comment}"))
    };
    assert!(at("### Instructions") < at("| a | b |"));
    assert!(at("| a | b |") < at("### Time"));
    assert!(at("### Time") < at("`ab` artifact"));
    let last = comment.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    assert!(last.contains("flame graphs"), "{last}");
    assert!(comment.contains("https://github.example/owner/bitbench/actions/runs/4711"));
    assert_eq!(
        std::fs::read_to_string(dir.join("pr-number")).unwrap(),
        "123\n"
    );

    // The time step wrote nothing (a build broke): the comment still says
    // what the instruction step found, and that the time step said nothing.
    let dir = fresh_scratch("gate-one");
    std::fs::write(dir.join(&instructions), "### Instructions\n").unwrap();
    let out = workflow::run_script(collect, &dir, &env);
    assert!(out.status.success(), "{out:?}");
    let comment = std::fs::read_to_string(dir.join("comment.md")).unwrap();
    assert!(comment.contains("### Instructions"), "{comment}");
    assert!(comment.contains("time step wrote no report"), "{comment}");

    // Too long for a comment: cut, and said so, the artifact's line kept.
    let dir = fresh_scratch("gate-long");
    std::fs::write(dir.join(&instructions), "x".repeat(70_000)).unwrap();
    let out = workflow::run_script(collect, &dir, &env);
    assert!(out.status.success(), "{out:?}");
    let comment = std::fs::read_to_string(dir.join("comment.md")).unwrap();
    assert!(comment.len() < 65_536, "{}", comment.len());
    assert!(comment.contains("Cut at"), "not said");
    assert!(comment.contains("`ab` artifact"), "artifact line lost");
    for dir in ["gate-both", "gate-one", "gate-long"] {
        let _ = std::fs::remove_dir_all(scratch(dir));
    }
}
