//! Allocations per element are exact: a program whose variants allocate
//! 0, 1 and 3 times per input, of known sizes, and one that allocates
//! only while it sets up, benched through the command line, reads exactly
//! those counts.
//!
//! The counters are process-wide, so the program under test is this
//! binary run again (`harness = false`: no test threads of its own
//! allocating beside the region). Run with [`PROGRAM`] set, it is the
//! program: the counting allocator wrapped around an allocator of its
//! own, as a crate with one would do.

use bitbench::{CountingAlloc, InputSet, Member, Solve, VariantInfo, Workload};
use reports::{Metric, ResultsFile, Status};
use std::alloc::System;
use std::hint::black_box;
use std::process::{Command, ExitCode};

#[global_allocator]
static ALLOC: CountingAlloc<System> = CountingAlloc::new(System);

/// Set in the environment of the run that is the program.
const PROGRAM: &str = "BITBENCH_ALLOCATIONS_PROGRAM";

/// Each input `n` answers `3 n`; the variants differ in what they
/// allocate on the way.
struct Allocs;

/// A solver that builds a table once, on first use, and then allocates
/// nothing.
#[derive(Default)]
struct Lazy(Option<Vec<u64>>);

impl Solve<u64, u64> for Lazy {
    fn solve_batch(&mut self, inputs: &[u64], out: &mut [u64]) {
        let table = self
            .0
            .get_or_insert_with(|| (0..1024).map(|i| i * 3).collect());
        for (n, o) in inputs.iter().zip(out) {
            *o = table[*n as usize % 1024] + n / 1024 * 3072;
        }
    }
}

impl Workload for Allocs {
    type Input = u64;
    type Output = u64;
    fn name(&self) -> &'static str {
        "allocs"
    }
    fn description(&self) -> &'static str {
        "three times a number, allocating on the way"
    }
    fn unit(&self) -> &'static str {
        "numbers"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("none", "multiplies (the oracle)", &[]),
            VariantInfo::new("one", "a vector of four words", &[]),
            VariantInfo::new("three", "boxes of 8, 16 and 24 bytes", &[]),
            VariantInfo::new("setup", "a table built on first use", &[]),
        ]
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u64>>> {
        Some(match variant {
            "none" => Box::new(|n: &u64| n * 3),
            "one" => Box::new(|n: &u64| black_box(vec![*n; 4]).iter().take(3).sum()),
            "three" => Box::new(|n: &u64| {
                let a = black_box(Box::new(*n));
                let b = black_box(Box::new([*n; 2]));
                let c = black_box(Box::new([*n; 3]));
                *a + b[1] + c[2]
            }),
            "setup" => Box::new(Lazy::default()),
            _ => return None,
        })
    }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::new("small", "numbers below 10 000")]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["small".into()]
    }
    fn generate(&self, _set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
        Ok((0..n as u64).map(|i| (i * 7919 + seed) % 10_000).collect())
    }
    fn parse_input(&self, text: &str) -> Result<u64, String> {
        text.parse().map_err(|e| format!("{e}"))
    }
    fn format_input(&self, input: &u64) -> String {
        input.to_string()
    }
    fn format_output(&self, output: &u64) -> String {
        output.to_string()
    }
}

fn main() -> ExitCode {
    if std::env::var_os(PROGRAM).is_some() {
        static WORKLOADS: &[&dyn bitbench::DynWorkload] = &[&Allocs];
        return bitbench::cli::main(WORKLOADS, bitbench::origin!());
    }
    let dir = std::env::temp_dir().join(format!("bitbench-allocations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("bench.json");
    let o = Command::new(std::env::current_exe().unwrap())
        .env(PROGRAM, "1")
        .args(["bench", "--quick", "--rounds", "1", "--out"])
        .arg(&results)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let file = ResultsFile::read(&results).unwrap();
    let of = |metric: Metric, variant: &str| {
        let r = file
            .records
            .iter()
            .find(|r| r.metric == metric && r.variant == variant)
            .unwrap_or_else(|| panic!("no {metric} record of {variant}: {out}"));
        assert_eq!(r.status, Status::Ok, "{r:?}");
        r
    };
    // Per input (one element each): the count and the bytes exactly.
    for (variant, allocations, bytes) in [
        ("none", 0.0, 0.0),
        ("one", 1.0, 32.0),
        ("three", 3.0, 48.0),
        ("setup", 0.0, 0.0),
    ] {
        let counted = of(Metric::Allocations, variant);
        assert_eq!(counted.median, allocations, "{variant}: {counted:?}");
        assert_eq!(counted.unit, "allocations/number");
        assert_eq!(
            of(Metric::AllocatedBytes, variant).median,
            bytes,
            "{variant}"
        );
    }
    // What one input holds at once, freed before the next.
    assert_eq!(of(Metric::PeakBytes, "one").median, 32.0);
    assert_eq!(of(Metric::PeakBytes, "three").median, 48.0);
    assert_eq!(of(Metric::PeakBytes, "none").median, 0.0);
    assert!(
        out.contains("allocs: allocations per number") && out.contains("3 · 48 B · 48 B"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    println!("allocations: counted exactly for 4 variants");
    ExitCode::SUCCESS
}
