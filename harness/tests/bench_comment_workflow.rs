//! The workflow that posts the gate's report to its pull request has the
//! shape that keeps a write token away from the pull request's code: it
//! starts on `workflow_run` of the gate, may write pull requests' comments
//! and read runs' artifacts and nothing else, checks nothing out and runs
//! nothing of the repository's, downloads the triggering run's artifact,
//! checks the number it finds there, and posts one comment that each push
//! updates.

mod common;

use common::workflow::{self, Job, Step, Yaml};
use common::{fresh_scratch, scratch};
use std::path::{Path, PathBuf};

const PATH: &str = ".github/workflows/bench-comment.yml";
const GATE: &str = ".github/workflows/bench-gate.yml";

/// The comment workflow's parsed file and its one job.
fn comment() -> (Yaml, Job) {
    let doc = workflow::load(PATH);
    let mut jobs = workflow::jobs(&doc);
    assert_eq!(jobs.len(), 1, "{jobs:#?}");
    (doc, jobs.remove(0))
}

/// The step of `steps` that `find` picks, and its index.
fn step<'a>(steps: &'a [Step], what: &str, find: impl Fn(&Step) -> bool) -> (usize, &'a Step) {
    steps
        .iter()
        .enumerate()
        .find(|(_, s)| find(s))
        .unwrap_or_else(|| panic!("no step {what} in {steps:#?}"))
}

/// The id of the step whose output `expression` reads
/// (`${{ steps.ID.outputs.NAME }}`), and the output's name.
fn output_of(expression: &str) -> (&str, &str) {
    let inner = expression
        .trim()
        .strip_prefix("${{")
        .and_then(|e| e.strip_suffix("}}"))
        .unwrap_or(expression)
        .trim();
    let rest = inner
        .strip_prefix("steps.")
        .unwrap_or_else(|| panic!("not a step's output: {expression}"));
    let (id, name) = rest
        .split_once(".outputs.")
        .unwrap_or_else(|| panic!("not a step's output: {expression}"));
    (id, name)
}

#[test]
fn it_starts_when_the_gate_completes_and_may_write_comments_only() {
    let (doc, job) = comment();
    let gate = workflow::load(GATE);
    let gate_name = workflow::scalar(&gate["name"]).expect("the gate is named");

    assert_eq!(workflow::events(&doc), ["workflow_run"]);
    let run = &workflow::on(&doc)["workflow_run"];
    assert_eq!(workflow::strings(&run["workflows"]), [gate_name]);
    assert_eq!(workflow::strings(&run["types"]), ["completed"]);

    let permissions = workflow::permissions(&doc, &job);
    let scope = |name: &str| workflow::scalar(&permissions[name]);
    assert_eq!(scope("pull-requests").as_deref(), Some("write"));
    assert_eq!(scope("actions").as_deref(), Some("read"));
    let writes: Vec<String> = workflow::keys(permissions)
        .into_iter()
        .filter(|k| scope(k).as_deref() != Some("read") && scope(k).as_deref() != Some("none"))
        .collect();
    assert_eq!(writes, ["pull-requests"], "{permissions:?}");

    // Only for runs of a pull request, and only runs that got to uploading.
    let condition = job.text("if").expect("the job says when it runs");
    assert!(
        condition.contains("github.event.workflow_run.event == 'pull_request'"),
        "{condition}"
    );
}

#[test]
fn it_never_checks_out_builds_or_runs_the_pull_requests_code() {
    let (doc, job) = comment();
    let steps = job.steps();
    assert!(!steps.is_empty());
    for s in &steps {
        assert!(!s.uses.starts_with("actions/checkout"), "{s:#?}");
        // A local action is the repository's code (the pull request's,
        // were it checked out).
        assert!(!s.uses.starts_with("./"), "{s:#?}");
        for word in s
            .run
            .split(|c: char| c.is_whitespace() || c == ';' || c == '|')
        {
            let word = word.trim_matches(|c| c == '(' || c == ')' || c == '$' || c == '"');
            assert!(
                ![
                    "cargo", "bitbench", "bash", "sh", "source", ".", "make", "python", "python3",
                    "node", "npm", "git",
                ]
                .contains(&word),
                "{word:?} run with a write token: {s:#?}"
            );
            assert!(
                !word.starts_with("./") && !word.contains("target/"),
                "{word:?} executed or built: {s:#?}"
            );
        }
    }
    // Not `pull_request_target` either, nor any other event.
    assert_eq!(workflow::events(&doc), ["workflow_run"]);
}

#[test]
fn it_downloads_the_gates_artifact_from_the_run_that_triggered_it() {
    let (_, job) = comment();
    let gate = workflow::jobs(&workflow::load(GATE)).remove(0);
    let uploaded = gate
        .steps()
        .into_iter()
        .find(|s| s.uses.starts_with("actions/upload-artifact@v"))
        .and_then(|s| s.with("name").map(str::to_owned))
        .expect("the gate uploads a named artifact");

    let steps = job.steps();
    let (at, download) = step(&steps, "downloading", |s| {
        s.uses.starts_with("actions/download-artifact@v")
    });
    assert_eq!(at, 0, "the first thing it does: {steps:#?}");
    assert_eq!(download.with("name"), Some(uploaded.as_str()));
    assert_eq!(
        download.with("run-id"),
        Some("${{ github.event.workflow_run.id }}"),
        "{download:#?}"
    );
    let token = download.with("github-token").expect("a token to read runs");
    assert!(
        token == "${{ secrets.GITHUB_TOKEN }}" || token == "${{ github.token }}",
        "{token}"
    );
}

/// A fresh scratch directory holding `ab/pr-number` with `number`.
fn downloaded(name: &str, number: &str) -> PathBuf {
    let dir = fresh_scratch(name);
    std::fs::create_dir_all(dir.join("ab")).unwrap();
    std::fs::write(dir.join("ab/pr-number"), number).unwrap();
    dir
}

/// Runs `script`'s step in `dir` with a `$GITHUB_OUTPUT` file there, and
/// returns whether it succeeded and what it wrote to that file.
fn outputs(step: &Step, dir: &Path, env: &[(&str, &str)]) -> (bool, String) {
    let file = dir.join("github-output");
    std::fs::write(&file, "").unwrap();
    let mut env = env.to_vec();
    let path = file.to_str().unwrap();
    env.push(("GITHUB_OUTPUT", path));
    let out = workflow::run_script(step, dir, &env);
    (
        out.status.success(),
        std::fs::read_to_string(&file).unwrap(),
    )
}

#[test]
fn it_posts_one_comment_to_a_checked_number_from_the_gates_comment_md() {
    let (_, job) = comment();
    let steps = job.steps();
    let (_, download) = step(&steps, "downloading", |s| {
        s.uses.starts_with("actions/download-artifact@v")
    });
    let into = download.with("path").expect("downloaded into a folder");
    let (post_at, post) = step(&steps, "posting", |s| {
        s.uses
            .starts_with("marocchino/sticky-pull-request-comment@")
    });
    // A release tag (the action's `v2` is a branch).
    workflow::assert_pinned(&post.uses);
    assert_eq!(
        post.uses, "marocchino/sticky-pull-request-comment@v2.9.4",
        "{post:#?}"
    );
    assert_eq!(
        post.with("path"),
        Some(format!("{into}/comment.md").as_str())
    );
    assert!(post.with("message").is_none(), "{post:#?}");
    // One comment, found again by its header and updated, never a new one
    // per push.
    assert!(post.with("header").is_some_and(|h| !h.is_empty()));
    for never in ["append", "recreate", "hide_and_recreate"] {
        assert!(post.with(never).is_none(), "{never}: {post:#?}");
    }

    // The number it posts to is a checked step's output, read from the
    // artifact before posting.
    let (id, name) = output_of(post.with("number").expect("the number posted to"));
    let (check_at, check) = step(&steps, "reading the number", |s| s.id == id);
    assert!(check_at < post_at);
    assert!(
        check.run.contains(&format!("{into}/pr-number")),
        "{check:#?}"
    );

    let dir = downloaded("comment-good", "42\n");
    let (ok, written) = outputs(check, &dir, &[]);
    assert!(ok, "42 refused");
    assert_eq!(written, format!("{name}=42\n"));
    for bad in [
        "",
        "\n",
        "4 2",
        "42; echo pwned",
        "42\n43",
        "42\nnumber=7",
        "-1",
        "+1",
        "0x2a",
        "../42",
        "$(id)",
    ] {
        let dir = downloaded("comment-bad", bad);
        let (ok, written) = outputs(check, &dir, &[]);
        assert!(!ok, "{bad:?} taken for a number: {written:?}");
        assert!(!written.contains(name), "{bad:?} got out: {written:?}");
    }
    let missing = downloaded("comment-missing", "");
    std::fs::remove_file(missing.join("ab/pr-number")).unwrap();
    assert!(!outputs(check, &missing, &[]).0);

    // And posts only when that pull request's head is the commit gated.
    let (id, current) = output_of(
        post.condition
            .split("==")
            .next()
            .expect("the post's condition"),
    );
    let (head_at, head) = step(&steps, "checking the head", |s| s.id == id);
    assert!(check_at < head_at && head_at < post_at);
    assert_eq!(
        head.env("GATED"),
        Some("${{ github.event.workflow_run.head_sha }}")
    );
    assert_eq!(
        head.env("NUMBER"),
        Some(format!("${{{{ steps.{}.outputs.{name} }}}}", check.id).as_str())
    );
    assert!(post.condition.contains("'true'"), "{post:#?}");
    // With a stand-in `gh` answering the pull request's head.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let gh = bin.join("gh");
    std::fs::write(&gh, "#!/bin/sh\necho \"$FAKE_HEAD\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    for (pr_head, posts) in [("abc123", "true"), ("def456", "false")] {
        let env = [
            ("PATH", path.as_str()),
            ("FAKE_HEAD", pr_head),
            ("NUMBER", "42"),
            ("GATED", "abc123"),
            ("GITHUB_REPOSITORY", "owner/bitbench"),
        ];
        let (ok, written) = outputs(head, &dir, &env);
        assert!(ok, "{pr_head}");
        assert_eq!(written, format!("{current}={posts}\n"), "{pr_head}");
    }
    for name in ["comment-good", "comment-bad", "comment-missing"] {
        let _ = std::fs::remove_dir_all(scratch(name));
    }
}

#[test]
fn the_on_key_is_found_whether_it_is_read_as_on_or_as_true() {
    // YAML 1.2 (GitHub, yaml-rust2): the string "on".
    let doc = workflow::parse("on:\n  push:\n  pull_request:\njobs: {}\n");
    assert!(doc["on"].as_hash().is_some(), "{doc:?}");
    assert_eq!(workflow::events(&doc), ["push", "pull_request"]);
    // A YAML 1.1 reader's `true:` is taken for `on:` too.
    let doc = workflow::parse("true:\n  workflow_run:\njobs: {}\n");
    assert_eq!(workflow::events(&doc), ["workflow_run"]);
    // The one- and list forms.
    let doc = workflow::parse("on: pull_request\njobs: {}\n");
    assert_eq!(workflow::events(&doc), ["pull_request"]);
    let doc = workflow::parse("on: [push, schedule]\njobs: {}\n");
    assert_eq!(workflow::events(&doc), ["push", "schedule"]);
}
