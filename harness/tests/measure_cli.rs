//! End-to-end tests of the measurement commands: `compare` exit codes on
//! hand-made results files, `export` formats parsed back, and `count`
//! determinism (skipped, with a message, where valgrind or gungraun-runner
//! is missing).

use reports::{Build, Machine, Metric, Record, ResultsFile, Status};
use std::path::{Path, PathBuf};
use std::process::Command;
mod common;
use common::{bitbench, scratch, stderr, stdout, tool_missing};

/// A scratch directory per test, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = scratch(&format!("measure-{name}"));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }

    fn arg(&self, file: &str) -> String {
        self.path(file).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn record(variant: &str, metric: Metric, median: f64, mad: f64) -> Record {
    Record {
        workload: "components".into(),
        variant: variant.into(),
        input_set: "density:0.5".into(),
        target_cpu: "x86-64-v3".into(),
        metric,
        unit: match metric {
            Metric::Time => "ns/board".into(),
            _ => "instructions/board".into(),
        },
        median,
        mad,
        min: median - mad,
        max: median + mad,
        samples: 9,
        elements_per_sample: 1024,
        ..Record::default()
    }
}

fn write(path: &Path, records: Vec<Record>) {
    let mut file = ResultsFile::new(
        "2026-11-22T00:00:00Z".into(),
        "test".into(),
        Machine::default(),
        Build::default(),
    );
    file.records = records;
    file.write(path).unwrap();
}

#[test]
fn compare_gates_instruction_regressions_by_plain_percent() {
    let s = Scratch::new("compare-instr");
    write(
        &s.path("base.json"),
        vec![
            record("swar", Metric::Instructions, 1000.0, 0.0),
            record("flood", Metric::Instructions, 2000.0, 0.0),
        ],
    );
    write(
        &s.path("same.json"),
        vec![
            record("swar", Metric::Instructions, 1000.0, 0.0),
            record("flood", Metric::Instructions, 2000.0, 0.0),
        ],
    );
    write(
        &s.path("worse.json"),
        vec![
            record("swar", Metric::Instructions, 1100.0, 0.0),
            record("flood", Metric::Instructions, 1500.0, 0.0),
        ],
    );

    let same = bitbench(&["compare", &s.arg("base.json"), &s.arg("same.json")]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(
        stdout(&same).contains("2 record(s) compared: 0 regressed"),
        "{}",
        stdout(&same)
    );

    let worse = bitbench(&["compare", &s.arg("base.json"), &s.arg("worse.json")]);
    assert_eq!(worse.status.code(), Some(1), "{}", stdout(&worse));
    let table = stdout(&worse);
    let swar = table.lines().find(|l| l.contains("swar")).unwrap();
    assert!(
        swar.contains("+10.00%") && swar.ends_with("REGRESSED"),
        "{swar}"
    );
    let flood = table.lines().find(|l| l.contains("flood")).unwrap();
    assert!(
        flood.contains("-25.00%") && flood.ends_with("improved"),
        "{flood}"
    );
    assert!(
        stderr(&worse).contains("1 record(s) regressed"),
        "{}",
        stderr(&worse)
    );

    // The same change under a looser threshold passes.
    let loose = bitbench(&[
        "compare",
        &s.arg("base.json"),
        &s.arg("worse.json"),
        "--threshold",
        "15",
    ]);
    assert_eq!(loose.status.code(), Some(0), "{}", stdout(&loose));
}

/// `count --cache`'s metrics gate like instructions: exactly, each alone.
#[test]
fn compare_gates_on_cache_metrics() {
    let s = Scratch::new("compare-cache");
    let cache = |d1: f64, cycles: f64| {
        vec![
            record("swar", Metric::Instructions, 1000.0, 0.0),
            record("swar", Metric::D1Misses, d1, 0.0),
            record("swar", Metric::EstimatedCycles, cycles, 0.0),
        ]
    };
    write(&s.path("base.json"), cache(3.0, 1200.0));
    write(&s.path("new.json"), cache(4.5, 1200.0));
    let gate = |metric: &str| {
        let out = bitbench(&[
            "compare",
            &s.arg("base.json"),
            &s.arg("new.json"),
            "--metric",
            metric,
        ]);
        (out.status.code(), stdout(&out))
    };
    let (code, table) = gate("d1_misses");
    assert_eq!(code, Some(1), "{table}");
    assert!(
        table.contains("+50.00%") && table.contains("REGRESSED"),
        "{table}"
    );
    let (code, table) = gate("estimated_cycles");
    assert_eq!(code, Some(0), "{table}");
    assert!(
        table.contains("1 record(s) compared: 0 regressed"),
        "{table}"
    );
    // The default (time and instructions) leaves them out.
    let out = bitbench(&["compare", &s.arg("base.json"), &s.arg("new.json")]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// A time record of 3 rounds of 10 seeded samples around `centre`, each
/// round offset by up to ±3 % (noise between runs), each sample by ±1 %.
fn timed(variant: &str, centre: f64, seed: u64) -> Record {
    let mut x = seed;
    let mut unit = move || {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let rounds: Vec<Vec<f64>> = (0..3)
        .map(|_| {
            let offset = 0.03 * unit();
            (0..10)
                .map(|_| centre * (1.0 + offset + 0.01 * unit()))
                .collect()
        })
        .collect();
    let mut all: Vec<f64> = rounds.iter().flatten().copied().collect();
    all.sort_by(f64::total_cmp);
    Record {
        rounds,
        ..record(variant, Metric::Time, (all[14] + all[15]) / 2.0, 0.1)
    }
}

/// Two runs of the same distributions are no change; one 15 % slower is a
/// regression; records without samples enough for an interval cannot be
/// judged, which is an error when nothing else could be.
#[test]
fn compare_judges_time_by_the_interval_of_the_ratio() {
    let s = Scratch::new("compare-time");
    let run = |name: &str, seed: u64, slow: f64| {
        write(
            &s.path(name),
            vec![
                timed("swar", 10.0 * slow, seed),
                timed("flood", 20.0, seed + 1),
            ],
        );
    };
    run("base.json", 1, 1.0);
    run("again.json", 7, 1.0);
    run("slow.json", 13, 1.15);
    let again = bitbench(&["compare", &s.arg("base.json"), &s.arg("again.json")]);
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    assert!(
        stdout(&again).contains("0 regressed, 0 improved, 2 no change"),
        "{}",
        stdout(&again)
    );
    let slow = bitbench(&["compare", &s.arg("base.json"), &s.arg("slow.json")]);
    assert_eq!(slow.status.code(), Some(1), "{}", stdout(&slow));
    let row = stdout(&slow);
    let swar = row.lines().find(|l| l.contains("swar")).unwrap();
    assert!(swar.ends_with("REGRESSED"), "{swar}");

    // The same medians without their samples: nothing can be judged.
    write(
        &s.path("bare.json"),
        vec![record("swar", Metric::Time, 11.5, 0.1)],
    );
    let bare = bitbench(&["compare", &s.arg("base.json"), &s.arg("bare.json")]);
    assert_eq!(bare.status.code(), Some(2), "{}", stdout(&bare));
    assert!(
        stdout(&bare).contains("not comparable: too few samples"),
        "{}",
        stdout(&bare)
    );
    assert!(
        stderr(&bare).contains("no record could be judged"),
        "{}",
        stderr(&bare)
    );

    // Asking only for instructions finds nothing: an empty baseline.
    let none = bitbench(&[
        "compare",
        &s.arg("base.json"),
        &s.arg("slow.json"),
        "--metric",
        "instructions",
    ]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        stderr(&none).contains("no instructions records"),
        "{}",
        stderr(&none)
    );
}

/// Files from different machines are refused with one line naming the
/// field, unless asked; the verdicts come as Markdown or JSON on request.
#[test]
fn compare_refuses_other_machines_and_speaks_markdown_and_json() {
    let s = Scratch::new("compare-machine");
    write(&s.path("base.json"), vec![timed("swar", 10.0, 1)]);
    let mut other = ResultsFile::read(&s.path("base.json")).unwrap();
    other.machine.cpu_model = "Another CPU".into();
    other.records = vec![timed("swar", 11.5, 2)];
    other.write(&s.path("other.json")).unwrap();
    let refused = bitbench(&["compare", &s.arg("base.json"), &s.arg("other.json")]);
    assert_eq!(refused.status.code(), Some(2));
    let err = stderr(&refused);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("cpu_model ('' vs 'Another CPU')"), "{err}");

    let md = bitbench(&[
        "compare",
        &s.arg("base.json"),
        &s.arg("other.json"),
        "--allow-mismatch",
        "--format",
        "markdown",
    ]);
    assert_eq!(md.status.code(), Some(1), "{}", stderr(&md));
    assert!(
        stdout(&md).starts_with("| workload | variant |"),
        "{}",
        stdout(&md)
    );
    assert!(stdout(&md).contains("| **REGRESSED** |"), "{}", stdout(&md));
    let json = bitbench(&[
        "compare",
        &s.arg("base.json"),
        &s.arg("other.json"),
        "--allow-mismatch",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["regressed"], 1);
    assert_eq!(doc["rows"][0]["verdict"], "regressed");
    let interval = &doc["rows"][0]["interval_pct"];
    assert!(interval["low"].as_f64().unwrap() > 5.0, "{interval}");
}

#[test]
fn compare_rejects_corrupt_and_future_schema_files_with_exit_2() {
    let s = Scratch::new("compare-bad");
    write(
        &s.path("base.json"),
        vec![record("swar", Metric::Instructions, 1000.0, 0.0)],
    );
    std::fs::write(s.path("corrupt.json"), "{\"schema\": 1, \"records\": [").unwrap();
    let mut future: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("base.json")).unwrap()).unwrap();
    future["schema"] = 99.into();
    std::fs::write(s.path("future.json"), future.to_string()).unwrap();

    let corrupt = bitbench(&["compare", &s.arg("base.json"), &s.arg("corrupt.json")]);
    assert_eq!(corrupt.status.code(), Some(2));
    let message = stderr(&corrupt);
    assert!(
        message.contains("corrupt.json: not a bitbench results file"),
        "{message}"
    );
    assert_eq!(message.trim().lines().count(), 1, "{message}");

    let future = bitbench(&["compare", &s.arg("future.json"), &s.arg("base.json")]);
    assert_eq!(future.status.code(), Some(2));
    assert!(
        stderr(&future).contains("future.json: results schema 99 is not supported"),
        "{}",
        stderr(&future)
    );
    let missing = bitbench(&["compare", &s.arg("base.json"), &s.arg("nope.json")]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn exports_parse_back_in_their_documented_shapes() {
    let s = Scratch::new("export");
    let mut skipped = record("avx512", Metric::Instructions, 0.0, 0.0);
    skipped.status = Status::Skipped;
    skipped.reason = Some("not countable: valgrind has no AVX-512, sorry".into());
    write(
        &s.path("run.json"),
        vec![
            record("swar", Metric::Time, 12.5, 0.25),
            record("swar", Metric::Instructions, 1108.5, 0.0),
            skipped,
        ],
    );

    // CSV: a header and one row per record, skipped ones included.
    let csv = bitbench(&["export", &s.arg("run.json"), "--format", "csv"]);
    assert!(csv.status.success(), "{}", stderr(&csv));
    let text = stdout(&csv);
    let rows: Vec<Vec<String>> = text.lines().map(split_csv).collect();
    assert_eq!(rows.len(), 4);
    let header = &rows[0];
    assert!(rows.iter().all(|r| r.len() == header.len()), "{rows:?}");
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows[1][col("variant")], "swar");
    assert_eq!(rows[1][col("median")].parse::<f64>().unwrap(), 12.5);
    assert_eq!(rows[2][col("metric")], "instructions");
    assert_eq!(rows[3][col("status")], "skipped");
    assert_eq!(
        rows[3][col("reason")],
        "not countable: valgrind has no AVX-512, sorry"
    );

    // Bencher Metric Format: benchmark → measure → {value, ...}.
    let out = s.path("bmf.json");
    let bmf = bitbench(&[
        "export",
        &s.arg("run.json"),
        "--format",
        "bmf",
        "--out",
        &out.to_string_lossy(),
    ]);
    assert!(bmf.status.success(), "{}", stderr(&bmf));
    assert!(stderr(&bmf).contains("1 record(s) without a measurement"));
    let bmf: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let benchmarks = bmf.as_object().unwrap();
    assert_eq!(benchmarks.len(), 1, "{bmf}");
    let swar = &bmf["components/swar/density:0.5/x86-64-v3"];
    assert_eq!(swar["latency"]["value"], 12.5);
    assert!(swar["latency"]["lower_value"].as_f64().unwrap() <= 12.5);
    assert!(swar["latency"]["upper_value"].as_f64().unwrap() >= 12.5);
    assert_eq!(swar["instructions"]["value"], 1108.5);

    // github-action-benchmark customSmallerIsBetter: [{name, unit, value}].
    let gab = bitbench(&[
        "export",
        &s.arg("run.json"),
        "--format",
        "github-action-benchmark",
    ]);
    assert!(gab.status.success(), "{}", stderr(&gab));
    let entries: serde_json::Value = serde_json::from_slice(&gab.stdout).unwrap();
    let entries = entries.as_array().unwrap();
    assert_eq!(entries.len(), 2);
    let mut names = Vec::new();
    for e in entries {
        names.push(e["name"].as_str().unwrap().to_owned());
        assert!(e["unit"].is_string() && e["value"].is_number(), "{e}");
    }
    names.dedup();
    assert_eq!(names.len(), 2, "names must be unique per series: {names:?}");

    let bad = bitbench(&["export", &s.arg("run.json"), "--format", "xml"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// Splits one RFC 4180 line (no embedded line breaks in these records).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

#[test]
fn count_without_valgrind_says_how_to_install_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_bitbench"))
        .args([
            "count",
            "components",
            "--variant",
            "swar",
            "--inputs",
            "seed",
        ])
        .env("PATH", "/nonexistent")
        .env("CI", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(message.contains("valgrind is not installed"), "{message}");
    assert!(message.contains("ci --install-tools"), "{message}");
}

#[test]
fn matrix_rejects_unknown_levels() {
    let out = bitbench(&["matrix", "--levels", "x86-64,x86-64-v9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown target-cpu level 'x86-64-v9'"));
}

#[test]
fn count_gives_identical_instructions_on_consecutive_runs() {
    if let Some(tool) = ["valgrind", "gungraun-runner"]
        .into_iter()
        .find(|t| tool_missing(t))
    {
        eprintln!("SKIPPED: {tool} is not installed (bash .ci/install-measure-tools installs it)");
        return;
    }
    let s = Scratch::new("count");
    let run = |name: &str, extra: &[&str]| {
        let mut args = vec![
            "count",
            "components",
            "--variant",
            "swar",
            "avx512",
            "--inputs",
            "density:0.5",
        ];
        args.extend(extra);
        let out_arg = s.arg(name);
        args.extend(["--out", &out_arg]);
        let out = bitbench(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        ResultsFile::read(&s.path(name)).unwrap()
    };
    // The second run simulates the caches too, which must not change the
    // instruction count.
    let (first, second) = (run("a.json", &[]), run("b.json", &["--cache"]));
    let find = |f: &ResultsFile, v: &str, m: Metric| {
        f.records
            .iter()
            .find(|r| r.variant == v && r.metric == m)
            .cloned()
    };
    let get = |f: &ResultsFile, v: &str| {
        find(f, v, Metric::Instructions).unwrap_or_else(|| panic!("no {v} record"))
    };
    assert!(find(&first, "swar", Metric::D1Misses).is_none());
    for (metric, unit) in [
        (Metric::D1Misses, "D1 misses/board"),
        (Metric::LlMisses, "LL misses/board"),
        (Metric::EstimatedCycles, "estimated cycles/board"),
    ] {
        let r = find(&second, "swar", metric).unwrap_or_else(|| panic!("no {metric}"));
        assert_eq!((r.status, r.unit.as_str()), (Status::Ok, unit), "{r:?}");
        let skipped = find(&second, "avx512", metric).unwrap();
        assert_eq!(skipped.status, Status::Skipped, "{skipped:?}");
    }
    let cycles = find(&second, "swar", Metric::EstimatedCycles).unwrap();
    assert!(cycles.median >= get(&second, "swar").median, "{cycles:?}");
    let (a, b) = (get(&first, "swar"), get(&second, "swar"));
    assert_eq!(a.status, Status::Ok, "{a:?}");
    assert_eq!(a.metric, Metric::Instructions);
    assert_eq!(a.unit, "instructions/board");
    assert!(a.median > 10.0, "{a:?}");
    assert_eq!(a.median, b.median, "two runs on one build must count alike");
    assert_eq!(a.elements_per_sample, b.elements_per_sample);
    // The AVX-512 variant is recorded, never dropped, whatever this CPU has.
    let avx512 = get(&first, "avx512");
    assert_eq!(avx512.status, Status::Skipped);
    assert!(
        avx512
            .reason
            .as_deref()
            .unwrap()
            .starts_with("not countable: valgrind has no AVX-512"),
        "{avx512:?}"
    );
    assert_eq!(avx512.profile, None, "nothing counted, nothing kept");
    profiles_are_kept_compared_and_filed(&s, &first, &second);
}

/// `count`'s profiles: beside the results file, each record pointing at
/// its own; `--no-profiles` keeps none; `compare` of two files that carry
/// them ranks the functions of a changed record and draws its flame
/// graph; `history add` files them with the run.
fn profiles_are_kept_compared_and_filed(s: &Scratch, a: &ResultsFile, b: &ResultsFile) {
    let swar = |f: &ResultsFile| {
        f.records
            .iter()
            .find(|r| r.variant == "swar" && r.metric == Metric::Instructions)
            .cloned()
            .unwrap()
    };
    let rel = swar(a).profile.expect("a kept profile");
    assert!(rel.starts_with("a/components-swar-density_0.5-"), "{rel}");
    assert!(s.path(&rel).is_file(), "{rel}");
    let cached = swar(b).profile.expect("a kept profile");
    let text = std::fs::read_to_string(s.path(&cached)).unwrap();
    assert!(
        text.contains("events: Ir Dr Dw"),
        "the cache simulation's events"
    );

    let out = bitbench(&[
        "count",
        "components",
        "--variant",
        "swar",
        "--inputs",
        "seed",
        "--no-profiles",
        "--out",
        &s.arg("none.json"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let none = ResultsFile::read(&s.path("none.json")).unwrap();
    assert!(none.records.iter().all(|r| r.profile.is_none()));
    assert!(!s.path("none").exists());

    // B: A's record as if a commit made it 5 % dearer, pointing at the
    // cache run's profile. Its instructions match A's, so the table holds
    // no change; what is checked here is that `compare` reads both files'
    // profiles, ranks and draws (the `ab` fixture checks real changes).
    let mut changed = a.clone();
    for r in &mut changed.records {
        if r.variant == "swar" && r.metric == Metric::Instructions {
            r.median *= 1.05;
            r.profile = Some(cached.clone());
        }
    }
    changed.write(&s.path("changed.json")).unwrap();
    let out = bitbench(&[
        "compare",
        &s.arg("a.json"),
        &s.arg("changed.json"),
        "--metric",
        "instructions",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let found = &json["where"][0];
    assert!(
        found["record"]
            .as_str()
            .unwrap()
            .starts_with("components swar density:0.5 instructions"),
        "{found}"
    );
    let table = &found["where"]["table"];
    assert_eq!(table["metric"], "instructions", "{found}");
    let svg = found["where"]["flame_graphs"][0]
        .as_str()
        .expect("a flame graph");
    assert!(
        svg.starts_with(&s.arg("changed")),
        "beside the new file: {svg}"
    );
    assert!(std::fs::read_to_string(svg).unwrap().starts_with("<?xml"));

    // A test build does not know its commit, which the store files by.
    let mut committed = a.clone();
    committed.machine.git_commit = Some("0123456789abcdef0123456789abcdef01234567".into());
    committed.write(&s.path("committed.json")).unwrap();
    let store = s.path("store");
    let out = bitbench(&[
        "history",
        "add",
        &s.arg("committed.json"),
        "--store",
        &store.display().to_string(),
        "--allow-dirty",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let filed = reports::history::Store::open(&store)
        .unwrap()
        .runs()
        .unwrap();
    let run = &filed[0];
    let kept = swar(&run.file).profile.expect("filed with its profile");
    let copied = run.path.parent().unwrap().join(kept);
    assert_eq!(
        std::fs::read(copied).unwrap(),
        std::fs::read(s.path(&rel)).unwrap()
    );
}
