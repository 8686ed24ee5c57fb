//! bitbench as a library: a crate outside this workspace brings its own
//! kernel, depends on bitbench with `default-features = false` (none of our
//! kernels) and gets the command line from `bitbench::main!`.
//!
//! The test writes that crate (a toy kernel, the set bits of a word, four
//! variants over a density sweep: one declaring `sse2`, one keeping a
//! scratch buffer without a lock) into a temporary directory, builds it
//! into this workspace's target directory with this workspace's lock file
//! and release profile (so only the toy and the library are compiled), and
//! runs `list`, `check`, `bench --quick` and, where valgrind is installed,
//! `count` through the toy's own binary, and a one-level `matrix`, which
//! rebuilds that binary from the toy's manifest. A second binary builds its
//! workload at run time (a local, borrowed by `cli::main`: no `static`, no
//! `Box::leak`) from an environment variable, sound or broken; broken
//! registrations must be one clear line naming the workload, never a crash
//! or a timing. A third binary is the README's "Your own kernel" example,
//! verbatim, which must build and pass `check`. `--version` names the
//! program, its version (which only `main!` knows) and bitbench's; `-h`
//! opens with what the program is, and a repro line names the program.

mod common;

use common::{build_outside, scratch, text, tool_missing, write_outside_manifest};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The toy kernel and its adapter: what a user writes (lib.rs). The fields
/// let the second binary break it on purpose.
const LIB: &str = r#"
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};

/// Set bits of a 64-bit word, four ways.
pub struct Ones {
    pub name: &'static str,
    pub oracle: &'static str,
    pub sse2: &'static str,
    pub panics: &'static str,
    pub unbuilt: &'static str,
}

pub const ONES: Ones = Ones { name: "ones", oracle: "loop", sse2: "sse2", panics: "", unbuilt: "" };

/// Counts byte by byte through a buffer it keeps between batches: each
/// thread has its own solver, so no lock.
struct Bytes(Vec<u8>);

impl Solve<u64, u32> for Bytes {
    fn solve_batch(&mut self, inputs: &[u64], out: &mut [u32]) {
        self.0.clear();
        self.0.extend(inputs.iter().flat_map(|x| x.to_le_bytes()));
        for (chunk, o) in self.0.chunks(8).zip(out) {
            *o = chunk.iter().map(|b| b.count_ones()).sum();
        }
    }
}

impl Workload for Ones {
    type Input = u64;
    type Output = u32;
    fn name(&self) -> &'static str { self.name }
    fn description(&self) -> &'static str { "set bits of a 64-bit word" }
    fn unit(&self) -> &'static str { "words" }
    fn variants(&self) -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("loop", "bit by bit", &[]),
            VariantInfo::new("popcnt", "u64::count_ones", &[]),
            VariantInfo::new("sse2", "count_ones where SSE2 is", &[self.sse2]),
            VariantInfo::new("bytes", "byte by byte through a scratch buffer", &[]),
        ]
    }
    fn oracle(&self) -> &'static str { self.oracle }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u32>>> {
        let panics = variant == self.panics;
        let check = move |x: &u64| assert!(!panics || x % 7 != 3, "cannot do {x}");
        match variant {
            v if v == self.unbuilt => None,
            "loop" => Some(Box::new(move |x: &u64| { check(x); (0..64).map(|i| (x >> i) as u32 & 1).sum() })),
            "popcnt" | "sse2" => Some(Box::new(move |x: &u64| { check(x); x.count_ones() })),
            _ => Some(Box::new(Bytes(Vec::new()))),
        }
    }
    fn input_sets(&self) -> Vec<InputSet> {
        let p = InputSet::new("p:P", "bits set with probability P").parameters(&["density"]);
        vec![p.sweep("p-sweep", [0.1, 0.3, 0.5, 0.7, 0.9])]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["p-sweep".into(), "p:0.5".into()] }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
        let (p, mut x): (f64, u64) = (set.get(0)?, seed);
        let mut bit = move || { x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); ((x >> 40) as f64) < p * (1u64 << 24) as f64 };
        Ok((0..n).map(|_| (0..64).fold(0, |w, i| w | u64::from(bit()) << i)).collect())
    }
    fn parse_input(&self, text: &str) -> Result<u64, String> { text.parse().map_err(|e| format!("'{text}': {e}")) }
    fn format_input(&self, input: &u64) -> String { input.to_string() }
    fn format_output(&self, output: &u32) -> String { output.to_string() }
}
"#;

/// The toy's `main`: the one line a user writes, here with the line its
/// help opens with.
const MAIN: &str = "bitbench::main!(about = \"Set bits, four ways\"; toy_kernel::ONES);\n";

/// A workload configured at run time, sound or broken as `TOY_CONFIG` says.
const RUNTIME: &str = r#"
use toy_kernel::{ONES, Ones};

fn main() -> std::process::ExitCode {
    let config = std::env::var("TOY_CONFIG").unwrap_or_default();
    let name: &'static str = match config.as_str() { "" => "ones-runtime", _ => "broken-toy" };
    let ones = Ones { name, ..ONES };
    let workload = match config.as_str() {
        "oracle" => Ones { panics: "loop", ..ones },
        "variant" => Ones { panics: "popcnt", ..ones },
        "no-oracle" => Ones { oracle: "fold", ..ones },
        "unbuilt" => Ones { unbuilt: "popcnt", ..ones },
        "feature" => Ones { sse2: "avx-2", ..ones },
        _ => ones,
    };
    bitbench::cli::main(&[&workload], bitbench::origin!())
}
"#;

/// The README's example: its one `rust` block, a whole program.
fn readme_example() -> String {
    let readme = common::guide::readme();
    let mut blocks = readme.split("```rust\n").skip(1);
    let block = blocks
        .next()
        .expect("the README shows its example in a rust block");
    assert!(blocks.next().is_none(), "the README has one rust block");
    block.split("```").next().unwrap().to_owned()
}

/// Writes the toy crate and builds its binaries; returns the crate's
/// directory and the paths of `main` and the run-time configured one (the
/// README's example is `readme`, beside them).
fn build_toy() -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch("toy");
    std::fs::create_dir_all(dir.join("src/bin")).unwrap();
    write_outside_manifest(&dir, "toy-kernel", &["count"]);
    std::fs::write(dir.join("src/lib.rs"), LIB).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN).unwrap();
    std::fs::write(dir.join("src/bin/toy-runtime.rs"), RUNTIME).unwrap();
    std::fs::write(dir.join("src/bin/readme.rs"), readme_example()).unwrap();

    let toy = build_outside(&dir, "toy-kernel");
    let runtime = toy.with_file_name(format!("toy-runtime{}", std::env::consts::EXE_SUFFIX));
    (dir, toy, runtime)
}

/// Runs the toy; `matrix` builds its levels in this workspace's target
/// directory, shared with the faults test's.
fn run(exe: &Path, args: &[&str], config: &str) -> Output {
    Command::new(exe)
        .args(args)
        .env("CI", "1")
        .env("TOY_CONFIG", config)
        .env("CARGO_TARGET_DIR", common::target_dir())
        .output()
        .expect("the toy runs")
}

/// Records of a results file written by the toy.
fn records(path: &Path) -> Vec<serde_json::Value> {
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["records"].as_array().unwrap().clone()
}

#[test]
fn an_outside_crate_gets_the_whole_command_line() {
    let (crate_dir, toy, runtime) = build_toy();
    let scratch = scratch("toy-out");
    std::fs::create_dir_all(&scratch).unwrap();

    // `--version`: the program's own, then bitbench's; a program calling
    // `cli::main` itself has no version of its own to give.
    for (exe, line) in [(&toy, "toy-kernel 0.0.0"), (&runtime, "toy-runtime")] {
        let version = run(exe, &["--version"], "");
        let bitbench = concat!("(bitbench ", env!("CARGO_PKG_VERSION"), ")");
        assert_eq!(text(&version).0, format!("{line} {bitbench}\n"));
    }

    // `--help` opens with the line `main!` was given; a program calling
    // `cli::main` itself has none, and names its workloads.
    for (exe, about) in [
        (&toy, "Set bits, four ways"),
        (
            &runtime,
            "Differential testing and benchmarking of ones-runtime",
        ),
    ] {
        let help = run(exe, &["-h"], "");
        assert!(
            text(&help).0.starts_with(&format!("{about}\n")),
            "{}",
            text(&help).0
        );
    }

    let list = run(&toy, &["list", "--json"], "");
    let (out, err) = text(&list);
    assert!(list.status.success(), "{err}");
    let entries: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(entries.len(), 4, "{out}");
    assert!(
        entries.iter().all(|e| e["workload"] == "ones"),
        "none of ours: {out}"
    );
    let sse2 = entries.iter().find(|e| e["variant"] == "sse2").unwrap();
    assert_eq!(
        sse2["available"],
        cfg!(target_arch = "x86_64"),
        "every x86-64 CPU has SSE2: {sse2}"
    );

    // `bytes` keeps a scratch buffer: check runs it on parallel chunks.
    let check = run(&toy, &["check", "--cases", "20000"], "");
    let (out, err) = text(&check);
    assert!(check.status.success(), "{out}{err}");
    for v in ["popcnt", "sse2", "bytes"] {
        assert!(out.contains(&format!("{v}: agreed with loop on")), "{out}");
    }

    let solve = run(&toy, &["solve", "ones", "7", "--variant", "bytes"], "");
    assert_eq!(text(&solve).0, "3\n");

    // The bench sets are the sweep and one of its members named alone:
    // one record per (variant, set).
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
    let mut keys: Vec<String> = times
        .iter()
        .map(|r| format!("{}/{}", r["variant"], r["input_set"]))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!((times.len(), keys.len()), (4 * 5, 4 * 5), "{keys:?}");
    for r in &times {
        assert_eq!(r["status"], "ok", "{r}");
        assert!(r["median"].as_f64().unwrap() > 0.0, "{r}");
        assert_eq!(r["parameters"][0]["name"], "density", "{r}");
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
        assert_eq!(counted.len(), 4 * 5, "{out}{err}");
        assert!(counted.iter().all(|r| r["median"].as_f64().unwrap() > 1.0));

        // report on bench and count together draws each over the sweep:
        // time, speedup over the oracle and instructions per density.
        let report_dir = scratch.join("report");
        let report = run(
            &toy,
            &[
                "report",
                results.to_str().unwrap(),
                counts.to_str().unwrap(),
                "--out",
                report_dir.to_str().unwrap(),
            ],
            "",
        );
        let (out, err) = text(&report);
        assert!(report.status.success(), "{out}{err}");
        for chart in ["density", "density-speedup", "density-instructions"] {
            let svg = report_dir.join(format!("ones-{chart}.svg"));
            assert!(svg.is_file(), "{} missing: {out}{err}", svg.display());
        }
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
            "--machine",
            "toy-host",
            "--out",
            matrix_dir.to_str().unwrap(),
        ],
        "",
    );
    let (out, err) = text(&matrix);
    assert!(matrix.status.success(), "{out}{err}");
    // The machine's name reaches the level's own run as well as the merge.
    for file in ["matrix.json", "bench-x86-64-v2.json"] {
        let text = std::fs::read_to_string(matrix_dir.join(file)).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["machine"]["name"], "toy-host", "{file}");
    }
    let at_level: Vec<_> = records(&matrix_dir.join("matrix.json"))
        .into_iter()
        .filter(|r| r["target_cpu"] == "x86-64-v2" && r["status"] == "ok" && r["metric"] == "time")
        .collect();
    assert_eq!(at_level.len(), 4 * 5, "{out}{err}");

    // The README's example, as a reader would copy it.
    let readme = toy.with_file_name(format!("readme{}", std::env::consts::EXE_SUFFIX));
    let o = run(&readme, &["check", "--cases", "2000"], "");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("agreed with"), "{out}");

    // Configured at run time, sound: the whole command line works.
    let o = run(&runtime, &["check", "--cases", "500"], "");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("ones-runtime"), "{out}");

    // Broken registrations: one line naming the workload and the problem,
    // exit 2, before any command runs.
    for (config, message) in [
        (
            "no-oracle",
            "workload 'broken-toy' declares oracle 'fold', which it does not list",
        ),
        (
            "unbuilt",
            "workload 'broken-toy' variant 'popcnt' is declared available (its CPU features \
             are present) but solver(\"popcnt\") returns None",
        ),
        (
            "feature",
            "workload 'broken-toy' variant 'sse2': unknown CPU feature 'avx-2'",
        ),
    ] {
        let o = run(&runtime, &["list"], config);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{config}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{config}: {err}");
        assert!(err.contains(message), "{config}: {err}");
    }

    // An oracle that panics ends check and bench with one line naming the
    // workload and the oracle: exit 1, no crash, no timing.
    let path = scratch.join("oracle.json");
    let out_file = path.to_str().unwrap();
    for args in [
        vec!["check", "--cases", "200"],
        vec!["bench", "--quick", "--out", out_file],
    ] {
        let o = run(&runtime, &args, "oracle");
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{err}");
        assert!(
            err.contains("broken-toy: the") && err.contains("loop panicked: cannot do"),
            "{args:?}: {err}"
        );
        assert!(!path.exists(), "nothing was timed");
    }

    // A variant that panics is a disagreement in check and an error
    // record in bench, which fails naming it.
    let o = run(&runtime, &["check", "--cases", "200"], "variant");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("popcnt") && out.contains("panicked: cannot do"),
        "{out}"
    );
    // Its repro line runs this program, on its own workload.
    assert!(
        out.contains("reproduce: toy-runtime solve broken-toy --variant popcnt '"),
        "{out}"
    );
    assert!(!out.contains("bitbench"), "{out}");
    let path = scratch.join("variant.json");
    let o = run(
        &runtime,
        &["bench", "--quick", "--out", path.to_str().unwrap()],
        "variant",
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("bench: wrong answer: broken-toy/popcnt on p:0.1"),
        "{err}"
    );
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
