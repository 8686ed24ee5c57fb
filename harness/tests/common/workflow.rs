//! Reads the repository's YAML files (the GitHub Actions workflows,
//! ClusterFuzzLite's `project.yaml`) with `yaml-rust2`, a YAML 1.2 parser
//! that passes the YAML test suite, so that each workflow test asserts what
//! GitHub reads: block scalars, quoting, flow lists, anchors and duplicate
//! keys (an error, as on GitHub) are the parser's business, not ours. What is
//! here only walks the parsed tree: jobs, steps, `with:` maps, permissions.

use std::path::Path;

pub use yaml_rust2::Yaml;

/// The text of `path`, relative to the repository's root.
pub fn read(path: &str) -> String {
    let full = super::root().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The one YAML document in `text`, which must be a mapping.
pub fn parse(text: &str) -> Yaml {
    let mut docs = yaml_rust2::YamlLoader::load_from_str(text)
        .unwrap_or_else(|e| panic!("not valid YAML: {e}\n{text}"));
    assert_eq!(docs.len(), 1, "one YAML document: {text}");
    let doc = docs.remove(0);
    assert!(doc.as_hash().is_some(), "a mapping at the top: {doc:?}");
    doc
}

/// The parsed file at `path`, relative to the repository's root.
pub fn load(path: &str) -> Yaml {
    parse(&read(path))
}

/// A scalar as the text GitHub substitutes for it: `fetch-depth: 0` is
/// `"0"`, `count: true` is `"true"`. `None` for a map, a list or nothing.
pub fn scalar(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A scalar or a list of scalars as a list (GitHub takes `needs: a` and
/// `needs: [a, b]` alike); empty for anything else.
pub fn strings(y: &Yaml) -> Vec<String> {
    match y {
        Yaml::Array(items) => items.iter().filter_map(scalar).collect(),
        other => scalar(other).into_iter().collect(),
    }
}

/// The keys of a mapping, in the file's order; empty for anything else.
pub fn keys(y: &Yaml) -> Vec<String> {
    y.as_hash()
        .map(|h| h.keys().filter_map(scalar).collect())
        .unwrap_or_default()
}

/// Every scalar in `y`, keys and values, depth first: for asserting that
/// something (a secret, a word) appears nowhere in a workflow. Comments are
/// not in the parsed tree, so they never count.
pub fn all_scalars(y: &Yaml) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![y];
    while let Some(node) = stack.pop() {
        match node {
            Yaml::Array(items) => stack.extend(items.iter().rev()),
            Yaml::Hash(h) => {
                for (k, v) in h.iter().rev() {
                    stack.push(v);
                    stack.push(k);
                }
            }
            other => out.extend(scalar(other)),
        }
    }
    out
}

/// The workflow's `on:` value: the events that start it.
///
/// The YAML 1.1 gotcha: YAML 1.1 reads a plain `on` as the boolean `true`
/// (PyYAML turns `on:` into `True:`), while YAML 1.2, which both GitHub and
/// `yaml-rust2` implement, reads it as the string `"on"`. The string is
/// looked up first; a boolean `true` key is taken as `on` too, so a reader
/// of either version finds the events and no test passes by finding none.
pub fn on(doc: &Yaml) -> &Yaml {
    let h = doc.as_hash().expect("a workflow is a mapping");
    h.get(&Yaml::String("on".to_owned()))
        .or_else(|| h.get(&Yaml::Boolean(true)))
        .expect("a workflow has `on:`")
}

/// The names of the events that start the workflow, whichever of GitHub's
/// three forms `on:` takes: one event, a list, or a map of events.
pub fn events(doc: &Yaml) -> Vec<String> {
    match on(doc) {
        Yaml::Hash(_) => keys(on(doc)),
        other => strings(other),
    }
}

/// One job: its id and its parsed mapping.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: String,
    pub yaml: Yaml,
}

impl Job {
    /// The job's steps, in order.
    pub fn steps(&self) -> Vec<Step> {
        match &self.yaml["steps"] {
            Yaml::Array(steps) => steps.iter().map(Step::new).collect(),
            Yaml::BadValue => Vec::new(),
            other => panic!("job {}: `steps:` is not a list: {other:?}", self.id),
        }
    }

    /// The scalar at `key` of the job (`runs-on`, `if`).
    pub fn text(&self, key: &str) -> Option<String> {
        scalar(&self.yaml[key])
    }
}

/// The jobs under `jobs:`, in order.
pub fn jobs(doc: &Yaml) -> Vec<Job> {
    let jobs = doc["jobs"].as_hash().expect("a workflow has `jobs:`");
    jobs.iter()
        .map(|(id, job)| Job {
            id: scalar(id).expect("a job id"),
            yaml: job.clone(),
        })
        .collect()
}

/// The permissions a job's token has: the job's own `permissions:` if it
/// says any, else the workflow's (GitHub's rule). `Yaml::BadValue` when
/// neither says: then the repository's default applies, which may be write.
pub fn permissions<'a>(doc: &'a Yaml, job: &'a Job) -> &'a Yaml {
    match &job.yaml["permissions"] {
        Yaml::BadValue => &doc["permissions"],
        own => own,
    }
}

/// Whether `permissions` (as [`permissions`] returns it) grants no write:
/// `read-all`, `{}`, or a map whose every scope is `read` or `none`. Not
/// saying (the repository's default) is not read-only.
pub fn read_only(permissions: &Yaml) -> bool {
    match permissions {
        Yaml::String(s) => s == "read-all",
        Yaml::Hash(h) => h
            .values()
            .all(|v| matches!(scalar(v).as_deref(), Some("read" | "none"))),
        _ => false,
    }
}

/// One step of a job: its `name:`, `id:`, `uses:`, `if:`, `run:` script and
/// `with:` and `env:` maps (values as text), and the whole parsed step.
#[derive(Debug, Default)]
pub struct Step {
    pub name: String,
    pub id: String,
    pub uses: String,
    pub condition: String,
    pub run: String,
    pub with: Vec<(String, String)>,
    pub env: Vec<(String, String)>,
    pub yaml: Option<Yaml>,
}

impl Step {
    fn new(yaml: &Yaml) -> Step {
        assert!(yaml.as_hash().is_some(), "a step is a mapping: {yaml:?}");
        let text = |key: &str| scalar(&yaml[key]).unwrap_or_default();
        let map = |key: &str| {
            yaml[key]
                .as_hash()
                .map(|h| {
                    h.iter()
                        .map(|(k, v)| {
                            (scalar(k).unwrap_or_default(), scalar(v).unwrap_or_default())
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        Step {
            name: text("name"),
            id: text("id"),
            uses: text("uses"),
            condition: text("if"),
            run: text("run"),
            with: map("with"),
            env: map("env"),
            yaml: Some(yaml.clone()),
        }
    }

    /// The value of `key` in the step's `with:` map.
    pub fn with(&self, key: &str) -> Option<&str> {
        self.with
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `key` in the step's `env:` map.
    pub fn env(&self, key: &str) -> Option<&str> {
        self.env
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
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

/// Runs a step's `run:` script as GitHub's default shell on Linux does
/// (`bash -e`), in `dir`, with `env` added; for the scripts that do not
/// build or run bitbench and so can be tried here on made-up inputs.
pub fn run_script(step: &Step, dir: &Path, env: &[(&str, &str)]) -> std::process::Output {
    assert!(!step.run.is_empty(), "a step with a script: {step:#?}");
    std::process::Command::new("bash")
        .args(["--noprofile", "--norc", "-e", "-c", &step.run])
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .expect("bash runs")
}

/// The step of `steps` that `find` picks; panics naming `what` when none.
pub fn step<'a>(steps: &'a [Step], what: &str, find: impl Fn(&Step) -> bool) -> &'a Step {
    steps
        .iter()
        .find(|s| find(s))
        .unwrap_or_else(|| panic!("no step {what} in {steps:#?}"))
}
