//! Helpers shared by the CLI test binaries: run `bitbench`, read its output.
//!
//! Each test binary uses a subset of these, hence the `dead_code` allowance.
#![allow(dead_code)]

pub mod guide;
pub mod loop_fixture;
pub mod workflow;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the built `bitbench` with `args`, progress bars off (`CI=1`).
pub fn bitbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitbench"))
        .args(args)
        .env("CI", "1")
        .output()
        .expect("bitbench runs")
}

/// The stdout and stderr of `o`, as text.
pub fn text(o: &Output) -> (String, String) {
    (stdout(o), stderr(o))
}

/// The entries of `bitbench list --json`.
pub fn list_entries() -> Vec<serde_json::Value> {
    let list = bitbench(&["list", "--json"]);
    assert!(list.status.success(), "{}", stderr(&list));
    serde_json::from_slice(&list.stdout).expect("list --json is a JSON array")
}

/// The workloads of `list --json` entries, in order, each once.
pub fn workloads(entries: &[serde_json::Value]) -> Vec<String> {
    let mut names: Vec<String> = entries
        .iter()
        .map(|e| e["workload"].as_str().expect("a workload name").to_owned())
        .collect();
    names.dedup();
    names
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `bitbench-{name}-{pid}` in the temporary directory: a path of this test
/// process's own, which the caller creates and removes.
///
/// The process id keeps test binaries running side by side apart; `name`
/// keeps the tests of one binary apart, as they share the process and run
/// on parallel threads, so no two tests in a binary may share a name. A
/// file is `scratch(name).with_extension(ext)`, so `name` has no `.`.
pub fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bitbench-{name}-{}", std::process::id()))
}

/// [`scratch`]`(name)` as an empty directory: whatever an earlier run of a
/// process with the same id left there is removed first.
pub fn fresh_scratch(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Runs `bitbench` with `args` plus `--out` to a fresh temporary file, and
/// returns the run and the results file it wrote (parsed, the file removed).
/// Panics if the run fails.
pub fn bench_results(args: &[&str]) -> (Output, serde_json::Value) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = scratch(&format!("results-{n}")).with_extension("json");
    let mut all = args.to_vec();
    all.extend(["--out", path.to_str().expect("a UTF-8 temp path")]);
    let out = bitbench(&all);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = std::fs::read_to_string(&path).expect("the results file");
    std::fs::remove_file(&path).expect("the results file is removable");
    (out, serde_json::from_str(&text).expect("results JSON"))
}

/// Whether `program --version` fails to run: a tool a test needs is missing
/// (the `.ci/install-*` scripts install them).
pub fn tool_missing(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .map_or(true, |o| !o.status.success())
}

/// The workspace's root, where the README, `docs/` and `.github/` are.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// This workspace's target directory (`CARGO_TARGET_DIR` where set), which
/// the builds of crates outside it share.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Writes the manifest of a crate outside this workspace at `dir`: package
/// `name`, bitbench by version and path (as a published user would have it,
/// less the registry) without its default features (plus `features`),
/// its own `[workspace]` table and this workspace's release profile, with
/// this workspace's lock file beside it, so that [`build_outside`] reuses
/// the dependencies already built.
pub fn write_outside_manifest(dir: &Path, name: &str, features: &[&str]) {
    let features = if features.is_empty() {
        String::new()
    } else {
        format!(", features = {features:?}")
    };
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
bitbench = {{ version = "0.1", path = {:?}, default-features = false{features} }}

[workspace]

[profile.release]
debug = "line-tables-only"
codegen-units = 1
"#,
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::create_dir_all(dir).expect("the crate's directory");
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("the manifest is written");
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).expect("the lock file");
}

/// Builds the binaries of the crate at `dir`, a crate outside this
/// workspace depending on bitbench by path, in release and offline, into
/// this workspace's target directory: with the workspace's lock file and
/// release profile, the dependencies it shares are reused, so only the
/// crate and the library (with its own features) compile. Returns the
/// path of its binary `name`.
pub fn build_outside(dir: &Path, name: &str) -> PathBuf {
    cargo_outside(dir, &["build", "--release", "--bins", "--offline"]);
    binary(name)
}

/// [`build_outside`] for a crate with registry dependencies that this
/// workspace lacks (the crates example's chess crates): `cargo fetch
/// --locked` brings them first, from the registry where the local cache
/// lacks them (as on a fresh machine), and the offline build then keeps
/// to the crate's committed lock file (`--locked`).
pub fn build_outside_locked(dir: &Path, name: &str) -> PathBuf {
    cargo_outside(dir, &["fetch", "--locked"]);
    cargo_outside(
        dir,
        &["build", "--release", "--bins", "--offline", "--locked"],
    );
    binary(name)
}

/// Runs `cargo ARGS` in `dir`, a crate outside this workspace, with this
/// workspace's target directory; panics with cargo's stderr when it fails.
/// Its stderr.
pub fn cargo_outside(dir: &Path, args: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} fails in {}:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    stderr(&out)
}

/// The path of binary `name` in this workspace's release target directory.
pub fn binary(name: &str) -> PathBuf {
    target_dir()
        .join("release")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// Runs an outside crate's program `exe` with `args` in `dir`, as CI
/// does (`CI=1`); panics unless it succeeds. Its stdout and stderr.
pub fn run_outside(exe: &Path, dir: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .env("CI", "1")
        .output()
        .expect("the example runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{args:?}: {stdout}{stderr}");
    (stdout, stderr)
}

/// `git ARGS` in `dir` with a fixed author, its trimmed stdout; panics
/// when git fails. For tests that build a fixture repository.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "bitbench test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "bitbench test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    stdout(&out).trim().to_owned()
}
