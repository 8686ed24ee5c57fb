//! The two workflows `ci --init` writes, as text: the gate, which runs
//! the pull request's code with a read-only token, and the comment
//! workflow, which posts the gate's report and runs none of it.
//!
//! Every action is pinned once, in [`ACTIONS`]; the text around them is
//! this repository's own gate, with the program's package, binary,
//! directory, toolchain and metrics put in.

use super::project::Project;
use std::fmt::Write as _;

/// An action the written workflows use, and its pin.
struct Action {
    name: &'static str,
    /// A release tag, or a full commit read from the action's repository.
    pin: &'static str,
    /// Said beside a commit: what it is.
    note: &'static str,
}

/// Every action the written workflows use, each pinned here and nowhere
/// else: a release tag where the action's repository has one, else a
/// full commit read from that repository, never a branch.
/// `dtolnay/rust-toolchain` has no release tag to pin (its `1.95.0` and
/// `stable` are branches naming toolchains), so it is the commit of its
/// `master`, which takes the toolchain as an input; the sticky comment's
/// `v2` is a branch too, so it is the release tag `v2.9.4` (`v3` runs on
/// node 24 and wants `number_force` on `workflow_run`).
const ACTIONS: [Action; 6] = [
    Action {
        name: "actions/checkout",
        pin: "v4",
        note: "",
    },
    Action {
        name: "dtolnay/rust-toolchain",
        pin: "3c5f7ea28cd621ae0bf5283f0e981fb97b8a7af9",
        note: "master of 2026-03-27",
    },
    Action {
        name: "Swatinem/rust-cache",
        pin: "v2",
        note: "",
    },
    Action {
        name: "actions/upload-artifact",
        pin: "v4",
        note: "",
    },
    Action {
        name: "actions/download-artifact",
        pin: "v4",
        note: "",
    },
    Action {
        name: "marocchino/sticky-pull-request-comment",
        pin: "v2.9.4",
        note: "",
    },
];

/// `uses: NAME@PIN`, from [`ACTIONS`], with its note as a comment.
fn uses(name: &str) -> String {
    let action = ACTIONS
        .iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("{name} is not in the table of actions"));
    let note = if action.note.is_empty() {
        String::new()
    } else {
        format!(" # {}", action.note)
    };
    format!("uses: {}@{}{note}", action.name, action.pin)
}

/// What the comment workflow starts on: the gate's `name:`.
const GATE_NAME: &str = "bench-gate";

/// One `ab` run of the gate: its metric and whether it decides the job.
struct AbStep {
    metric: &'static str,
    gates: bool,
}

impl AbStep {
    /// Its results file without `.json`, which is also the directory
    /// `ab` fills beside it and, with `.md`, its markdown.
    fn stem(&self) -> String {
        format!("ab-{}", self.metric)
    }

    /// What the comment calls it when it wrote nothing.
    fn what(&self) -> &'static str {
        match self.metric {
            "instructions" => "instruction",
            other => other,
        }
    }
}

/// The `ab` runs: instructions when the program counts them, then time,
/// which decides only without counts or with `time_gates`.
fn ab_steps(count: bool, time_gates: bool) -> Vec<AbStep> {
    let mut steps = Vec::new();
    if count {
        steps.push(AbStep {
            metric: "instructions",
            gates: true,
        });
    }
    steps.push(AbStep {
        metric: "time",
        gates: time_gates || !count,
    });
    steps
}

/// `text` as `#` comment lines at `indent`, wrapped before 76 columns;
/// paragraphs (`\n\n`) apart by a bare `#`.
fn comment(out: &mut String, indent: usize, text: &str) {
    let pad = " ".repeat(indent);
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            writeln!(out, "{pad}#").expect("writing to a String");
        }
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && indent + 2 + line.len() + 1 + word.len() > 76 {
                writeln!(out, "{pad}# {line}").expect("writing to a String");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        writeln!(out, "{pad}# {line}").expect("writing to a String");
    }
}

/// The gate's opening comment: what decides, what is reported, where the
/// report goes, and what it was written for.
fn gate_comment(out: &mut String, project: &Project, time_gates: bool) {
    let program = &project.binary;
    let decides = match (project.count, time_gates) {
        (true, false) => format!(
            " and their instruction counts (callgrind, through gungraun: exact and repeatable, \
             so they do not flake the way wall-clock time on a shared runner does); those two \
             decide the job. Paired time is measured too and written to the summary, but does \
             not fail the job (`{program} ci --init --time-gates` writes a gate where it does). \
             Variants valgrind cannot run (AVX-512) are recorded as not countable, never gated."
        ),
        (true, true) => ", their instruction counts (callgrind, through gungraun: exact and \
             repeatable) and their paired time; all three decide the job (written with \
             `--time-gates`: time on a shared runner can move by itself, so a time verdict may \
             be the runner's). Variants valgrind cannot run (AVX-512) are recorded as not \
             countable, never gated."
            .to_owned(),
        (false, _) => format!(
            " and their paired time; those two decide the job. Instructions are not counted: \
             {program} is built without bitbench's `count` feature. Add features = [\"count\"] \
             to its bitbench dependency in Cargo.toml and run `{program} ci --init` again for \
             the exact instruction gate, which does not flake the way wall-clock time on a \
             shared runner does."
        ),
    };
    let within = if project.dir.is_empty() {
        String::new()
    } else {
        format!(", in {}/", project.dir)
    };
    let dependency = project
        .dependency
        .as_ref()
        .map_or_else(String::new, |d| format!("; bitbench {d}"));
    comment(
        out,
        0,
        &format!(
            "Regression gate: a paired A/B of the pull request's base and head, for {program} \
             (package {package}{within}{dependency}).\n\n\
             `{program} ab` builds both commits in this one job, on this one runner, so there \
             is always a baseline and the comparison is like with like. It compares both \
             builds' answers on the same inputs (a changed answer is \"broke\"){decides}\n\n\
             Where it changed: for each record whose figures moved, `ab` writes a per-function \
             table under its verdict and differential flame graphs into a directory beside its \
             results file (`--out X.json` fills `X/`). Each step's markdown goes to the job \
             summary and into one `comment.md`, uploaded with the results, their directories \
             and the pull request's number as the artifact `ab`. This workflow posts nothing \
             itself: it runs the pull request's code, so its token stays read-only (a pull \
             request from a fork gets a read-only token anyway). bench-comment.yml, started \
             when this workflow completes, posts `comment.md` to the pull request without \
             running any of its code.",
            package = project.package,
        ),
    );
}

/// `cargo run` of the program, from the workspace's root: it finds the
/// binary wherever the target directory is.
fn program(project: &Project) -> String {
    format!(
        "cargo run --release --quiet -p {} --bin {} --",
        project.package, project.binary
    )
}

/// The text of `bench-gate.yml` for `project` (without the header line).
pub fn gate(project: &Project, time_gates: bool) -> String {
    let mut out = String::new();
    gate_comment(&mut out, project, time_gates);
    write!(
        out,
        "name: {GATE_NAME}\n\n\
         on:\n  pull_request:\n\n\
         # Read-only: this workflow builds and runs the pull request's code, which\n\
         # must never hold a token that can write to the repository.\n\
         permissions:\n  contents: read\n\n\
         jobs:\n  ab:\n    runs-on: ubuntu-latest\n"
    )
    .expect("writing to a String");
    if !project.dir.is_empty() {
        write!(
            out,
            "    # The workspace's root: where cargo runs and `ab` writes its files.\n\
             \x20   defaults:\n      run:\n        working-directory: {}\n",
            project.dir
        )
        .expect("writing to a String");
    }
    setup_steps(&mut out, project);
    let steps = ab_steps(project.count, time_gates);
    comment(
        &mut out,
        6,
        "Each step's markdown goes to the job summary and to a file of its own, which the \
         comment is made of; pipefail keeps `ab`'s exit code.",
    );
    for (i, step) in steps.iter().enumerate() {
        ab_step(&mut out, project, step, i == 0);
    }
    collect_step(&mut out, &project.binary, &steps);
    upload_step(&mut out, &project.dir, &steps);
    out
}

/// Checkout, toolchain, cache, build and (with counts) the tools.
fn setup_steps(out: &mut String, project: &Project) {
    write!(
        out,
        "    steps:\n\
         \x20     - {checkout}\n\
         \x20       with:\n\
         \x20         # Every commit, so the base revision can be exported and built.\n\
         \x20         fetch-depth: 0\n\
         \x20         # No token left in .git/config for the pull request's code to find.\n\
         \x20         persist-credentials: false\n",
        checkout = uses("actions/checkout"),
    )
    .expect("writing to a String");
    let figures = if project.count { "counts" } else { "figures" };
    let why = if super::project::is_exact(&project.toolchain) {
        format!(": an exact version, so a new release cannot change the {figures} by itself")
    } else {
        String::new()
    };
    comment(
        out,
        6,
        &format!(
            "Rust {}, from {}{why}.",
            project.toolchain, project.toolchain_from
        ),
    );
    write!(
        out,
        "      - {toolchain}\n\
         \x20       with:\n\
         \x20         toolchain: {version}\n\
         \x20     - {cache}\n",
        toolchain = uses("dtolnay/rust-toolchain"),
        version = project.toolchain,
        cache = uses("Swatinem/rust-cache"),
    )
    .expect("writing to a String");
    if !project.dir.is_empty() {
        write!(
            out,
            "        with:\n          workspaces: {} -> target\n",
            project.dir
        )
        .expect("writing to a String");
    }
    write!(
        out,
        "      - name: Build {binary}\n\
         \x20       run: cargo build --release -p {package} --bin {binary}\n",
        binary = project.binary,
        package = project.package,
    )
    .expect("writing to a String");
    if project.count {
        comment(
            out,
            6,
            &format!(
                "valgrind, and gungraun-runner at exactly the version {} links: the program \
                 installs its own tools, each only when missing.",
                project.binary
            ),
        );
        write!(
            out,
            "      - name: Install valgrind and gungraun-runner\n\
             \x20       run: {} ci --install-tools\n",
            program(project)
        )
        .expect("writing to a String");
    }
}

/// One `ab` run; after the first, it runs when the first failed too, so
/// the pull request hears of every metric.
fn ab_step(out: &mut String, project: &Project, step: &AbStep, first: bool) {
    let name = match (step.metric, step.gates, project.count) {
        ("instructions", _, _) => "Gate on answers and instructions",
        (_, true, true) => "Gate on paired time",
        (_, true, false) => "Gate on answers and paired time",
        _ => "Paired time (reported, not gated)",
    };
    writeln!(out, "      - name: {name}").expect("writing to a String");
    if !first {
        writeln!(out, "        if: ${{{{ !cancelled() }}}}").expect("writing to a String");
    }
    if !step.gates {
        writeln!(out, "        continue-on-error: true").expect("writing to a String");
    }
    let stem = step.stem();
    write!(
        out,
        "        run: |\n\
         \x20         set -o pipefail\n\
         \x20         {program} \\\n\
         \x20           ab \"${{{{ github.event.pull_request.base.sha }}}}\" HEAD \\\n\
         \x20           --metric {metric} --format markdown --out {stem}.json \\\n\
         \x20           | tee -a \"$GITHUB_STEP_SUMMARY\" {stem}.md\n",
        program = program(project),
        metric = step.metric,
    )
    .expect("writing to a String");
}

/// The step that makes `comment.md` of the steps' markdown and keeps the
/// pull request's number beside it.
fn collect_step(out: &mut String, program: &str, steps: &[AbStep]) {
    comment(
        out,
        6,
        "Always, so that a failed gate (a regression, a changed answer, a build that broke) \
         still tells the pull request. A `workflow_run` event does not reliably carry the pull \
         request's number (not at all for a fork's), so the number travels in the artifact; \
         the comment workflow checks it. The values come in through `env:`, never pasted into \
         the script.",
    );
    out.push_str(
        "      - name: Collect the pull-request comment\n\
         \x20       if: always()\n\
         \x20       env:\n\
         \x20         PR_NUMBER: ${{ github.event.pull_request.number }}\n\
         \x20       run: |\n\
         \x20         # A comment holds 65,536 characters; the job summary has it all.\n\
         \x20         limit=60000\n\
         \x20         {\n",
    );
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            out.push_str("            echo\n");
        }
        write!(
            out,
            "            cat {stem}.md 2>/dev/null \\\n\
             \x20             || echo \"_The {what} step wrote no report: see the run's log._\"\n",
            stem = step.stem(),
            what = step.what(),
        )
        .expect("writing to a String");
    }
    write!(
        out,
        "          }} > ab-body.md\n\
         \x20         {{\n\
         \x20           echo \"## {GATE_NAME}: \\`{program} ab\\` of the base and this pull request\"\n\
         \x20           echo\n\
         \x20           head -c \"$limit\" ab-body.md\n\
         \x20           if [ \"$(wc -c < ab-body.md)\" -gt \"$limit\" ]; then\n\
         \x20             echo\n\
         \x20             echo \"_Cut at $limit bytes: the run's job summary has the whole report._\"\n\
         \x20           fi\n\
         \x20           echo\n\
         \x20           echo \"The flame graphs, profiles and JSON results are in the \\`ab\\` artifact of\" \\\n\
         \x20             \"[this workflow run]($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID).\"\n\
         \x20         }} > comment.md\n\
         \x20         printf '%s\\n' \"$PR_NUMBER\" > pr-number\n"
    )
    .expect("writing to a String");
}

/// The artifact: every results file and its directory, the comment and
/// the number, from the workspace's root (an action's paths are the
/// repository's, whatever the steps' working directory).
fn upload_step(out: &mut String, dir: &str, steps: &[AbStep]) {
    comment(
        out,
        6,
        "The results, the directory beside each (kept callgrind profiles, flame graphs \
         `<record>.svg` and `<record>.vanished.svg`), the comment and the number: all that \
         bench-comment.yml and a reader need.",
    );
    write!(
        out,
        "      - {}\n\
         \x20       if: always()\n\
         \x20       with:\n\
         \x20         name: ab\n\
         \x20         path: |\n",
        uses("actions/upload-artifact")
    )
    .expect("writing to a String");
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let mut paths: Vec<String> = steps
        .iter()
        .flat_map(|s| [format!("{}.json", s.stem()), format!("{}/", s.stem())])
        .collect();
    paths.extend(["comment.md".to_owned(), "pr-number".to_owned()]);
    for path in paths {
        writeln!(out, "            {prefix}{path}").expect("writing to a String");
    }
}

/// The text of `bench-comment.yml` (without the header line): the same
/// for every program, since it runs none of the program's code.
pub fn comment_workflow() -> String {
    let mut out = String::new();
    comment(
        &mut out,
        0,
        "Posts the regression gate's report (bench-gate.yml) to its pull request as one \
         comment, updated on every push.\n\n\
         The gate runs the pull request's code, so it has a read-only token (and a pull \
         request from a fork gets nothing else). This workflow has the token that can \
         comment, so it runs none of the pull request's code: it starts when the gate \
         completes (`workflow_run` runs this file as it is on the default branch, never the \
         pull request's copy), checks nothing out, builds and runs nothing, and only reads the \
         two files the gate uploaded: the markdown to post and the pull request's number. Both \
         come from a run of the pull request's code, so both are treated as untrusted: the \
         number must be digits and must name a pull request whose head is the commit the gate \
         ran on; the markdown is only ever passed as a comment's body.",
    );
    out.push_str(
        &COMMENT_JOBS
            .replace("@DOWNLOAD@", &uses("actions/download-artifact"))
            .replace("@STICKY@", &uses("marocchino/sticky-pull-request-comment"))
            .replace("@GATE@", GATE_NAME),
    );
    out
}

/// The comment workflow after its opening comment; `@DOWNLOAD@`,
/// `@STICKY@` and `@GATE@` are put in by [`comment_workflow`].
const COMMENT_JOBS: &str = r#"name: bench-comment

on:
  workflow_run:
    # The gate's `name:`.
    workflows: [@GATE@]
    types: [completed]

# Write to pull requests' comments, read other runs' artifacts; nothing
# else (no contents, no checks).
permissions:
  actions: read
  pull-requests: write

jobs:
  comment:
    # Only a run for a pull request has one to comment on; a gate that was
    # cancelled or skipped uploaded nothing to post.
    if: >-
      github.event.workflow_run.event == 'pull_request' &&
      (github.event.workflow_run.conclusion == 'success' ||
       github.event.workflow_run.conclusion == 'failure')
    runs-on: ubuntu-latest
    steps:
      # The artifact of the run that triggered this one, not of this run:
      # that takes its id and a token that may read the repository's runs.
      - @DOWNLOAD@
        with:
          name: ab
          path: ab
          run-id: ${{ github.event.workflow_run.id }}
          github-token: ${{ secrets.GITHUB_TOKEN }}
      - name: Read the pull request's number
        id: pr
        run: |
          number=$(cat ab/pr-number)
          if ! [[ "$number" =~ ^[0-9]+$ ]]; then
            echo "::error::pr-number is not a pull request's number"
            exit 1
          fi
          echo "number=$number" >> "$GITHUB_OUTPUT"
      # A gate's run on an older push may finish after a newer one: post
      # only if the pull request's head is still the commit this run gated,
      # which also keeps a number pointing at another pull request from
      # getting this comment.
      - name: Check that the pull request's head is the commit gated
        id: head
        env:
          GH_TOKEN: ${{ github.token }}
          NUMBER: ${{ steps.pr.outputs.number }}
          GATED: ${{ github.event.workflow_run.head_sha }}
        run: |
          head=$(gh api "repos/$GITHUB_REPOSITORY/pulls/$NUMBER" --jq .head.sha)
          if [ "$head" = "$GATED" ]; then
            echo "current=true" >> "$GITHUB_OUTPUT"
          else
            echo "::notice::pull request $NUMBER is at $head, not the gated $GATED: not posting"
            echo "current=false" >> "$GITHUB_OUTPUT"
          fi
      # One comment per pull request, found again by its hidden header and
      # updated on every push; it posts to `number:` on a `workflow_run`
      # event.
      - @STICKY@
        if: steps.head.outputs.current == 'true'
        with:
          header: @GATE@
          number: ${{ steps.pr.outputs.number }}
          path: ab/comment.md
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn project(count: bool, dir: &str) -> Project {
        Project {
            package: "hexbench".into(),
            binary: "hexbench".into(),
            repo: "/repo".into(),
            dir: dir.into(),
            toolchain: "1.95.0".into(),
            toolchain_from: "the package's rust-version (1.95)".into(),
            count,
            dependency: Some("from git (https://example.invalid/bitbench)".into()),
        }
    }

    /// Every `uses:` of a text, as `NAME@PIN`.
    fn used(text: &str) -> Vec<&str> {
        text.lines()
            .filter_map(|l| {
                l.trim_start()
                    .trim_start_matches("- ")
                    .strip_prefix("uses: ")
            })
            .map(|u| u.split(" #").next().unwrap_or(u))
            .collect()
    }

    #[test]
    fn every_action_is_pinned_from_the_table_by_a_tag_or_a_full_commit() {
        for action in &ACTIONS {
            let tag = action.pin.strip_prefix('v').is_some_and(|v| {
                v.split('.')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            });
            let commit =
                action.pin.len() == 40 && action.pin.bytes().all(|b| b.is_ascii_hexdigit());
            assert!(tag || commit, "{}@{}", action.name, action.pin);
            assert_eq!(commit, !action.note.is_empty(), "a commit says what it is");
        }
        let texts = [
            gate(&project(true, ""), false),
            gate(&project(false, "kernel"), false),
            comment_workflow(),
        ];
        let mut seen = Vec::new();
        for text in &texts {
            for u in used(text) {
                assert!(
                    ACTIONS.iter().any(|a| u == format!("{}@{}", a.name, a.pin)),
                    "{u}"
                );
                seen.push(u.split('@').next().unwrap().to_owned());
            }
        }
        for action in &ACTIONS {
            assert!(
                seen.iter().any(|s| s == action.name),
                "{} unused",
                action.name
            );
        }
    }

    #[test]
    fn without_counts_time_decides_and_no_tools_are_installed() {
        let text = gate(&project(false, ""), false);
        assert!(!text.contains("--install-tools"), "{text}");
        assert!(!text.contains("--metric instructions"), "{text}");
        assert!(text.contains("Gate on answers and paired time"), "{text}");
        assert!(!text.contains("continue-on-error"), "{text}");
        assert!(text.contains("features = [\"count\"]"), "{text}");
        // The same program with counts: instructions decide, time does not
        // unless told.
        let counted = gate(&project(true, ""), false);
        assert!(counted.contains("hexbench --bin hexbench -- ci --install-tools"));
        assert_eq!(counted.matches("continue-on-error: true").count(), 1);
        let both = gate(&project(true, ""), true);
        assert!(!both.contains("continue-on-error"), "{both}");
        assert!(both.contains("Gate on paired time"), "{both}");
    }

    #[test]
    fn a_workspace_below_the_root_runs_there_and_uploads_from_there() {
        let text = gate(&project(true, "crates/kernel"), false);
        assert!(text.contains("        working-directory: crates/kernel\n"));
        assert!(text.contains("          workspaces: crates/kernel -> target\n"));
        assert!(text.contains("            crates/kernel/comment.md\n"));
        assert!(text.contains("            crates/kernel/ab-time/\n"));
        assert!(text.contains("in crates/kernel/"), "{text}");
        let root = gate(&project(true, ""), false);
        assert!(!root.contains("working-directory") && !root.contains("workspaces:"));
    }

    #[test]
    fn comments_wrap_before_76_columns_and_keep_paragraphs() {
        let mut out = String::new();
        let words = "word ".repeat(40);
        comment(&mut out, 6, &format!("{words}\n\nnext"));
        assert!(out.lines().all(|l| l.len() <= 76), "{out}");
        assert!(out.lines().all(|l| l.starts_with("      #")), "{out}");
        assert!(out.contains("\n      #\n      # next\n"), "{out}");
    }
}
