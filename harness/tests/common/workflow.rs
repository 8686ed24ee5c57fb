//! A reader of the YAML subset our GitHub Actions workflows use (jobs,
//! `- name:`/`- uses:` steps with `with:` maps and `run: |` blocks,
//! `key: value` lines and `- item` lists), so that each workflow test can
//! assert the keys that matter. Purpose-written rather than a YAML parser:
//! the workspace depends on none, and these files stay in this subset.

use std::path::Path;

/// The text of `path`, relative to the repository's root.
pub fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// One step of a job: its `name:`, `uses:`, `if:`, the lines of its `with:`
/// map and the text of its `run:` block.
#[derive(Debug, Default)]
pub struct Step {
    pub name: String,
    pub uses: String,
    pub condition: String,
    pub with: Vec<String>,
    pub run: String,
}

impl Step {
    /// The value of `key` in the step's `with:` map.
    pub fn with(&self, key: &str) -> Option<&str> {
        self.with
            .iter()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
            .map(|v| unquote(v.trim()))
    }
}

/// One job: its id and its lines (the lines below `  ID:` up to the next job).
#[derive(Debug)]
pub struct Job {
    pub id: String,
    pub text: String,
}

impl Job {
    /// The job's steps.
    pub fn steps(&self) -> Vec<Step> {
        steps(&self.text)
    }

    /// The first `key: value` anywhere in the job (a list item's too).
    pub fn value(&self, key: &str) -> Option<String> {
        values(&self.text, key).into_iter().next()
    }
}

/// The lines of the top-level section `key` (say `jobs:`), with their
/// indent, blank and comment lines left out: what `jobs` and `events` read.
fn section<'a>(yaml: &'a str, key: &str) -> Vec<(usize, &'a str)> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if indent == 0 {
            inside = text == key;
        } else if inside {
            lines.push((indent, line));
        }
    }
    lines
}

/// The jobs under `jobs:`, in order.
pub fn jobs(yaml: &str) -> Vec<Job> {
    let mut jobs: Vec<Job> = Vec::new();
    for (indent, line) in section(yaml, "jobs:") {
        match line.trim().strip_suffix(':') {
            Some(id) if indent == 2 => jobs.push(Job {
                id: id.to_owned(),
                text: String::new(),
            }),
            _ => {
                let job = jobs.last_mut().expect("a job's line follows its id");
                job.text.push_str(line);
                job.text.push('\n');
            }
        }
    }
    jobs
}

/// The keys of the top-level `on:` map: the events that start the workflow.
pub fn events(yaml: &str) -> Vec<String> {
    section(yaml, "on:")
        .into_iter()
        .filter(|&(indent, _)| indent == 2)
        .map(|(_, line)| line.trim().trim_end_matches(':').to_owned())
        .collect()
}

/// Every value of `key: value` lines in `text` (list items' too), unquoted.
pub fn values(text: &str, key: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let field = line.trim();
            let field = field.strip_prefix("- ").unwrap_or(field);
            let value = field.strip_prefix(key)?.strip_prefix(':')?.trim();
            (!value.is_empty()).then(|| unquote(value).to_owned())
        })
        .collect()
}

/// The items of the first `key:` list in `text` (`- item` lines below it).
pub fn list(text: &str, key: &str) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| l.trim() != format!("{key}:"));
    let Some(head) = lines.next() else {
        return Vec::new();
    };
    let at = head.len() - head.trim_start().len();
    lines
        .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .take_while(|l| l.len() - l.trim_start().len() >= at && l.trim().starts_with("- "))
        .map(|l| unquote(l.trim()[2..].trim()).to_owned())
        .collect()
}

/// The steps under the first `steps:` in `text`.
pub fn steps(text: &str) -> Vec<Step> {
    let Some(at) = text.find("steps:") else {
        return Vec::new();
    };
    let mut steps: Vec<Step> = Vec::new();
    let mut block: Option<(usize, &'static str)> = None;
    for line in text[at..].lines() {
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
        } else if let Some(name) = field.strip_prefix("name: ") {
            step.name = unquote(name.trim()).to_owned();
        } else if let Some(condition) = field.strip_prefix("if: ") {
            step.condition = condition.trim().to_owned();
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

/// The toolchain a `dtolnay/rust-toolchain@VERSION` step installs, asserting
/// that it is an exact version (a new stable must not move the figures).
pub fn pinned_toolchain(steps: &[Step]) -> String {
    let toolchain = steps
        .iter()
        .find(|s| s.uses.starts_with("dtolnay/rust-toolchain@"))
        .expect("a toolchain step");
    let version = toolchain.uses.trim_start_matches("dtolnay/rust-toolchain@");
    let pinned =
        version.split('.').count() == 3 && version.split('.').all(|p| p.parse::<u32>().is_ok());
    assert!(pinned, "toolchain not an exact version: {version}");
    version.to_owned()
}

fn unquote(value: &str) -> &str {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(value)
}
