//! Hand-made results files for the rendering tests: small, deterministic,
//! and shaped like what the harness writes (oracle first, the density sweep
//! and the rank-by-depth grid, a counter metric). They are written as
//! schema 1 did (sweeps named `density:P`, `rank:R depth:D`; the oracle
//! first) and loaded as a reader loads them, so the migration fills in the
//! parameters and oracle that schema 2 records carry.

#![allow(dead_code)]

pub mod svg;

use bitbench_reports::{Build, Machine, Metric, Record, ResultsFile, Status};
use std::path::Path;

/// A record with the statistics derived from `median`.
pub fn rec(
    workload: &str,
    variant: &str,
    set: &str,
    cpu: &str,
    metric: Metric,
    unit: &str,
    median: f64,
) -> Record {
    Record {
        workload: workload.into(),
        variant: variant.into(),
        input_set: set.into(),
        target_cpu: cpu.into(),
        metric,
        unit: unit.into(),
        status: Status::Ok,
        reason: None,
        median,
        mad: median * 0.03,
        min: median * 0.95,
        max: median * 1.1,
        samples: 11,
        elements_per_sample: 1000,
        source: None,
        parameters: Vec::new(),
        oracle: None,
        rounds: Vec::new(),
        interval: None,
        paired: None,
        disturbance: None,
        unit_plural: None,
        profile: None,
        features: Vec::new(),
        dispatcher: false,
        clock: None,
    }
}

/// `r` with samples as `bench` keeps them: three rounds of eight around
/// its median (up to 4 % above), the median of them all and its 95 %
/// interval.
pub fn with_rounds(mut r: Record) -> Record {
    let centre = r.median;
    r.rounds = (0..3)
        .map(|k| {
            (0..8)
                .map(|i| centre * (1.0 + 0.01 * f64::from((k * 8 + i) % 5)))
                .collect()
        })
        .collect();
    let mut all: Vec<f64> = r.rounds.concat();
    r.median = bitbench_reports::interval::median(&mut all);
    r.interval = bitbench_reports::interval::median_interval(&r.rounds, 1);
    r
}

/// A record that was not measured.
pub fn not_measured(
    workload: &str,
    variant: &str,
    set: &str,
    cpu: &str,
    status: Status,
    reason: &str,
) -> Record {
    Record {
        status,
        reason: Some(reason.into()),
        median: 0.0,
        mad: 0.0,
        min: 0.0,
        max: 0.0,
        samples: 0,
        ..rec(workload, variant, set, cpu, Metric::Time, "ns/solve", 0.0)
    }
}

/// A schema-1 file of `records`, loaded (and so migrated) as from disk.
pub fn file(records: Vec<Record>) -> ResultsFile {
    let legacy = ResultsFile {
        schema: 1,
        date: "2026-11-22T10:00:00Z".into(),
        command: "bitbench bench --quick".into(),
        machine: Machine {
            cpu_model: "Test CPU 9000".into(),
            cpu_flags: vec!["sse4.2".into(), "avx2".into()],
            cores: 2,
            os: "Linux 6.1".into(),
            rustc: "rustc 1.95.0".into(),
            git_commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
            ..Machine::default()
        },
        build: Build {
            target_cpu: "default".into(),
            features: vec![],
            profile: "release".into(),
        },
        records,
        environment: None,
    };
    let json = serde_json::to_string(&legacy).expect("a results file serialises");
    ResultsFile::from_json(Path::new("fixture.json"), &json).expect("schema 1 is read")
}

pub const COMPONENTS: [&str; 4] = ["naive-bfs", "bit-bfs", "flood", "swar"];

/// components: two headline sets, a five-point density sweep, and
/// instruction counts, at each of `cpus`.
pub fn components(cpus: &[&str], scale: f64) -> Vec<Record> {
    let mut out = Vec::new();
    for cpu in cpus {
        for (i, v) in COMPONENTS.iter().enumerate() {
            let speed = scale / (1.0 + 2.0 * i as f64);
            for set in ["seed", "game"] {
                out.push(rec(
                    "components",
                    v,
                    set,
                    cpu,
                    Metric::Time,
                    "ns/board",
                    900.0 * speed,
                ));
            }
            for p in [0.1, 0.3, 0.5, 0.7, 0.9] {
                let t = 300.0 * speed * (1.0 + 4.0 * p * (1.0 - p) * (4 - i) as f64);
                out.push(rec(
                    "components",
                    v,
                    &format!("density:{p}"),
                    cpu,
                    Metric::Time,
                    "ns/board",
                    t,
                ));
            }
            if *cpu != "x86-64-v4" {
                out.push(rec(
                    "components",
                    v,
                    "seed",
                    cpu,
                    Metric::Instructions,
                    "instructions/board",
                    4000.0 / (1.0 + i as f64),
                ));
            }
        }
    }
    out
}

/// Time per solve for the rank-by-depth grid: cheap at high rank, growing
/// with depth, shaped loosely like the seed write-up's table.
pub fn grid_ns(rank: u32, depth: u32) -> f64 {
    let d = f64::from(depth - 5);
    let r = f64::from(rank);
    1000.0 * (1.0 + d * d * d / (1.0 + r * r * 0.3)) + 37.0 * r
}

/// cephalopod: the oracle measured only on the official set (skipped for
/// one reason on two empty-board sets), `swar` on those and on every cell
/// of `ranks` × `depths` except `hole`, with one skipped and one error cell
/// among them.
pub fn cephalopod(
    ranks: std::ops::RangeInclusive<u32>,
    depths: std::ops::RangeInclusive<u32>,
    hole: (u32, u32),
) -> Vec<Record> {
    let mut out = vec![
        rec(
            "cephalopod",
            "naive",
            "official",
            "default",
            Metric::Time,
            "ns/solve",
            8.0e6,
        ),
        rec(
            "cephalopod",
            "swar",
            "official",
            "default",
            Metric::Time,
            "ns/solve",
            1.5e5,
        ),
    ];
    for (set, ns) in [("empty:20", 4.2e6), ("empty:24", 9.7e6)] {
        out.push(not_measured(
            "cephalopod",
            "naive",
            set,
            "default",
            Status::Skipped,
            "cost model: oracle needs about 3 h",
        ));
        out.push(rec(
            "cephalopod",
            "swar",
            set,
            "default",
            Metric::Time,
            "ns/solve",
            ns,
        ));
    }
    for rank in ranks.clone() {
        for depth in depths.clone() {
            let set = format!("rank:{rank} depth:{depth}");
            if (rank, depth) == hole {
                continue;
            }
            if (rank, depth) == (*ranks.start(), *depths.end()) {
                out.push(not_measured(
                    "cephalopod",
                    "swar",
                    &set,
                    "default",
                    Status::Skipped,
                    "budget",
                ));
            } else if (rank, depth) == (*ranks.end(), *depths.start()) {
                out.push(not_measured(
                    "cephalopod",
                    "swar",
                    &set,
                    "default",
                    Status::Error,
                    "wrong hash",
                ));
            } else {
                out.push(rec(
                    "cephalopod",
                    "swar",
                    &set,
                    "default",
                    Metric::Time,
                    "ns/solve",
                    grid_ns(rank, depth),
                ));
            }
        }
    }
    out
}

/// meteor: time and a search-node counter on two sets.
pub fn meteor() -> Vec<Record> {
    let mut out = Vec::new();
    for (i, v) in ["naive", "bitmask", "islands"].iter().enumerate() {
        for set in ["full", "partial:10"] {
            let t = if set == "full" { 2.0e8 } else { 3.0e5 } / (1.0 + 3.0 * i as f64);
            out.push(rec(
                "meteor",
                v,
                set,
                "default",
                Metric::Time,
                "ns/input",
                t,
            ));
            out.push(rec(
                "meteor",
                v,
                set,
                "default",
                Metric::Counter,
                "nodes/input",
                1.0e6 / (1.0 + i as f64),
            ));
        }
    }
    out
}

/// A workload with `n` variants, to check legends and labels stay apart.
pub fn many_variants(n: usize) -> Vec<Record> {
    (0..n)
        .flat_map(|i| {
            let v = format!("variant-with-a-long-name-{i}");
            ["7x6k4/random:20", "9x7k5/endgames:200"].map(move |set| {
                rec(
                    "connectx",
                    &v,
                    set,
                    "default",
                    Metric::Time,
                    "ns/position",
                    50.0 + 40.0 * i as f64,
                )
            })
        })
        .collect()
}

/// A fresh, empty directory under the test target's temp dir.
pub fn out_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
