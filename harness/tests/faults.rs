//! A variant that crashes or hangs is a finding, not the end of the run.
//!
//! The test writes a crate outside this workspace (the outside-crate test's
//! manifest and features, so the library build is shared): a toy kernel,
//! the set bits of a word, four variants, one of which (`table`, or the one
//! `FAULT_VARIANT` names) faults on every input whose low three bits are
//! `101` (shrunk: 5), as the environment variable `FAULT` says: a null
//! write, an endless loop, unbounded recursion, `std::process::abort`, or
//! an AVX2 instruction it does not declare (or, `slow`, it sleeps 11 s and
//! answers). Its binary `faulty` reads them; `clean` is the same kernel
//! ignoring them. One build serves every fault. Through the fixture's own
//! binary, `check` must name the variant, what happened and the shrunk
//! input with a repro line that reproduces it, and report the others as
//! agreeing; `bench --quick` must write every other variant's records and
//! the faulty one's status; `ab --binaries clean faulty` must call the
//! record BROKE (and the other way round, fixed, without failing). A third
//! binary, `wrong`, built with `bitbench::main!`, has `table` answer one
//! too many on those inputs: every command that runs variants must exit 1
//! and name its records. A fourth, `big`, is a hex encoder over megabyte
//! buffers whose `planted` variant writes one byte wrong: `bench` must
//! tell that in a few KB on the terminal, in the results file and in the
//! report, shrunk to the byte or (its shrinker off) cut around the first
//! difference, naming the set, seed and index that regenerate the input.

mod common;

use common::{build_outside, scratch, text, tool_missing, write_outside_manifest};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const LIB: &str = r#"
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};
use std::hint::black_box;

/// Set bits of a 64-bit word, four ways; `victim` faults as `fault` says.
pub struct Bits {
    pub fault: &'static str,
    pub victim: &'static str,
}

/// A byte-popcount table, built when the variant is.
struct Table([u8; 256]);

impl Solve<u64, u32> for Table {
    fn solve_batch(&mut self, inputs: &[u64], out: &mut [u32]) {
        for (x, o) in inputs.iter().zip(out) {
            *o = x.to_le_bytes().iter().map(|&b| u32::from(self.0[b as usize])).sum();
        }
    }
}

/// A variant that faults on every input whose low bits are 101.
struct Faulty {
    inner: Box<dyn Solve<u64, u32>>,
    fault: &'static str,
}

impl Solve<u64, u32> for Faulty {
    fn solve_batch(&mut self, inputs: &[u64], out: &mut [u32]) {
        for x in inputs.iter().filter(|x| *x & 7 == 5) {
            strike(self.fault, *x);
        }
        self.inner.solve_batch(inputs, out);
        if self.fault == "wrong" {
            for (x, o) in inputs.iter().zip(out) {
                *o += u32::from(*x & 7 == 5);
            }
        }
    }
}

fn strike(fault: &str, x: u64) {
    match fault {
        // SAFETY: none; this writes through a null pointer on purpose.
        "segv" => unsafe { std::ptr::null_mut::<u64>().write_volatile(x) },
        "loop" => loop {
            black_box(x);
        },
        "stack" => {
            black_box(deep(x));
        }
        "abort" => std::process::abort(),
        "slow" => std::thread::sleep(std::time::Duration::from_secs(11)),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: none; AVX2 is not declared, on purpose.
        "avx2" => {
            black_box(unsafe { avx2(x) });
        }
        _ => {}
    }
}

/// Recursion that ends only where no stack is left.
fn deep(n: u64) -> u64 {
    let frame = black_box([n; 64]);
    if frame[0] == u64::MAX {
        return 0;
    }
    deep(frame[1].wrapping_add(1) % (u64::MAX - 1)).wrapping_add(frame[2])
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2(x: u64) -> u64 {
    use std::arch::x86_64::*;
    let v = black_box(_mm256_set1_epi64x(x as i64));
    let w = black_box(_mm256_add_epi64(v, v));
    _mm256_extract_epi64::<0>(w) as u64
}

impl Workload for Bits {
    type Input = u64;
    type Output = u32;
    fn name(&self) -> &'static str { "bits" }
    fn description(&self) -> &'static str { "set bits of a 64-bit word" }
    fn unit(&self) -> &'static str { "words" }
    fn variants(&self) -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("loop", "bit by bit", &[]),
            VariantInfo::new("popcnt", "u64::count_ones", &[]),
            VariantInfo::new("table", "a byte table", &[]),
            VariantInfo::new("bytes", "byte by byte", &[]),
        ]
    }
    fn default_variant(&self) -> &'static str { "popcnt" }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u32>>> {
        let inner: Box<dyn Solve<u64, u32>> = match variant {
            "loop" => Box::new(|x: &u64| (0..64).map(|i| (x >> i) as u32 & 1).sum()),
            "popcnt" => Box::new(|x: &u64| x.count_ones()),
            "table" => Box::new(Table(std::array::from_fn(|b| (b as u8).count_ones() as u8))),
            "bytes" => Box::new(|x: &u64| x.to_le_bytes().iter().map(|b| b.count_ones()).sum()),
            _ => return None,
        };
        if variant != self.victim {
            return Some(inner);
        }
        Some(Box::new(Faulty { inner, fault: self.fault }))
    }
    fn input_sets(&self) -> Vec<InputSet> {
        let p = InputSet::new("p:P", "bits set with probability P").parameters(&["density"]);
        vec![p.sweep("p-sweep", [0.2, 0.5, 0.8])]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["p-sweep".into()] }
    fn bench_batch(&self, _quick: bool) -> usize { 1024 }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
        let (p, mut x): (f64, u64) = (set.get(0)?, seed);
        let mut bit = move || { x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); ((x >> 40) as f64) < p * (1u64 << 24) as f64 };
        Ok((0..n).map(|_| (0..64).fold(0, |w, i| w | u64::from(bit()) << i)).collect())
    }
    fn parse_input(&self, text: &str) -> Result<u64, String> { text.parse().map_err(|e| format!("'{text}': {e}")) }
    fn format_input(&self, input: &u64) -> String { input.to_string() }
    fn format_output(&self, output: &u32) -> String { output.to_string() }
    fn picture(&self, input: &u64) -> String { format!("{input:064b}") }
    fn shrink(&self, input: &u64) -> Vec<u64> { bitbench::Shrink::shrink(input) }
}

/// Bytes to hex, two ways; `planted` writes the byte `ab` as `ba`. Its
/// inputs are buffers of `size:N` random bytes, written in hex; it shrinks
/// them (as `Vec<u8>` does) unless `shrinks` is false.
pub struct Hex {
    pub shrinks: bool,
}

fn hex(bytes: &[u8], planted: bool) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        if planted && b == 0xab {
            out.push_str("ba");
        } else {
            out.push(char::from(DIGITS[usize::from(b >> 4)]));
            out.push(char::from(DIGITS[usize::from(b & 15)]));
        }
    }
    out
}

impl Workload for Hex {
    type Input = Vec<u8>;
    type Output = String;
    fn name(&self) -> &'static str { "hex" }
    fn description(&self) -> &'static str { "bytes to hex" }
    fn unit(&self) -> &'static str { "bytes" }
    fn variants(&self) -> Vec<VariantInfo> {
        vec![VariantInfo::new("table", "a digit table", &[]), VariantInfo::new("planted", "wrong on ab", &[])]
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Vec<u8>, String>>> {
        let planted = match variant { "table" => false, "planted" => true, _ => return None };
        Some(Box::new(move |b: &Vec<u8>| hex(b, planted)))
    }
    fn elements(&self, input: &Vec<u8>, _: &String) -> u64 { input.len() as u64 }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::new("size:N", "N random bytes").parameters(&["bytes"])]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["size:1048576".into()] }
    fn bench_batch(&self, _quick: bool) -> usize { 1 }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Vec<u8>>, String> {
        let (size, mut x): (usize, u64) = (set.get(0)?, seed);
        let mut byte = move || { x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (x >> 56) as u8 };
        Ok((0..n).map(|_| (0..size).map(|_| byte()).collect()).collect())
    }
    fn parse_input(&self, text: &str) -> Result<Vec<u8>, String> {
        let digits = text.as_bytes().chunks(2).map(|d| std::str::from_utf8(d).ok().and_then(|d| u8::from_str_radix(d, 16).ok()));
        digits.collect::<Option<_>>().ok_or_else(|| format!("'{text}': not hex"))
    }
    fn format_input(&self, input: &Vec<u8>) -> String { hex(input, false) }
    fn format_output(&self, output: &String) -> String { output.clone() }
    fn shrink(&self, input: &Vec<u8>) -> Vec<Vec<u8>> {
        if self.shrinks { bitbench::Shrink::shrink(input) } else { Vec::new() }
    }
}
"#;

const FAULTY: &str = r#"
fn main() -> std::process::ExitCode {
    let fault: &'static str = std::env::var("FAULT").unwrap_or_default().leak();
    let victim = std::env::var("FAULT_VARIANT").unwrap_or_else(|_| "table".to_owned()).leak();
    bitbench::cli::main(&[&fault_kernel::Bits { fault, victim }], bitbench::origin!())
}
"#;

const CLEAN: &str = "bitbench::main!(fault_kernel::Bits { fault: \"\", victim: \"\" });\n";

/// The same kernel through `main!`, `table` answering one too many there.
const WRONG: &str =
    "bitbench::main!(fault_kernel::Bits { fault: \"wrong\", victim: \"table\" });\n";

/// The hex encoder, shrinking its inputs unless `NO_SHRINK` is set.
const BIG: &str = r#"
fn main() -> std::process::ExitCode {
    let shrinks = std::env::var_os("NO_SHRINK").is_none();
    bitbench::cli::main(&[&fault_kernel::Hex { shrinks }], bitbench::origin!())
}
"#;

/// Where the fixture crate is written.
fn fixture_dir() -> PathBuf {
    scratch("faults")
}

/// The fixture's `faulty` and `clean` binaries (`wrong` and `big` are
/// beside them), built once for every test here and copied to a folder of
/// their own.
fn binaries() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = fixture_dir();
        std::fs::create_dir_all(dir.join("src/bin")).unwrap();
        write_outside_manifest(&dir, "fault-kernel", &["count"]);
        std::fs::write(dir.join("src/lib.rs"), LIB).unwrap();
        std::fs::write(dir.join("src/bin/faulty.rs"), FAULTY).unwrap();
        std::fs::write(dir.join("src/bin/clean.rs"), CLEAN).unwrap();
        std::fs::write(dir.join("src/bin/wrong.rs"), WRONG).unwrap();
        std::fs::write(dir.join("src/bin/big.rs"), BIG).unwrap();
        // Copied out of the target directory, which other tests here build
        // into at the same time (a matrix level, a history revision).
        let built = build_outside(&dir, "faulty");
        let bin = scratch("faults-bin");
        std::fs::create_dir_all(&bin).unwrap();
        let [faulty, clean, ..] = ["faulty", "clean", "wrong", "big"].map(|name| {
            let name = format!("{name}{}", std::env::consts::EXE_SUFFIX);
            std::fs::copy(built.with_file_name(&name), bin.join(&name)).unwrap();
            bin.join(name)
        });
        (faulty, clean)
    })
}

/// The emulated CPU the AVX2 fault needs, when `FAULT` is `avx2`: a run
/// under `qemu-x86_64 -cpu qemu64`, its children too.
const EMULATED: [&str; 3] = ["qemu-x86_64", "-cpu", "qemu64"];

fn run(exe: &Path, args: &[&str], fault: &str) -> Output {
    let mut command = if fault == "avx2" {
        let mut c = Command::new(EMULATED[0]);
        c.args(&EMULATED[1..])
            .arg(exe)
            .env("BITBENCH_RUNNER", EMULATED.join(" "));
        c
    } else {
        Command::new(exe)
    };
    command
        .args(args)
        .env("CI", "1")
        .env("FAULT", fault)
        .output()
        .expect("the fixture runs")
}

/// `check` names the variant, what happened and a shrunk input whose
/// repro line reproduces it, and the other variants still agree.
fn check(fault: &str, words: &str, extra: &[&str]) {
    let (faulty, _) = binaries();
    let mut args = vec!["check", "--cases", "200"];
    args.extend(extra);
    let out = run(faulty, &args, fault);
    let (stdout, stderr) = text(&out);
    let all = format!("{stdout}\n{stderr}");
    assert_eq!(out.status.code(), Some(1), "{fault}: {all}");
    assert!(
        stdout.contains("bits table CRASHED") || stdout.contains("bits table HUNG"),
        "{all}"
    );
    assert!(
        stdout.contains(&format!("what: {words}")),
        "{fault}: no {words:?} in {all}"
    );
    assert!(
        stdout.contains("bits: FAILED (1 crashed or hung) in "),
        "{all}"
    );
    for other in ["popcnt", "bytes"] {
        assert!(
            stdout.contains(&format!("{other}: agreed with loop on")),
            "{all}"
        );
    }
    let input = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("input: "))
        .unwrap_or_else(|| panic!("no input in {all}"));
    // Shrunk as far as it goes: every bit cleared but the three that fault.
    assert_eq!(input, "5", "{all}");
    assert!(
        stdout.contains("CRASHED (minimised") || stdout.contains("HUNG (minimised"),
        "{all}"
    );
    let repro = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: "))
        .unwrap_or_else(|| panic!("no repro in {all}"));
    let name = faulty.file_name().unwrap().to_str().unwrap();
    // A hang's line stops at the deadline it ran into (rounded up to whole
    // seconds), since `solve` alone runs as long as the variant takes.
    let deadline = match extra {
        ["--timeout", t] if fault == "loop" => {
            format!(" --timeout {}", t.parse::<f64>().unwrap().ceil())
        }
        _ => String::new(),
    };
    assert_eq!(
        repro,
        format!("{name} solve bits --variant table{deadline} '{input}'"),
        "{all}"
    );
    // The repro line, run as printed: the same fault, named, exit 1.
    let args: Vec<&str> = repro
        .split(' ')
        .skip(1)
        .map(|w| w.trim_matches('\''))
        .collect();
    let again = run(faulty, &args, fault);
    let (_, err) = text(&again);
    assert_eq!(again.status.code(), Some(1), "{err}");
    assert!(err.contains(words) && err.contains(input), "{err}");
}

/// `bench --quick`: exit 1, every other variant measured, `table`'s
/// records say what happened.
fn bench(fault: &str, status: &str, extra: &[&str]) {
    let (faulty, _) = binaries();
    let path = scratch(&format!("faults-{fault}")).with_extension("json");
    let mut args = vec!["bench", "--quick", "--out", path.to_str().unwrap()];
    args.extend(extra);
    let out = run(faulty, &args, fault);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("a results file")).unwrap();
    let records = results["records"].as_array().unwrap();
    for variant in ["loop", "popcnt", "table", "bytes"] {
        let mine: Vec<_> = records
            .iter()
            .filter(|r| r["variant"] == variant && r["metric"] == "time")
            .collect();
        assert_eq!(mine.len(), 3, "{variant}: {mine:?}");
        let want = if variant == "table" { status } else { "ok" };
        for r in mine {
            assert_eq!(r["status"], want, "{r}");
            if variant == "table" {
                assert!(r["reason"].as_str().is_some_and(|s| !s.is_empty()), "{r}");
                assert_eq!(r["samples"], 0, "{r}");
            }
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// `ab --binaries A B` of the record `table` on `p:0.5`, judging `metric`,
/// its results file at `out`.
fn ab_args<'a>([a, b]: [&'a Path; 2], metric: &'a str, out: &'a Path) -> Vec<&'a str> {
    let path = |p: &'a Path| p.to_str().expect("a UTF-8 path");
    vec![
        "ab",
        "--binaries",
        path(a),
        path(b),
        "--variant",
        "table",
        "--inputs",
        "p:0.5",
        "--metric",
        metric,
        "--out",
        path(out),
    ]
}

/// `ab --binaries clean faulty`: B faults where A does not: BROKE, exit 1.
fn ab(fault: &str, words: &str, extra: &[&str]) {
    let (faulty, clean) = binaries();
    let path = scratch(&format!("faults-ab-{fault}")).with_extension("json");
    let mut args = ab_args([clean, faulty], "time", &path);
    args.extend(extra);
    let out = run(clean, &args, fault);
    let (stdout, stderr) = text(&out);
    let all = format!("{stdout}\n{stderr}");
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(stdout.contains("BROKE"), "{all}");
    assert!(stdout.contains(words), "no {words:?} in {all}");
    assert!(stdout.contains("solve bits --variant table"), "{all}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_null_write_is_a_finding() {
    check("segv", "crashed: segmentation fault (SIGSEGV)", &[]);
    bench("segv", "crashed", &[]);
    ab("segv", "segmentation fault (SIGSEGV)", &[]);
    // Counted too where valgrind runs: B's native verification crashes, its
    // record says so, and the instructions row is BROKE with the input.
    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!("SKIPPED: instructions under ab (bash .ci/install-measure-tools installs them)");
        return;
    }
    let (faulty, clean) = binaries();
    let path = scratch("faults-count").with_extension("json");
    let out = run(
        clean,
        &ab_args([clean, faulty], "instructions", &path),
        "segv",
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.contains(" instructions "))
        .unwrap_or_else(|| panic!("no instructions row in {stdout}"));
    assert!(
        row.contains("BROKE: crashed: segmentation fault (SIGSEGV) on 5"),
        "{row}"
    );
}

#[test]
fn a_stack_overflow_is_a_finding() {
    check("stack", "aborted: stack overflow", &[]);
    bench("stack", "crashed", &[]);
    ab("stack", "aborted: stack overflow", &[]);
}

#[test]
fn an_abort_is_a_finding() {
    check("abort", "aborted (SIGABRT)", &[]);
    bench("abort", "crashed", &[]);
    ab("abort", "aborted (SIGABRT)", &[]);
}

/// The deadline. `check` at the default's half: the batch that hangs is
/// stopped at `--timeout`, but each candidate input while finding and
/// shrinking it is held only to what the reference took on the batch (and
/// a quarter of a second), so the input is shrunk all the way, where 12
/// candidates at 5 s each would have used up shrinking's budget; the one
/// input found is then confirmed to hang at the full deadline. `bench` and
/// `ab` with `--timeout` low, on inputs that loop forever, so the healthy
/// variants are far from it even on a busy machine.
#[test]
fn an_endless_loop_is_stopped_at_its_deadline() {
    check("loop", "did not finish in 5", &["--timeout", "5"]);
    bench("loop", "hung", &["--timeout", "0.3"]);
    ab("loop", "did not finish in 0.3 s", &["--timeout", "0.3"]);
}

/// `solve` runs the variant it was asked for as long as it takes: past
/// the 10 s other commands would give a batch, with one line saying how to
/// stop it; and `--timeout` still stops it.
#[test]
fn solve_runs_a_slow_variant_to_its_end() {
    let (faulty, _) = binaries();
    let out = run(
        faulty,
        &["solve", "bits", "--variant", "table", "5"],
        "slow",
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stdout.trim(), "2", "{stderr}");
    assert_eq!(
        stderr
            .lines()
            .filter(|l| *l == "still running after 10 s; `--timeout N` stops it")
            .count(),
        1,
        "{stderr}"
    );
    let args = ["solve", "bits", "--variant", "table", "--timeout", "1", "5"];
    let stopped = run(faulty, &args, "slow");
    let (_, stderr) = text(&stopped);
    assert_eq!(stopped.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("table did not finish in 1 s on '5'"),
        "{stderr}"
    );
}

/// An AVX2 instruction the variant does not declare, on an emulated CPU
/// without AVX2: `BITBENCH_RUNNER` keeps the children on that CPU.
#[cfg(target_arch = "x86_64")]
#[test]
fn an_undeclared_cpu_feature_is_a_finding() {
    if tool_missing(EMULATED[0]) {
        eprintln!("SKIPPED: qemu-x86_64 is not installed (bash .ci/install-qemu-user installs it)");
        return;
    }
    let words = "illegal instruction (SIGILL): does the variant declare every CPU feature it uses?";
    check("avx2", words, &[]);
    bench("avx2", "crashed", &[]);
    ab("avx2", words, &[]);
}

/// The oracle crashing: reported as a variant would be, and the variants
/// it could not check are said to be unchecked, never agreeing.
#[test]
fn a_crashing_oracle_leaves_the_others_unchecked() {
    let (faulty, _) = binaries();
    let out = Command::new(faulty)
        .args(["check", "--cases", "100"])
        .env("CI", "1")
        .env("FAULT", "segv")
        .env("FAULT_VARIANT", "loop")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("bits loop CRASHED"), "{stdout}");
    for other in ["popcnt", "table", "bytes"] {
        assert!(
            stdout.contains(&format!("{other}: not checked: the oracle loop CRASHED")),
            "{stdout}"
        );
    }
    assert!(!stdout.contains("agreed"), "{stdout}");
}

/// A where B is sound: `fixed`, said apart, and not a failure.
#[test]
fn a_fault_only_in_a_is_fixed() {
    let (faulty, clean) = binaries();
    let path = scratch("faults-fixed").with_extension("json");
    let mut args = ab_args([faulty, clean], "time", &path);
    args.extend(["--seconds", "0.5"]);
    let out = run(clean, &args, "abort");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("fixed: A aborted (SIGABRT) on input '5' where B does not"),
        "{stdout}"
    );
}

/// A wrong answer fails every command that runs variants, as `check`
/// does, and the last line names the wrong records: `bench`, the main job
/// (in a directory of its own, where it writes `results/` and `report/`),
/// `count` where valgrind runs, a one-level `matrix` (its level built in
/// this workspace's target directory, shared with the outside-crate
/// test's) and `history run` of the fixture as a repository of one
/// commit. The driver is a copy of `wrong`: revision builds write the
/// target directory's own.
#[test]
fn a_wrong_answer_fails_every_command() {
    let (faulty, _) = binaries();
    let scratch = scratch("wrong");
    std::fs::create_dir_all(&scratch).unwrap();
    let wrong = scratch.join("wrong");
    std::fs::copy(faulty.with_file_name("wrong"), &wrong).unwrap();
    let target = common::target_dir();
    let exits_1_naming = |args: &[&str], named: &str| {
        let out = Command::new(&wrong)
            .args(args)
            .current_dir(&scratch)
            .env("CI", "1")
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_NET_OFFLINE", "true")
            .output()
            .expect("the fixture runs");
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stdout}\n{stderr}");
        let last = stderr.trim_end().lines().last().unwrap_or_default();
        assert!(
            last.contains(named),
            "{args:?}: no {named:?} in {last:?}:\n{stdout}\n{stderr}"
        );
        (stdout, stderr)
    };
    let path = |name: &str| scratch.join(name).to_str().unwrap().to_owned();
    let every_set = "wrong answer: bits/table on p:0.2, p:0.5, p:0.8 (the results file";

    let (stdout, _) = exits_1_naming(
        &["bench", "--quick", "--out", &path("bench.json")],
        every_set,
    );
    assert!(stdout.contains("WRONG"), "{stdout}");
    // The main job: the check fails, and the bench, sweep and report still run.
    let (stdout, _) = exits_1_naming(
        &[],
        "check failed for: bits; wrong answer: bits/table on p:0.2",
    );
    // The verdict counts the inputs the variant got wrong, and the variants.
    let table = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("table: agreed with loop on"))
        .unwrap_or_else(|| panic!("no table line in {stdout}"));
    assert!(
        table.contains(", disagreed on ") && table.ends_with(" — DISAGREES"),
        "{table}"
    );
    assert!(
        stdout.contains("bits: FAILED (1 variant disagrees) in "),
        "{stdout}"
    );
    assert!(scratch.join("report/index.html").is_file());
    exits_1_naming(
        &["matrix", "--levels", "x86-64-v2", "--out", &path("matrix")],
        "matrix: wrong answer: bits/table on p:0.2, p:0.5, p:0.8",
    );
    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!(
            "SKIPPED: count (bash .ci/install-measure-tools installs valgrind and gungraun-runner)"
        );
    } else {
        let out = path("count.json");
        let args = [
            "count",
            "--variant",
            "popcnt",
            "table",
            "--inputs",
            "p:0.5",
            "--out",
            &out,
        ];
        exits_1_naming(
            &args,
            "count: wrong answer: bits/table on p:0.5 (the results file",
        );
    }

    let dir = fixture_dir();
    common::git(&dir, &["init", "-q"]);
    common::git(&dir, &["add", "-A"]);
    common::git(&dir, &["commit", "-q", "-m", "the fixture"]);
    let sha = common::git(&dir, &["rev-parse", "HEAD"]);
    let store = path("store");
    let history = ["history", "run", "HEAD", "--store", &store, "--no-count"];
    let (_, stderr) = exits_1_naming(&history, "1 of 1 commit(s)");
    let broken = format!(
        "{} bench: broken: bits/table/p:0.2: wrong answer",
        &sha[..10]
    );
    assert!(stderr.contains(&broken), "no {broken:?} in {stderr}");
    let filed = reports::history::Store::open(Path::new(&store))
        .unwrap()
        .runs()
        .unwrap();
    assert_eq!(filed.len(), 1, "filed all the same: {filed:?}");

    let kept = target.join("bitbench-ab");
    std::fs::remove_dir_all(kept.join(&sha)).ok();
    std::fs::remove_dir_all(kept.join("src").join(&sha)).ok();
    std::fs::remove_dir_all(&scratch).ok();
}

/// A wrong answer on a 1 MiB buffer (2 MiB of hex for the input and for
/// each answer) is a few KB wherever it is told: shrunk to the one byte
/// that does it, whose repro line reproduces it; with the shrinker off,
/// cut around the first difference, whose position is where the input,
/// regenerated from the set, seed and index the finding names, has its
/// first `ab`.
#[test]
fn a_wrong_answer_on_a_megabyte_input_stays_a_few_kb() {
    let (faulty, _) = binaries();
    let big = faulty.with_file_name(format!("big{}", std::env::consts::EXE_SUFFIX));
    let scratch = scratch("big");
    std::fs::create_dir_all(&scratch).unwrap();
    let run = |args: &[&str], shrinks: bool| {
        let mut command = Command::new(&big);
        command.args(args).current_dir(&scratch).env("CI", "1");
        if !shrinks {
            command.env("NO_SHRINK", "1");
        }
        command.output().expect("the fixture runs")
    };
    let size = |path: &Path| std::fs::metadata(path).unwrap().len();
    for shrinks in [true, false] {
        let results = scratch.join(format!("bench-{shrinks}.json"));
        let args = [
            "bench",
            "--quick",
            "--variant",
            "planted",
            "--inputs",
            "size:1048576",
            "--out",
            results.to_str().unwrap(),
        ];
        let out = run(&args, shrinks);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
        assert!(stdout.len() + stderr.len() < 4_000, "{stdout}\n{stderr}");
        let report = scratch.join(format!("report-{shrinks}"));
        let drawn = run(
            &[
                "report",
                results.to_str().unwrap(),
                "--out",
                report.to_str().unwrap(),
            ],
            true,
        );
        assert!(drawn.status.success(), "{}", text(&drawn).1);
        assert!(size(&results) < 8_000, "{}", size(&results));
        assert!(size(&report.join("report.md")) < 8_000);
        assert!(size(&report.join("index.html")) < 16_000);
        let page = std::fs::read_to_string(report.join("report.md")).unwrap();
        let named = "(input 0 of set 'size:1048576' (seed 1), ";
        for told in [&stdout, &page] {
            assert!(told.contains(named), "{told}");
        }
        if shrinks {
            assert!(
                stdout.contains("on ab expected ab (table) but got ba ("),
                "{stdout}"
            );
            let repro = stdout
                .lines()
                .find_map(|l| l.split("; reproduce: ").nth(1))
                .expect("a repro line");
            let words = repro.split(' ').skip(1).map(|w| w.trim_matches('\''));
            let again = run(&words.collect::<Vec<_>>(), true);
            assert_eq!(text(&again).0, "ba\n", "{repro}");
        } else {
            let inputs = run(
                &[
                    "inputs",
                    "hex",
                    "size:1048576",
                    "--seed",
                    "1",
                    "--count",
                    "1",
                ],
                true,
            );
            let input = text(&inputs).0;
            let first = (0..input.len() / 2)
                .find(|i| &input[2 * i..2 * i + 2] == "ab")
                .unwrap();
            let differ = format!("; the answers first differ at char {} (", 2 * first);
            assert!(stdout.contains(&differ), "{differ}: {stdout}");
            assert!(stdout.contains(" of 2097152]"), "{stdout}");
            assert!(stdout.contains("not shrunk: the workload's shrink offers no smaller input"));
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
}

/// A set of empty buffers (`size:0`) holds no element: `bench` measures it
/// (a call's cost is a fair question) but warns, once for the set, that
/// its time and throughput per byte mean nothing.
#[test]
fn an_input_set_of_empty_buffers_is_measured_with_a_warning() {
    let (faulty, _) = binaries();
    let big = faulty.with_file_name(format!("big{}", std::env::consts::EXE_SUFFIX));
    let scratch = scratch("empty-buffers");
    std::fs::create_dir_all(&scratch).unwrap();
    let results = scratch.join("bench.json");
    let out = Command::new(&big)
        .args([
            "bench", "--quick", "--inputs", "size:0", "--inputs", "size:64",
        ])
        .args(["--out", results.to_str().unwrap()])
        .current_dir(&scratch)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let warning = "warning: hex: input set 'size:0' holds no bytes (every input is empty), \
                   so its time and throughput per byte mean nothing";
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
    assert!(!stderr.contains("'size:64' holds no"), "{stderr}");
    assert!(results.exists());
}
