//! Reads the repository's YAML files (the GitHub Actions workflows,
//! ClusterFuzzLite's `project.yaml`) with `yaml-rust2`, a YAML 1.2 parser
//! that passes the YAML test suite, so that each workflow test asserts what
//! GitHub reads: block scalars, quoting, flow lists, anchors and duplicate
//! keys (an error, as on GitHub) are the parser's business, not ours. What is
//! here walks the parsed tree (jobs, steps, `with:` maps, permissions) and
//! runs a job's `run:` steps locally as a runner would ([`run_job`]).

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

/// The toolchain a `dtolnay/rust-toolchain` step installs, asserting that
/// it is an exact version (a new stable must not move the figures): its
/// `toolchain:` input where it has one (the action pinned by a commit),
/// else the ref (`@1.95.0`, a branch of that repository naming it).
pub fn pinned_toolchain(steps: &[Step]) -> String {
    let toolchain = steps
        .iter()
        .find(|s| s.uses.starts_with("dtolnay/rust-toolchain@"))
        .expect("a toolchain step");
    let version = toolchain
        .with("toolchain")
        .unwrap_or_else(|| toolchain.uses.trim_start_matches("dtolnay/rust-toolchain@"));
    let pinned =
        version.split('.').count() == 3 && version.split('.').all(|p| p.parse::<u32>().is_ok());
    assert!(pinned, "toolchain not an exact version: {version}");
    version.to_owned()
}

/// Asserts that `uses` names an action pinned by a release tag (`v4`,
/// `v2.9.4`) or a full commit, never a branch or a bare name.
pub fn assert_pinned(uses: &str) {
    let (action, pin) = uses
        .split_once('@')
        .unwrap_or_else(|| panic!("{uses}: no @pin"));
    assert!(action.split('/').count() >= 2, "{uses}: not OWNER/REPO");
    let tag = pin.strip_prefix('v').is_some_and(|v| {
        v.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    });
    let commit = pin.len() == 40 && pin.bytes().all(|b| b.is_ascii_hexdigit());
    assert!(
        tag || commit,
        "{uses}: pinned neither by a release tag nor a commit"
    );
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

/// What one step of [`run_job`] did.
#[derive(Debug)]
pub struct Ran {
    /// The step's `name:`, or `uses: ACTION` for an action.
    pub name: String,
    /// Its exit code; `None` when it did not run (an action, or a step
    /// its `if:` skipped).
    pub code: Option<i32>,
    /// Its stdout and stderr.
    pub output: String,
}

/// What a workflow's expressions read: the event, the `github` context's
/// scalars and the outputs of the steps that ran.
struct Context<'a> {
    event: &'a serde_json::Value,
    github: Vec<(String, String)>,
    outputs: Vec<(String, String, String)>,
}

impl Context<'_> {
    /// The value of `${{ expression }}`, as GitHub substitutes it; panics
    /// on what this runner does not know, so no test passes on an empty
    /// string where GitHub would have put something.
    fn value(&self, expression: &str) -> String {
        if let Some(path) = expression.strip_prefix("github.event.") {
            let mut at = self.event;
            for key in path.split('.') {
                at = &at[key];
            }
            return match at {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                other => panic!("the event has no scalar {path}: {other}"),
            };
        }
        if let Some(rest) = expression.strip_prefix("steps.") {
            let (id, name) = rest
                .split_once(".outputs.")
                .unwrap_or_else(|| panic!("not a step's output: {expression}"));
            return self
                .outputs
                .iter()
                .find(|(i, n, _)| i == id && n == name)
                .map(|(_, _, v)| v.clone())
                .unwrap_or_default();
        }
        if let Some(key) = expression.strip_prefix("github.")
            && let Some((_, v)) = self.github.iter().find(|(k, _)| k == key)
        {
            return v.clone();
        }
        panic!("the local runner does not know ${{{{ {expression} }}}}")
    }

    /// `text` with every `${{ … }}` replaced by its value.
    fn substitute(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("${{") {
            out.push_str(&rest[..at]);
            let end = rest[at..].find("}}").expect("an expression ends") + at;
            out.push_str(&self.value(rest[at + 3..end].trim()));
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }
}

/// Whether a step with `if: condition` runs, the job having `failed` so
/// far; panics on a condition this runner cannot decide.
fn runs(condition: &str, failed: bool) -> bool {
    let c = condition.trim();
    let c = c
        .strip_prefix("${{")
        .and_then(|c| c.strip_suffix("}}"))
        .unwrap_or(c)
        .trim();
    match c {
        "" | "success()" => !failed,
        "always()" | "!cancelled()" => true,
        "failure()" => failed,
        other => panic!("the local runner cannot decide `if: {other}`"),
    }
}

/// The working directory GitHub gives `step`'s script: its own
/// `working-directory`, else the job's `defaults.run`, else the
/// workflow's, relative to `workspace`.
fn working_directory(doc: &Yaml, job: &Job, step: &Step, workspace: &Path) -> std::path::PathBuf {
    let own = step
        .yaml
        .as_ref()
        .and_then(|y| scalar(&y["working-directory"]));
    let default = |y: &Yaml| scalar(&y["defaults"]["run"]["working-directory"]);
    match own.or_else(|| default(&job.yaml)).or_else(|| default(doc)) {
        Some(dir) => workspace.join(dir),
        None => workspace.to_owned(),
    }
}

/// Runs `job` of `doc` as a GitHub runner on Linux would, in `workspace`
/// (the checkout), its `run:` steps in order: each step's `if:` against
/// the job's state so far, `continue-on-error`, the `env:` of the
/// workflow, job and step, `${{ … }}` substituted from `event` (the
/// event's payload, also written to `$GITHUB_EVENT_PATH`) and the steps'
/// outputs, the files `$GITHUB_STEP_SUMMARY`, `$GITHUB_OUTPUT` (one per
/// step) and `$GITHUB_ENV` (read back for the steps after) in `runner`,
/// and `env` on top. An action (`uses:`) cannot run here: it is checked
/// for its form ([`assert_pinned`]) and skipped.
pub fn run_job(
    doc: &Yaml,
    job: &Job,
    workspace: &Path,
    runner: &Path,
    event: &serde_json::Value,
    env: &[(&str, &str)],
) -> Vec<Ran> {
    std::fs::create_dir_all(runner).unwrap();
    let event_path = runner.join("event.json");
    std::fs::write(&event_path, event.to_string()).unwrap();
    let summary = runner.join("step-summary.md");
    let github_env = runner.join("github-env");
    std::fs::write(&github_env, "").unwrap();
    let mut context = Context {
        event,
        github: vec![("workspace".into(), workspace.display().to_string())],
        outputs: Vec::new(),
    };
    for (k, v) in env {
        if let Some(key) = k.strip_prefix("GITHUB_") {
            context.github.push((key.to_lowercase(), (*v).to_owned()));
        }
    }
    let mut exported: Vec<(String, String)> = Vec::new();
    let mut failed = false;
    let mut ran = Vec::new();
    for (i, step) in job.steps().iter().enumerate() {
        if !step.uses.is_empty() {
            assert_pinned(&step.uses);
            ran.push(Ran {
                name: format!("uses: {}", step.uses),
                code: None,
                output: String::new(),
            });
            continue;
        }
        if !runs(&step.condition, failed) {
            ran.push(Ran {
                name: step.name.clone(),
                code: None,
                output: String::new(),
            });
            continue;
        }
        let output = runner.join(format!("github-output-{i}"));
        std::fs::write(&output, "").unwrap();
        let mut vars: Vec<(String, String)> = vec![
            ("CI".into(), "true".into()),
            ("GITHUB_ACTIONS".into(), "true".into()),
            ("GITHUB_WORKSPACE".into(), workspace.display().to_string()),
            ("GITHUB_EVENT_PATH".into(), event_path.display().to_string()),
            ("GITHUB_STEP_SUMMARY".into(), summary.display().to_string()),
            ("GITHUB_OUTPUT".into(), output.display().to_string()),
            ("GITHUB_ENV".into(), github_env.display().to_string()),
        ];
        vars.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        vars.extend(exported.iter().cloned());
        for scope in [&doc["env"], &job.yaml["env"]] {
            if let Some(h) = scope.as_hash() {
                for (k, v) in h {
                    let value = context.substitute(&scalar(v).unwrap_or_default());
                    vars.push((scalar(k).unwrap(), value));
                }
            }
        }
        for (k, v) in &step.env {
            vars.push((k.clone(), context.substitute(v)));
        }
        let out = std::process::Command::new("bash")
            .args(["--noprofile", "--norc", "-e", "-c"])
            .arg(context.substitute(&step.run))
            .current_dir(working_directory(doc, job, step, workspace))
            .envs(vars)
            .output()
            .expect("bash runs");
        let code = out.status.code().unwrap_or(-1);
        let keeps_going = step
            .yaml
            .as_ref()
            .is_some_and(|y| y["continue-on-error"] == Yaml::Boolean(true));
        failed |= code != 0 && !keeps_going;
        for line in std::fs::read_to_string(&output).unwrap().lines() {
            let (name, value) = line
                .split_once('=')
                .unwrap_or_else(|| panic!("a `name=value` output line: {line}"));
            context
                .outputs
                .push((step.id.clone(), name.to_owned(), value.to_owned()));
        }
        exported = std::fs::read_to_string(&github_env)
            .unwrap()
            .lines()
            .map(|l| {
                let (k, v) = l
                    .split_once('=')
                    .unwrap_or_else(|| panic!("a `NAME=value` line in $GITHUB_ENV: {l}"));
                (k.to_owned(), v.to_owned())
            })
            .collect();
        ran.push(Ran {
            name: step.name.clone(),
            code: Some(code),
            output: format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        });
    }
    ran
}
