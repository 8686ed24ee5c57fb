//! The CI gate's workflow file says what the README promises: `ab` of the
//! pull request's base commit, a full clone (the base must be exportable)
//! and an exact toolchain (a new stable must not move the counts).

use std::path::Path;

/// One step of the workflow: its `uses:` and the text of its `run:` block.
#[derive(Debug, Default)]
struct Step {
    uses: String,
    with: Vec<String>,
    run: String,
}

/// The steps of the workflow's jobs, read with a purpose-written reader of
/// the YAML subset the file uses (`- uses:`/`- name:` items, `with:` maps,
/// `run: |` blocks), not a general YAML parser.
fn steps(yaml: &str) -> Vec<Step> {
    let yaml = &yaml[yaml.find("steps:").expect("the workflow has steps")..];
    let mut steps: Vec<Step> = Vec::new();
    let mut block: Option<(usize, &'static str)> = None;
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if let Some((at, what)) = block {
            if indent > at {
                let step = steps.last_mut().expect("a block belongs to a step");
                match what {
                    "run" => {
                        step.run.push_str(text);
                        step.run.push('\n');
                    }
                    _ => step.with.push(text.to_owned()),
                }
                continue;
            }
            block = None;
        }
        let item = text.strip_prefix("- ");
        if item.is_some() {
            steps.push(Step::default());
        }
        let field = item.unwrap_or(text);
        let Some(step) = steps.last_mut() else {
            continue;
        };
        if let Some(uses) = field.strip_prefix("uses: ") {
            step.uses = uses.trim().to_owned();
        } else if field == "with:" {
            block = Some((indent, "with"));
        } else if let Some(run) = field.strip_prefix("run: ") {
            if run.trim() == "|" {
                block = Some((indent, "run"));
            } else {
                step.run = run.to_owned();
            }
        }
    }
    steps
}

#[test]
fn the_gate_runs_ab_on_the_base_commit_with_full_history_and_a_pinned_toolchain() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.github/workflows/bench-gate.yml");
    let yaml = std::fs::read_to_string(&path).expect("the workflow exists");
    let steps = steps(&yaml);
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
    assert!(
        checkout.with.iter().any(|w| w == "fetch-depth: 0"),
        "{checkout:#?}"
    );

    let toolchain = steps
        .iter()
        .find(|s| s.uses.starts_with("dtolnay/rust-toolchain@"))
        .expect("a toolchain step");
    let version = toolchain.uses.trim_start_matches("dtolnay/rust-toolchain@");
    let pinned =
        version.split('.').count() == 3 && version.split('.').all(|p| p.parse::<u32>().is_ok());
    assert!(pinned, "toolchain not an exact version: {version}");
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rust-toolchain.toml")
            .exists()
    );
}
