//! The CI gate's workflow file says what docs/ab-and-gate.md promises: `ab` of the
//! pull request's base commit, a full clone (the base must be exportable)
//! and an exact toolchain (a new stable must not move the counts); both
//! steps' markdown collected into one pull-request comment and uploaded,
//! with the results, their directories of profiles and flame graphs, and
//! the pull request's number, even when the gate fails; and a read-only
//! token, since the gate runs the pull request's code.
//!
//! The file is what `bitbench ci --init` writes for this repository, and
//! the same command writes it for any crate: a fixture crate outside this
//! workspace, in a repository of its own, runs its own `ci --init` and then
//! the written gate's `run:` steps in order, as a runner would, on an A/A
//! pull request (green, a clean comment) and on one that plants an
//! instruction regression (red, the comment naming the record).

mod common;

use common::workflow::{self, Job, Ran, Step, Yaml};
use common::{bitbench, build_outside, fresh_scratch, git, loop_fixture, scratch, stderr, stdout};
use common::{target_dir, text, tool_missing, write_outside_manifest};
use std::path::Path;
use std::process::Command;

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
    // After a failed instruction gate too, so the comment tells time.
    assert!(time.condition.contains("!cancelled()"), "{time:#?}");

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

#[test]
fn the_committed_workflows_are_what_ci_init_writes_for_this_repository() {
    let out = bitbench(&["ci", "--check"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    for file in [PATH, ".github/workflows/bench-comment.yml"] {
        assert!(
            stdout.contains(&format!("{file} is what ci --init writes")),
            "{stdout}"
        );
        let doc = workflow::load(file);
        for job in workflow::jobs(&doc) {
            for step in job.steps().iter().filter(|s| !s.uses.is_empty()) {
                workflow::assert_pinned(&step.uses);
            }
        }
    }
}

/// The fixture's answer: the loop, and with `extra` more rounds of work
/// whose result is thrown away (the same answers, more instructions).
fn body(extra: u32) -> String {
    format!("let r = walk(x); for _ in 0..black_box({extra}u32) {{ black_box(r); }} r")
}

/// `program ci ARGS` in `dir`: its exit code, stdout and stderr.
fn ci(program: &Path, dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(program)
        .arg("ci")
        .args(args)
        .current_dir(dir)
        .env("CI", "1")
        .output()
        .expect("the fixture runs");
    (out.status.code(), stdout(&out), stderr(&out))
}

/// The fixture's own `ci --init`, `--check` and `--force` on its files.
fn init_is_idempotent_and_leaves_edits_alone(program: &Path, repo: &Path) {
    let gate_file = repo.join(PATH);
    let comment_file = repo.join(".github/workflows/bench-comment.yml");
    let (code, out, err) = ci(program, repo, &["--init"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("wrote .github/workflows/bench-gate.yml"),
        "{out}"
    );
    assert!(
        out.contains("wrote .github/workflows/bench-comment.yml"),
        "{out}"
    );
    // Where the steps run, and the toolchain's source, said.
    assert!(err.contains("run from kernel/"), "{err}");
    assert!(err.contains("toolchain 1.95.0, from"), "{err}");
    // bitbench is this workspace's harness, by path: outside the repository.
    assert!(
        err.contains("warning: bitbench is a path dependency outside this repository"),
        "{err}"
    );
    let written = std::fs::read_to_string(&gate_file).unwrap();

    let (code, out, _) = ci(program, repo, &["--init"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("nothing changed"), "{out}");
    assert_eq!(std::fs::read_to_string(&gate_file).unwrap(), written);
    assert_eq!(ci(program, repo, &["--check"]).0, Some(0));

    // An edit is left alone, and named; --check names it; --force rewrites.
    let edited = std::fs::read_to_string(&comment_file).unwrap() + "# mine\n";
    std::fs::write(&comment_file, &edited).unwrap();
    let (code, out, _) = ci(program, repo, &["--init"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("left .github/workflows/bench-comment.yml alone"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&comment_file).unwrap(), edited);
    let (code, _, err) = ci(program, repo, &["--check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(".github/workflows/bench-comment.yml was edited"),
        "{err}"
    );
    let (_, out, _) = ci(program, repo, &["--init", "--force"]);
    assert!(
        out.contains("rewrote (--force) .github/workflows/bench-comment.yml"),
        "{out}"
    );

    // The time switch: a file of its own writing, rewritten either way.
    let (_, out, _) = ci(program, repo, &["--init", "--time-gates"]);
    assert!(
        out.contains("updated .github/workflows/bench-gate.yml"),
        "{out}"
    );
    let timed = std::fs::read_to_string(&gate_file).unwrap();
    assert!(!timed.contains("continue-on-error"), "{timed}");
    assert!(timed.contains("- name: Gate on paired time"), "{timed}");
    ci(program, repo, &["--init"]);
    assert_eq!(std::fs::read_to_string(&gate_file).unwrap(), written);
}

/// The gate's `run:` steps on a pull request numbered `number` from `base`
/// to the checkout's HEAD, in `repo`, as a fresh runner would have them.
fn run_gate(repo: &Path, base: &str, number: u64) -> Vec<Ran> {
    git(repo, &["clean", "-fdxq"]);
    let doc = workflow::parse(&std::fs::read_to_string(repo.join(PATH)).unwrap());
    let job = workflow::jobs(&doc).remove(0);
    let head = git(repo, &["rev-parse", "HEAD"]);
    let event = serde_json::json!({"number": number, "pull_request": {
        "number": number, "base": {"sha": base}, "head": {"sha": head}}});
    let target = target_dir();
    let mut env = RUN_ENV.to_vec();
    env.extend([
        // This workspace's target directory and lock file: only the
        // fixture and bitbench compile, once per source.
        ("CARGO_TARGET_DIR", target.to_str().unwrap()),
        ("CARGO_NET_OFFLINE", "true"),
    ]);
    let runner = scratch(&format!("gate-runner-{number}"));
    let _ = std::fs::remove_dir_all(&runner);
    let ran = workflow::run_job(&doc, &job, repo, &runner, &event, &env);
    std::fs::remove_dir_all(&runner).unwrap();
    ran
}

/// The step of `ran` named `name`.
fn ran<'a>(ran: &'a [Ran], name: &str) -> &'a Ran {
    ran.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no step {name:?}: {ran:#?}"))
}

/// The comment's row of the fixture's one record for `metric`.
fn row<'a>(comment: &'a str, metric: &str) -> &'a str {
    comment
        .lines()
        .find(|l| l.starts_with(&format!("| steps | loop | random | {metric} ")))
        .unwrap_or_else(|| panic!("no {metric} row in {comment}"))
}

#[test]
fn an_outside_crates_own_gate_passes_a_a_and_fails_a_planted_regression() {
    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!(
            "SKIPPED: valgrind or gungraun-runner missing (bitbench ci --install-tools installs them)"
        );
        return;
    }
    // A repository with the crate below its root, as in a monorepo.
    let repo = fresh_scratch("gate-repo");
    git(&repo, &["init", "-q"]);
    let kernel = repo.join("kernel");
    loop_fixture::init(&kernel, "gatefix");
    std::fs::remove_dir_all(kernel.join(".git")).unwrap();
    // The gate builds the package's default features: a crate adopting
    // the instruction gate turns its `counting` on by default.
    let manifest = kernel.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let text = text.replace("[features]\n", "[features]\ndefault = [\"counting\"]\n");
    std::fs::write(&manifest, text).unwrap();
    std::fs::write(
        kernel.join("src/main.rs"),
        "bitbench::main!(gatefix::Steps);\n",
    )
    .unwrap();
    std::fs::write(
        kernel.join("src/lib.rs"),
        loop_fixture::lib(2000, 256, &body(0)),
    )
    .unwrap();
    let program = build_outside(&kernel, "gatefix");
    init_is_idempotent_and_leaves_edits_alone(&program, &repo);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "the base, with its gate"]);
    let base = git(&repo, &["rev-parse", "HEAD"]);

    // A/A: the pull request's head is its base.
    let steps = run_gate(&repo, &base, 7);
    let names: Vec<&str> = steps.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names[..3],
        [
            "uses: actions/checkout@v4",
            "uses: dtolnay/rust-toolchain@3c5f7ea28cd621ae0bf5283f0e981fb97b8a7af9",
            "uses: Swatinem/rust-cache@v2",
        ]
    );
    for step in steps.iter().filter(|r| !r.name.starts_with("uses:")) {
        assert_eq!(step.code, Some(0), "{step:#?}");
    }
    let comment = std::fs::read_to_string(kernel.join("comment.md")).unwrap();
    assert!(
        comment.starts_with("## bench-gate: `gatefix ab`"),
        "{comment}"
    );
    // Answers and instruction counts are exact: one build against itself
    // agrees and counts the same. (Time's verdict is read off a clock, so
    // it is reported and not asserted.)
    let agree = "answers: 1 of 1 record(s) agree on every input";
    assert_eq!(comment.matches(agree).count(), 2, "{comment}");
    assert!(
        row(&comment, "instructions").ends_with("| no change |"),
        "{comment}"
    );
    assert!(comment.contains("0 regressed, 0 broke"), "{comment}");
    assert!(!comment.contains("BROKE"), "{comment}");
    assert!(
        !comment.contains("instruction step wrote no report"),
        "{comment}"
    );
    assert_eq!(
        std::fs::read_to_string(kernel.join("pr-number")).unwrap(),
        "7\n"
    );

    // A pull request doing about 5 % more work for the same answers.
    std::fs::write(
        kernel.join("src/lib.rs"),
        loop_fixture::lib(2000, 256, &body(150)),
    )
    .unwrap();
    git(&repo, &["commit", "-qam", "more work, the same answers"]);
    let steps = run_gate(&repo, &base, 8);
    let gate = ran(&steps, "Gate on answers and instructions");
    assert_eq!(gate.code, Some(1), "{gate:#?}");
    // The time step still ran and reported; the comment was still made.
    assert!(
        ran(&steps, "Paired time (reported, not gated)")
            .code
            .is_some()
    );
    assert_eq!(
        ran(&steps, "Collect the pull-request comment").code,
        Some(0)
    );
    let comment = std::fs::read_to_string(kernel.join("comment.md")).unwrap();
    assert!(
        row(&comment, "instructions").contains("**REGRESSED**"),
        "{comment}"
    );
    assert!(!comment.contains("time step wrote no report"), "{comment}");
    assert_eq!(
        std::fs::read_to_string(kernel.join("pr-number")).unwrap(),
        "8\n"
    );

    let kept = target_dir().join("bitbench-ab");
    for sha in [base, git(&repo, &["rev-parse", "HEAD"])] {
        std::fs::remove_dir_all(kept.join(&sha)).ok();
        std::fs::remove_dir_all(kept.join("src").join(&sha)).ok();
    }
    std::fs::remove_dir_all(&repo).ok();
}

/// A program without bitbench's `count` feature says so, with the line to
/// add, and gets a gate on answers and paired time, time deciding, with
/// no tools to install. (Its bitbench, without default features, is the
/// build the other outside crates' tests share.)
#[test]
fn a_program_without_count_gets_a_gate_on_answers_and_time() {
    let repo = fresh_scratch("gate-plain");
    write_outside_manifest(&repo, "gateplain", &[]);
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(
        repo.join("src/main.rs"),
        "bitbench::main!(gateplain::Steps);\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("src/lib.rs"),
        loop_fixture::lib(10, 16, "walk(x)"),
    )
    .unwrap();
    git(&repo, &["init", "-q"]);
    let program = build_outside(&repo, "gateplain");
    let (code, out, err) = ci(&program, &repo, &["--init"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        err.contains("built without bitbench's `count` feature"),
        "{err}"
    );
    assert!(err.contains("features = [\"count\"]"), "{err}");
    assert!(err.contains("answers and paired time decide"), "{err}");
    assert!(err.contains("run from the repository's root"), "{err}");
    let doc = workflow::parse(&std::fs::read_to_string(repo.join(PATH)).unwrap());
    let steps = workflow::jobs(&doc).remove(0).steps();
    assert!(
        !steps.iter().any(|s| s.run.contains("--install-tools")),
        "{steps:#?}"
    );
    assert!(
        !steps
            .iter()
            .any(|s| s.run.contains("--metric instructions"))
    );
    let time = ab_step(&steps, "time");
    assert_eq!(time.name, "Gate on answers and paired time");
    assert!(time.yaml.as_ref().unwrap()["continue-on-error"].is_badvalue());
    assert!(time.condition.is_empty(), "{time:#?}");
    // A root that is not there, or that does not hold the crate: one line, exit 2.
    let (code, _, err) = ci(&program, &repo, &["--init", "--root", "no-such-dir"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(": ci --init: --root no-such-dir: "), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let elsewhere = fresh_scratch("gate-plain-elsewhere");
    let (code, _, err) = ci(&program, &elsewhere, &["--check", "--root", "."]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is not inside the repository at"), "{err}");
    // There is no count to install tools for.
    let (code, _, err) = ci(&program, &repo, &["--install-tools"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("without bitbench's `count` feature"), "{err}");
    std::fs::remove_dir_all(&repo).unwrap();
}
