//! The fixture crate that the `ab` and `history` tests build at several
//! commits: one workload, a uniform dependent loop over a word, whose
//! `answer` each commit rewrites; its repository, how it is built and how
//! its binary is run. One source for both tests, so a change to the
//! `Workload` trait is mended once.
//!
//! Its bitbench dependency gets `count` through the crate's own feature
//! `counting`, as a crate that keeps valgrind optional would have it: the
//! program is built with it, so every revision `ab` and `history` build
//! must be found the same feature. Those builds go to
//! `<target>/bitbench-ab/build` of this workspace's target directory, one
//! directory for every fixture's revisions, so bitbench's dependencies
//! compile there once for the whole suite.

use super::{binary, cargo_outside, git, target_dir, write_outside_manifest};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `cargo ARGS` that build the fixture's program as its user would, with
/// the feature that turns on bitbench's `count`.
pub const BUILD: &[&str] = &[
    "build",
    "--release",
    "--bins",
    "--offline",
    "--features",
    "counting",
];

/// Makes `dir` an empty git repository of the fixture crate `name`
/// (bitbench's `count` behind the crate's feature `counting`, `target/`
/// ignored); `src/` is left to the commits.
pub fn init(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    write_outside_manifest(dir, name, &[]);
    let manifest = dir.join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("\n[features]\ncounting = [\"bitbench/count\"]\n");
    std::fs::write(&manifest, text).unwrap();
    std::fs::write(dir.join(".gitignore"), "target/\n").unwrap();
    git(dir, &["init", "-q"]);
}

/// Builds the fixture's binary `name` in `dir` ([`BUILD`], into this
/// workspace's target directory); its path.
pub fn build(dir: &Path, name: &str) -> PathBuf {
    cargo_outside(dir, BUILD);
    binary(name)
}

/// The kept build of commit `sha` of the fixture's binary `name`: built
/// with the feature `counting`, which its directory names.
pub fn kept(sha: &str, name: &str) -> PathBuf {
    ab_dir().join(format!("{sha}+counting")).join(name)
}

/// Removes the kept builds and exported sources of `shas`.
pub fn remove_kept(shas: &[&str]) {
    for sha in shas {
        std::fs::remove_dir_all(ab_dir().join(format!("{sha}+counting"))).ok();
        std::fs::remove_dir_all(ab_dir().join("src").join(sha)).ok();
    }
}

fn ab_dir() -> PathBuf {
    target_dir().join("bitbench-ab")
}

/// The fixture's binary `driver` to run in `dir`: progress bars off,
/// offline, and this workspace's target directory as the program's, so
/// its revision builds share `bitbench-ab/build` there.
pub fn command(driver: &Path, dir: &Path) -> Command {
    let mut command = Command::new(driver);
    command
        .current_dir(dir)
        .env("CI", "1")
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_NET_OFFLINE", "true");
    command
}

/// The fixture's `src/lib.rs`: `walk` runs the loop `steps` times, the
/// benchmark batch is `batch` inputs, and `answer(x: u64) -> u64` has the
/// body `body` (which may call `walk` and `black_box`).
pub fn lib(steps: u64, batch: usize, body: &str) -> String {
    TEMPLATE
        .replace("STEPS", &steps.to_string())
        .replace("BATCH", &batch.to_string())
        .replace("BODY", body)
}

const TEMPLATE: &str = r#"
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};
use std::hint::black_box;

/// A uniform dependent loop over one word.
pub struct Steps;

fn walk(mut x: u64) -> u64 {
    for _ in 0..STEPS {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) ^ (x >> 29);
    }
    x
}

fn answer(x: u64) -> u64 {
    BODY
}

impl Workload for Steps {
    type Input = u64;
    type Output = u64;
    fn name(&self) -> &'static str { "steps" }
    fn description(&self) -> &'static str { "a dependent loop" }
    fn unit(&self) -> &'static str { "words" }
    fn variants(&self) -> Vec<VariantInfo> { vec![VariantInfo::new("loop", "the loop", &[])] }
    fn default_variant(&self) -> &'static str { "loop" }
    fn solver(&self, v: &str) -> Option<Box<dyn Solve<u64, u64>>> {
        (v == "loop").then(|| Box::new(|x: &u64| answer(*x)) as Box<dyn Solve<u64, u64>>)
    }
    fn input_sets(&self) -> Vec<InputSet> { vec![InputSet::new("random", "random words")] }
    fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["random".into()] }
    fn check_sets(&self) -> Vec<String> { vec!["random".into()] }
    fn bench_batch(&self, _quick: bool) -> usize { BATCH }
    fn generate(&self, _set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
        Ok((0..n as u64).map(|i| (i + seed).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect())
    }
    fn parse_input(&self, text: &str) -> Result<u64, String> {
        text.parse().map_err(|e| format!("'{text}': {e}"))
    }
    fn format_input(&self, x: &u64) -> String { x.to_string() }
    fn format_output(&self, x: &u64) -> String { x.to_string() }
    fn same(&self, a: &u64, b: &u64) -> bool { a == b }
}
"#;
