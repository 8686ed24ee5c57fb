//! `fuzz --init` for a crate outside this workspace: the toy's own binary
//! writes a cargo-fuzz crate beside it, whose target builds and finds a
//! planted bug in a few seconds of `-s none` (stable) fuzzing.
//!
//! The same toy shows what `check` prints for that bug: the input shrunk by
//! the one-line `Shrink` forward to the two bits that matter, and the
//! reproducing commands naming the toy's binary, not `bitbench`. The
//! fuzzing half needs cargo-fuzz (`bash .ci/install-fuzz`) and is skipped,
//! saying so, where it is missing.
//!
//! The fuzz crate builds where `bitbench fuzz` builds our own (fuzz/):
//! with our fuzz crate's lock file and the same cargo-fuzz flags, every
//! third-party dependency (libFuzzer, clap, plotters...) is the same
//! artifact, so after `bitbench fuzz` or `.ci/fuzz-smoke` only bitbench,
//! the toy and its target compile, and this test's build is theirs too.

mod common;

use common::{build_outside, fresh_scratch, text, write_outside_manifest};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The toy kernel: parity of a word; `wrong` errs when bits 5 and 40 are
/// both set (a quarter of random words).
const LIB: &str = r#"
use bitbench::{InputSet, Member, Shrink, Solve, VariantInfo, Workload};

pub struct Parity;
pub const PARITY: Parity = Parity;

/// What `main!` cannot name from outside: a call.
pub const fn parity() -> Parity { Parity }

const PLANTED: u64 = 1 << 5 | 1 << 40;

impl Workload for Parity {
    type Input = u64;
    type Output = u8;
    fn name(&self) -> &'static str { "parity" }
    fn description(&self) -> &'static str { "parity of a word" }
    fn unit(&self) -> &'static str { "words" }
    fn variants(&self) -> Vec<VariantInfo> {
        vec![VariantInfo::new("popcnt", "the oracle", &[]), VariantInfo::new("wrong", "a bug", &[])]
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u8>>> {
        let wrong = match variant { "popcnt" => false, "wrong" => true, _ => return None };
        Some(Box::new(move |x: &u64| (x.count_ones() & 1) as u8 ^ u8::from(wrong && x & PLANTED == PLANTED)))
    }
    fn input_sets(&self) -> Vec<InputSet> { vec![InputSet::new("random", "uniformly random words")] }
    fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["random".into()] }
    fn generate(&self, _set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
        Ok((1..=n as u64).map(|i| (seed ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect())
    }
    fn parse_input(&self, text: &str) -> Result<u64, String> {
        text.parse().map_err(|e| format!("'{text}': {e}"))
    }
    fn format_input(&self, input: &u64) -> String { input.to_string() }
    fn format_output(&self, output: &u8) -> String { output.to_string() }
    fn shrink(&self, input: &u64) -> Vec<u64> { input.shrink() }
}
"#;

/// The planted bug's minimal input: bits 5 and 40.
const MINIMAL: u64 = 1 << 5 | 1 << 40;

/// Writes the toy crate (`fuzz-toy`, its binary registering the workload by
/// path and `fuzz-toy-call` by a call) and builds it.
fn build_toy() -> (PathBuf, PathBuf, PathBuf) {
    let dir = fresh_scratch("fuzz-toy");
    std::fs::create_dir_all(dir.join("src/bin")).unwrap();
    write_outside_manifest(&dir, "fuzz-toy", &[]);
    std::fs::write(dir.join("src/lib.rs"), LIB).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "bitbench::main!(fuzz_toy::PARITY);\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/bin/fuzz-toy-call.rs"),
        "bitbench::main!(fuzz_toy::parity());\n",
    )
    .unwrap();
    let toy = build_outside(&dir, "fuzz-toy");
    let call = toy.with_file_name(format!("fuzz-toy-call{}", std::env::consts::EXE_SUFFIX));
    (dir, toy, call)
}

/// Runs `exe` in the toy's folder, the fuzz crate building into `target`.
fn run(exe: &Path, dir: &Path, target: &Path, args: &[&str]) -> (Output, String, String) {
    let o = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .env("CI", "1")
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("the toy runs");
    let (out, err) = text(&o);
    (o, out, err)
}

/// A usage error: exit 2 and one line on stderr.
fn refused(o: &Output, err: &str) {
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

fn cargo_fuzz_missing() -> bool {
    Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .map_or(true, |o| !o.status.success())
}

#[test]
fn an_outside_crate_gets_a_fuzz_crate_that_finds_its_bug() {
    let (dir, toy, call) = build_toy();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Where `cargo fuzz` in fuzz/ builds: its default, unless set for all.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace.join("fuzz/target"), PathBuf::from);
    let run = |exe: &Path, args: &[&str]| run(exe, &dir, &target, args);

    // check: shrunk to the two bits, reproduced through the toy's binary.
    let (o, out, err) = run(&toy, &["check", "--cases", "500"]);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let origin = out
        .split("(minimised; from input ")
        .nth(1)
        .unwrap_or_default();
    assert!(origin.contains(" of set 'random' (seed 1)):"), "{out}");
    for variant in ["wrong", "popcnt"] {
        let line = format!("fuzz-toy solve parity --variant {variant} '{MINIMAL}'");
        assert!(out.contains(&line), "{line}\n{out}");
    }
    assert!(!out.contains("bitbench solve"), "{out}");

    // Before --init, fuzz says how to get a fuzz crate.
    let (o, _, err) = run(&toy, &["fuzz"]);
    refused(&o, &err);
    assert!(err.contains("`fuzz-toy fuzz --init` writes one"), "{err}");

    // A workload given as a call cannot be named from the fuzz crate.
    let (o, _, err) = run(&call, &["fuzz", "--init"]);
    refused(&o, &err);
    assert!(
        err.contains("workload 'parity' is given to main! as `fuzz_toy::parity()`"),
        "{err}"
    );
    assert!(!dir.join("fuzz").exists());

    let (o, out, err) = run(&toy, &["fuzz", "--init"]);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("targets: parity; dependency versions from "),
        "{out}"
    );
    // The toy's lock file, so what the two share builds at the toy's
    // versions, and resolver 3 (edition 2024) for what the fuzz crate adds.
    let lock = |path: &Path| std::fs::read_to_string(path).unwrap();
    assert_eq!(
        lock(&dir.join("fuzz/Cargo.lock")),
        lock(&dir.join("Cargo.lock"))
    );
    let manifest = std::fs::read_to_string(dir.join("fuzz/Cargo.toml")).unwrap();
    assert!(manifest.contains("\n[workspace]\n"), "{manifest}");
    assert!(manifest.contains("\nedition = \"2024\"\n"), "{manifest}");
    assert!(
        manifest.contains("\nfuzz-toy = { path = \"..\" }\n"),
        "{manifest}"
    );
    let source = std::fs::read_to_string(dir.join("fuzz/fuzz_targets/parity.rs")).unwrap();
    assert!(
        source.contains("bitbench::fuzz::check(&fuzz_toy::PARITY, bytes)"),
        "{source}"
    );
    let (o, _, err) = run(&toy, &["fuzz", "--init"]);
    refused(&o, &err);
    assert!(err.contains("is a cargo-fuzz crate already"), "{err}");

    if cargo_fuzz_missing() {
        eprintln!("fuzzing skipped: cargo-fuzz missing (bash .ci/install-fuzz)");
    } else {
        // Our own fuzz crate's lock file in place of the toy's: the same
        // dependency versions as our fuzz crate, so only the toy's two
        // packages are new to the resolver and the dependencies' artifacts
        // are the ones our fuzz crate's build left (see above).
        std::fs::copy(
            workspace.join("fuzz/Cargo.lock"),
            dir.join("fuzz/Cargo.lock"),
        )
        .unwrap();
        let (o, out, err) = run(&toy, &["fuzz", "-s", "none", "--seconds", "5"]);
        assert_eq!(o.status.code(), Some(1), "{out}{err}");
        assert!(out.contains("FINDING"), "{out}");
        assert!(
            out.contains("parity: variant `wrong` disagrees with the oracle `popcnt`"),
            "{out}"
        );
        assert!(out.contains("reproduce: fuzz-toy solve parity '"), "{out}");
        assert!(!out.contains("bitbench solve"), "{out}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
