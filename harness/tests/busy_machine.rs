//! A busy machine is noticed: a thread that keeps interrupting the
//! measuring core disturbs `bench`'s and `ab`'s samples, the records say how many
//! were set aside, and each command prints its one warning line. Nothing
//! here asserts a time.

mod common;

use common::{bitbench, scratch, stderr};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A thread of this test pinned to `core` that keeps interrupting it, for
/// as long as it lives: it spins 100 µs, sleeps 200 µs, and each time it
/// wakes it takes the core from whatever runs there (a waking thread
/// that has used little CPU preempts a running one), so a sample on that
/// core loses its time: about a third of `ab`'s pairs and nearly every
/// `bench` piece on a Zen 4.
struct Interrupter {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// One test at a time: an interrupter must not disturb another test's
/// run, nor two interrupters share a core.
static ALONE: Mutex<()> = Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ALONE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Interrupter {
    fn on(core: &str) -> Interrupter {
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, core) = (Arc::clone(&stop), core.to_owned());
        let (pinned, ready) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let me = std::fs::read_link("/proc/thread-self").expect("/proc/thread-self");
            let tid = me.file_name().unwrap().to_str().unwrap().to_owned();
            let status = Command::new("taskset")
                .args(["-p", "-c", &core, &tid])
                .stdout(Stdio::null())
                .status()
                .expect("taskset (util-linux) pins the thread");
            pinned.send(status.success()).unwrap();
            while !flag.load(Ordering::Relaxed) {
                let spin = Instant::now();
                while spin.elapsed() < Duration::from_micros(100) {
                    std::hint::spin_loop();
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        });
        assert!(ready.recv().unwrap(), "the interrupter is pinned");
        Interrupter {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Interrupter {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The last core (the one measured on, with the busy loop beside it).
fn core() -> String {
    (std::thread::available_parallelism().unwrap().get() - 1).to_string()
}

#[test]
fn bench_beside_an_interrupting_thread_sets_samples_aside_and_warns() {
    let dir = tempfile();
    let out = dir.join("bench.json");
    let core = core();
    let _alone = alone();
    let _interrupter = Interrupter::on(&core);
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
    assert!(d["taken"].as_u64() >= d["set_aside"].as_u64(), "{record}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("components swar density:0.5"), "{err}");
    assert!(warnings[0].contains("--core"), "{err}");
}

#[test]
fn ab_beside_an_interrupting_thread_sets_pairs_aside_and_warns() {
    let dir = tempfile();
    let exe = env!("CARGO_BIN_EXE_bitbench");
    let core = core();
    let _alone = alone();
    let _interrupter = Interrupter::on(&core);
    let out = dir.join("ab.json");
    let (err, doc, row) = ab_time(
        exe,
        exe,
        &[
            "--seconds",
            "1",
            "--core",
            &core,
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(row["set_aside"].as_u64().unwrap() > 0, "{row}");
    assert_eq!(doc["pinning"]["pinned"], "named", "{doc}");
    let warning = doc["warning"].as_str().expect("a warning");
    assert!(warning.contains("components swar density:0.5"), "{warning}");
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
}

/// `ab --binaries A B` of components' swar on density:0.5, time only, in
/// JSON, with `extra` arguments: its output (exit 0 or 1: a verdict
/// either way), the document and its time row.
fn ab_time(a: &str, b: &str, extra: &[&str]) -> (String, serde_json::Value, serde_json::Value) {
    let mut args = vec![
        "ab",
        "--binaries",
        a,
        b,
        "--metric",
        "time",
        "--workload",
        "components",
        "--inputs",
        "density:0.5",
        "--format",
        "json",
    ];
    args.extend(extra);
    let run = bitbench(&args);
    let err = stderr(&run);
    assert!(matches!(run.status.code(), Some(0 | 1)), "{err}");
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let row = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "time")
        .expect("a time row")
        .clone();
    (err, doc, row)
}

/// A directory of the calling test's own: named by its thread, as the
/// tests here share one process.
fn tempfile() -> std::path::PathBuf {
    let dir = scratch(&format!("busy-{:?}", std::thread::current().id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A build of serve protocol 1 (from before samples were watched) still
/// pairs with one of today's: an older build is emulated by a shell
/// wrapper around this one that says protocol 1, drops the window from
/// sample requests, the new fields from sample answers and what a load
/// counted and calibrated (protocol 3) from load answers. The driver then
/// times whole batches and watches that build from `/proc`.
#[test]
fn a_build_of_the_first_protocol_still_pairs() {
    let _alone = alone();
    let dir = tempfile();
    let exe = env!("CARGO_BIN_EXE_bitbench");
    let old = dir.join("old-build");
    std::fs::write(
        &old,
        format!(
            "#!/bin/sh\n\
             [ \"$1\" = serve ] || exec {exe} \"$@\"\n\
             sed -u 's/,\"window\":{{[^}}]*}}//' | {exe} serve | sed -u \
             -e 's/\"protocol\":[0-9]*/\"protocol\":1/' \
             -e 's/,\"allocations\":{{[^}}]*}}//' -e 's/,\"ghz\":[0-9.e-]*//' \
             -e '/^{{\"ns\"/s/,\"[a-z_]*\":[0-9]*//g'\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&old, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let results = dir.join("ab-old.json");
    // Judged either way: the wrapper's pipeline is not pinned as a real
    // build is, so the verdict itself is not the point.
    let (_, _, row) = ab_time(
        old.to_str().unwrap(),
        exe,
        &[
            "--seconds",
            "0.5",
            "--threshold",
            "5",
            "--out",
            results.to_str().unwrap(),
        ],
    );
    assert!(
        row["level"].is_number() && row["change_pct"].is_number(),
        "{row}"
    );
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
