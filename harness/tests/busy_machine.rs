//! A busy machine is noticed: a process that keeps the measuring core
//! busy disturbs `bench`'s and `ab`'s samples, the records say how many
//! were set aside, and each command prints its one warning line. Nothing
//! here asserts a time.

mod common;

use common::{bitbench, stderr};
use std::process::{Child, Command, Stdio};

/// A busy loop pinned to `core` for as long as it lives.
struct Hog(Child);

impl Hog {
    fn on(core: usize) -> Hog {
        let child = Command::new("taskset")
            .args(["-c", &core.to_string(), "sh", "-c", "while :; do :; done"])
            .stdout(Stdio::null())
            .spawn()
            .expect("taskset (util-linux) runs the busy loop");
        Hog(child)
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The last core (the one measured on, with the busy loop beside it).
fn core() -> String {
    (std::thread::available_parallelism().unwrap().get() - 1).to_string()
}

#[test]
fn bench_beside_a_busy_loop_sets_samples_aside_and_warns() {
    let dir = tempfile();
    let out = dir.join("bench.json");
    let core = core();
    let _hog = Hog::on(core.parse().unwrap());
    let run = bitbench(&[
        "bench",
        "--quick",
        "components",
        "--variant",
        "swar",
        "--inputs",
        "density:0.5",
        "--core",
        &core,
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&run);
    assert!(run.status.success(), "{err}");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let record = file["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "time")
        .expect("a time record");
    let d = &record["disturbance"];
    assert_eq!(d["probe"], "rusage", "{record}");
    assert!(d["set_aside"].as_u64().unwrap() > 0, "{record}");
    assert!(d["taken"].as_u64() > d["set_aside"].as_u64(), "{record}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("components swar density:0.5"), "{err}");
    assert!(warnings[0].contains("--core"), "{err}");
}

#[test]
fn ab_beside_a_busy_loop_sets_pairs_aside_and_warns() {
    let dir = tempfile();
    let exe = env!("CARGO_BIN_EXE_bitbench");
    let core = core();
    let _hog = Hog::on(core.parse().unwrap());
    let run = bitbench(&[
        "ab",
        "--binaries",
        exe,
        exe,
        "--metric",
        "time",
        "--workload",
        "components",
        "--inputs",
        "density:0.5",
        "--seconds",
        "1",
        "--core",
        &core,
        "--format",
        "json",
        "--out",
        dir.join("ab.json").to_str().unwrap(),
    ]);
    let err = stderr(&run);
    assert!(run.status.code() == Some(0), "{err}");
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let row = &doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "time")
        .expect("a time row");
    assert!(row["set_aside"].as_u64().unwrap() > 0, "{row}");
    assert_eq!(doc["pinning"]["pinned"], "named", "{doc}");
    let warning = doc["warning"].as_str().expect("a warning");
    assert!(warning.contains("components swar density:0.5"), "{warning}");
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
}

fn tempfile() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "bitbench-busy-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A build of serve protocol 1 (from before samples were watched) still
/// pairs with one of protocol 2: an older build is emulated by a shell
/// wrapper around this one that says protocol 1, drops the window from
/// sample requests and the new fields from sample answers. The driver
/// then times whole batches and watches that build from `/proc`.
#[test]
fn a_build_of_the_first_protocol_still_pairs() {
    let dir = tempfile();
    let exe = env!("CARGO_BIN_EXE_bitbench");
    let old = dir.join("old-build");
    std::fs::write(
        &old,
        format!(
            "#!/bin/sh\n\
             [ \"$1\" = serve ] || exec {exe} \"$@\"\n\
             sed -u 's/,\"window\":{{[^}}]*}}//' | {exe} serve | sed -u \
             -e 's/\"protocol\":2/\"protocol\":1/' \
             -e '/^{{\"ns\"/s/,\"[a-z_]*\":[0-9]*//g'\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&old, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let results = dir.join("ab-old.json");
    let run = bitbench(&[
        "ab",
        "--binaries",
        old.to_str().unwrap(),
        exe,
        "--metric",
        "time",
        "--workload",
        "components",
        "--inputs",
        "density:0.5",
        "--seconds",
        "0.5",
        "--format",
        "json",
        "--out",
        results.to_str().unwrap(),
    ]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let row = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "time")
        .expect("a time row");
    assert_eq!(row["verdict"], "no_change", "{row}");
    assert!(row["pairs"].as_u64().unwrap() >= 10, "{row}");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let probes: Vec<&serde_json::Value> = file["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["disturbance"]["probe"])
        .collect();
    assert_eq!(probes, ["proc", "proc"], "{file}");
}
