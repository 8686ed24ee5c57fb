//! The hex example, `harness/examples/hex`: three published hex encoders
//! (hex, faster-hex, const-hex) against a scalar loop of its own over a
//! sweep of buffer sizes, built with bitbench's `count` feature; the crate
//! the gate measurements in the guide are taken on. Its registry
//! dependencies are fetched for its committed lock file, then it is built
//! with that lock file into this workspace's target directory; its unit
//! tests run, then `check` and a `bench --quick` of two sizes through its
//! own binary: every encoder agrees with the oracle, and each record
//! carries its buffer size as the parameter `bytes`, in bytes. The gate
//! it carries is the one its own `ci --init --root .` writes.

mod common;

use common::{build_outside_locked, cargo_outside, fresh_scratch, run_outside};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The oracle, then the crates.
const VARIANTS: [&str; 4] = ["scalar", "hex", "faster-hex", "const-hex"];
/// The sizes the bench measures: one a few SIMD blocks long, one past L2.
const SIZES: [&str; 2] = ["size:64", "size:524288"];

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hex")
}

#[test]
fn the_hex_example_agrees_with_its_oracle_and_records_its_sizes() {
    let hex = build_outside_locked(&example(), "hex-encoders");
    cargo_outside(
        &example(),
        &["test", "--release", "--offline", "--locked", "--lib"],
    );
    let scratch = fresh_scratch("hex-example");
    let run = |args: &[&str]| run_outside(&hex, &scratch, args).0;

    let list: Vec<Value> = serde_json::from_str(&run(&["list", "--json"])).unwrap();
    let variants: Vec<&str> = list
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(variants, VARIANTS);

    let check = run(&["check", "--cases", "50"]);
    for v in &VARIANTS[1..] {
        assert!(
            check.contains(&format!("{v}: agreed with scalar on")),
            "{check}"
        );
    }

    let results = scratch.join("quick.json");
    let mut bench = vec!["bench", "--quick", "--rounds", "1", "--inputs"];
    bench.extend(SIZES);
    bench.extend(["--out", results.to_str().unwrap()]);
    run(&bench);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let records: Vec<&Value> = file["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["metric"] == "time")
        .collect();
    for v in VARIANTS {
        let of_v: Vec<&&Value> = records.iter().filter(|r| r["variant"] == v).collect();
        let sets: Vec<&str> = of_v
            .iter()
            .map(|r| r["input_set"].as_str().unwrap())
            .collect();
        assert_eq!(sets, SIZES, "{v}");
        for (r, set) in of_v.iter().zip(SIZES) {
            assert_eq!(r["status"], "ok", "{v} {set}: {r}");
            assert_eq!(r["oracle"], "scalar", "{v} {set}");
            assert_eq!(r["unit"], "ns/byte", "{v} {set}");
            let bytes: f64 = set["size:".len()..].parse().unwrap();
            let parameters = r["parameters"].as_array().unwrap();
            assert_eq!(parameters.len(), 1, "{v} {set}: {parameters:?}");
            assert_eq!(parameters[0]["name"], "bytes", "{v} {set}");
            assert_eq!(parameters[0]["value"].as_f64(), Some(bytes), "{v} {set}");
        }
    }
    std::fs::remove_dir_all(&scratch).ok();

    // Its committed gate is what its own program writes for it, as the
    // root of a repository of its own.
    let (out, _) = run_outside(&hex, &example(), &["ci", "--check", "--root", "."]);
    assert!(
        out.contains(".github/workflows/bench-gate.yml is what ci --init writes"),
        "{out}"
    );
}
