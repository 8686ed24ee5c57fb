//! bitbench as a library: a crate outside this workspace brings its own
//! kernel, depends on bitbench with `default-features = false` (none of our
//! kernels) and gets the command line from `bitbench::main!`.
//!
//! The test writes that crate (a toy parity kernel with two variants) into
//! a temporary directory, builds it into this workspace's target directory
//! with this workspace's lock file and release profile (so only the toy and
//! the library are compiled), and runs `check`, `bench --quick` and, where
//! valgrind is installed, `count` through the toy's own binary, and a
//! one-level `matrix`, which rebuilds that binary from the toy's manifest. A second
//! binary of the toy registers broken workloads, which must be clear
//! errors naming the workload, never a crash or a timing.

mod common;

use common::{build_outside, tool_missing};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The toy kernel: what a user writes (lib.rs), generic over which variant
/// list it declares and which variant panics, so the broken cases share it.
const LIB: &str = r#"
use bitbench::{InputSetInfo, Solve, VariantInfo, Workload};

/// Parity of a 64-bit word.
pub struct Parity {
    pub name: &'static str,
    pub variants: &'static [&'static str],
    pub panics: &'static str,
}

pub const PARITY: Parity = Parity { name: "parity", variants: &["loop", "popcnt"], panics: "" };

struct Kernel { popcnt: bool, panics: bool }

impl Solve<u64, u8> for Kernel {
    fn solve_batch(&self, inputs: &[u64], out: &mut [u8]) {
        for (x, o) in inputs.iter().zip(out) {
            assert!(!self.panics || x % 7 != 3, "cannot do {x}");
            *o = if self.popcnt {
                (x.count_ones() & 1) as u8
            } else {
                (0..64).fold(0, |p, i| p ^ (x >> i) as u8 & 1)
            };
        }
    }
}

impl Workload for Parity {
    type Input = u64;
    type Output = u8;
    fn name(&self) -> &'static str { self.name }
    fn description(&self) -> &'static str { "parity of a 64-bit word" }
    fn unit(&self) -> &'static str { "words" }
    fn variants(&self) -> Vec<VariantInfo> {
        self.variants.iter().map(|v| VariantInfo::new(v, "parity", &[])).collect()
    }
    fn default_variant(&self) -> &'static str { self.variants.last().copied().unwrap_or("popcnt") }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u8>>> {
        self.variants.contains(&variant).then(|| {
            Box::new(Kernel { popcnt: variant == "popcnt", panics: variant == self.panics })
                as Box<dyn Solve<u64, u8>>
        })
    }
    fn input_sets(&self) -> Vec<InputSetInfo> {
        vec![InputSetInfo { pattern: "random", description: "uniformly random words" }]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["random".into()] }
    fn check_sets(&self) -> Vec<String> { vec!["random".into()] }
    fn generate(&self, name: &str, seed: u64, n: usize) -> Result<Vec<u64>, String> {
        if name != "random" {
            return Err(format!("unknown input set '{name}'"));
        }
        let mut x = seed;
        Ok((0..n).map(|_| { x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); x }).collect())
    }
    fn parse_input(&self, text: &str) -> Result<u64, String> {
        text.parse().map_err(|e| format!("'{text}': {e}"))
    }
    fn format_input(&self, input: &u64) -> String { input.to_string() }
    fn format_output(&self, output: &u8) -> String { output.to_string() }
    fn same(&self, a: &u8, b: &u8) -> bool { a == b }
}
"#;

/// The toy's `main`: the one line a user writes.
const MAIN: &str = "bitbench::main!(toy_kernel::PARITY);\n";

/// Broken registrations, chosen by the first argument.
const BROKEN: &str = r#"
use toy_kernel::Parity;

static EMPTY: &[&dyn bitbench::DynWorkload] =
    &[&Parity { name: "empty-toy", variants: &[], panics: "" }];
static TWICE: &[&dyn bitbench::DynWorkload] =
    &[&Parity { name: "twice-toy", variants: &["loop", "loop"], panics: "" }];
static ORACLE: &[&dyn bitbench::DynWorkload] =
    &[&Parity { name: "oracle-toy", variants: &["loop", "popcnt"], panics: "loop" }];
static VARIANT: &[&dyn bitbench::DynWorkload] =
    &[&Parity { name: "variant-toy", variants: &["loop", "popcnt"], panics: "popcnt" }];

fn main() -> std::process::ExitCode {
    let which = std::env::var("TOY_BROKEN").unwrap_or_default();
    let workloads = match which.as_str() {
        "empty" => EMPTY,
        "twice" => TWICE,
        "oracle" => ORACLE,
        _ => VARIANT,
    };
    bitbench::cli::main(workloads, bitbench::origin!())
}
"#;

/// This workspace's root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("harness/ sits in the workspace")
        .to_owned()
}

/// Writes the toy crate and builds its two binaries; returns the crate's
/// directory and the binaries' paths.
fn build_toy() -> (PathBuf, PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("bitbench-toy-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src/bin")).unwrap();
    let manifest = format!(
        r#"[package]
name = "toy-kernel"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
bitbench = {{ path = {:?}, default-features = false, features = ["count"] }}

[workspace]

[profile.release]
debug = "line-tables-only"
codegen-units = 1
lto = "thin"
"#,
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), LIB).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN).unwrap();
    std::fs::write(dir.join("src/bin/toy-broken.rs"), BROKEN).unwrap();

    let toy = build_outside(&dir, "toy-kernel");
    let broken = toy.with_file_name(format!("toy-broken{}", std::env::consts::EXE_SUFFIX));
    (dir, toy, broken)
}

fn run(exe: &Path, args: &[&str], broken: &str) -> Output {
    Command::new(exe)
        .args(args)
        .env("CI", "1")
        .env("TOY_BROKEN", broken)
        .output()
        .expect("the toy runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Records of a results file written by the toy.
fn records(path: &Path) -> Vec<serde_json::Value> {
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["records"].as_array().unwrap().clone()
}

#[test]
fn an_outside_crate_gets_the_whole_command_line() {
    let (crate_dir, toy, broken) = build_toy();
    let scratch = std::env::temp_dir().join(format!("bitbench-toy-out-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();

    let list = run(&toy, &["list"], "");
    let (out, err) = text(&list);
    assert!(list.status.success(), "{err}");
    assert!(out.contains("parity") && out.contains("popcnt"), "{out}");
    assert!(!out.contains("components"), "none of our kernels: {out}");

    let check = run(&toy, &["check", "--cases", "2000"], "");
    let (out, err) = text(&check);
    assert!(check.status.success(), "{out}{err}");
    assert!(out.contains("popcnt: agreed with loop on"), "{out}");

    let solve = run(&toy, &["solve", "parity", "7", "--variant", "loop"], "");
    assert_eq!(text(&solve).0, "1\n");

    let results = scratch.join("bench.json");
    let bench = run(
        &toy,
        &["bench", "--quick", "--out", results.to_str().unwrap()],
        "",
    );
    let (out, err) = text(&bench);
    assert!(bench.status.success(), "{out}{err}");
    let times: Vec<_> = records(&results)
        .into_iter()
        .filter(|r| r["metric"] == "time")
        .collect();
    assert_eq!(times.len(), 2, "{times:?}");
    for r in &times {
        assert_eq!(r["status"], "ok", "{r}");
        assert!(r["median"].as_f64().unwrap() > 0.0, "{r}");
    }

    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!("count skipped: valgrind or gungraun-runner missing");
    } else {
        let counts = scratch.join("count.json");
        let count = run(&toy, &["count", "--out", counts.to_str().unwrap()], "");
        let (out, err) = text(&count);
        assert!(count.status.success(), "{out}{err}");
        let counted: Vec<_> = records(&counts)
            .into_iter()
            .filter(|r| r["metric"] == "instructions" && r["status"] == "ok")
            .collect();
        assert_eq!(counted.len(), 2, "{out}{err}");
        assert!(counted.iter().all(|r| r["median"].as_f64().unwrap() > 1.0));
    }

    // matrix rebuilds the toy's own binary at a level, from its own
    // manifest, and merges the level's records.
    let matrix_dir = scratch.join("matrix");
    let matrix = run(
        &toy,
        &[
            "matrix",
            "--levels",
            "x86-64-v2",
            "--out",
            matrix_dir.to_str().unwrap(),
        ],
        "",
    );
    let (out, err) = text(&matrix);
    assert!(matrix.status.success(), "{out}{err}");
    let at_level: Vec<_> = records(&matrix_dir.join("matrix.json"))
        .into_iter()
        .filter(|r| r["target_cpu"] == "x86-64-v2" && r["status"] == "ok" && r["metric"] == "time")
        .collect();
    assert_eq!(at_level.len(), 2, "{out}{err}");

    // Broken registrations: one line naming the workload, exit 2.
    for (which, message) in [
        ("empty", "workload 'empty-toy' has no variants"),
        (
            "twice",
            "workload 'twice-toy' has two variants named 'loop'",
        ),
    ] {
        let o = run(&broken, &["list"], which);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{which}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{which}: {err}");
        assert!(err.contains(message), "{which}: {err}");
    }

    // An oracle that panics ends check and bench with one line naming the
    // workload and the oracle: exit 1, no crash, no timing.
    let path = scratch.join("oracle.json");
    let out_file = path.to_str().unwrap();
    for args in [
        vec!["check", "--cases", "200"],
        vec!["bench", "--quick", "--out", out_file],
    ] {
        let o = run(&broken, &args, "oracle");
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{err}");
        assert!(
            err.contains("oracle-toy: the") && err.contains("loop panicked: cannot do"),
            "{args:?}: {err}"
        );
        assert!(!path.exists(), "nothing was timed");
    }

    // A variant that panics is a disagreement in check and an error
    // record in bench.
    let o = run(&broken, &["check", "--cases", "200"], "variant");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("popcnt") && out.contains("panicked: cannot do"),
        "{out}"
    );
    let path = scratch.join("variant.json");
    let o = run(
        &broken,
        &["bench", "--quick", "--out", path.to_str().unwrap()],
        "variant",
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let popcnt = records(&path)
        .into_iter()
        .find(|r| r["variant"] == "popcnt" && r["metric"] == "time")
        .unwrap();
    assert_eq!(popcnt["status"], "error", "{popcnt}");
    assert!(
        popcnt["reason"]
            .as_str()
            .unwrap()
            .contains("panicked: cannot do"),
        "{popcnt}"
    );
    std::fs::remove_dir_all(&scratch).ok();
    std::fs::remove_dir_all(&crate_dir).ok();
}
