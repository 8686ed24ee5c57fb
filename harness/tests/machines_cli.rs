//! Machines by name, end to end: `bench --machine` records the name and
//! refuses a bad one with one line; `report` of three machines' files (two
//! of one CPU model) draws each machine apart and names each workload's
//! fastest variant per machine; `compare` refuses two machines' files
//! unless told. What a run measured with is recorded too: `bench` writes
//! the environment its kernels ran with (library backtraces off unless
//! `--keep-env`), and `compare` says when two files differ in it.

use reports::{Build, Machine, Metric, Record, ResultsFile, SCHEMA, Status};
use std::path::{Path, PathBuf};
mod common;
use common::{bench_results, bitbench, stderr, stdout};

/// One quick, short bench: a variant on one set, one round.
const BENCH_SWAR: [&str; 9] = [
    "bench",
    "components",
    "--variant",
    "swar",
    "--inputs",
    "seed",
    "--quick",
    "--rounds",
    "1",
];

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("machines-cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn record(workload: &str, variant: &str, set: &str, metric: Metric, median: f64) -> Record {
    let oracle = if workload == "components" {
        "naive-bfs"
    } else {
        "naive"
    };
    Record {
        workload: workload.into(),
        variant: variant.into(),
        input_set: set.into(),
        target_cpu: "default".into(),
        unit: match metric {
            Metric::Time => "ns/board".into(),
            _ => "instructions/board".into(),
        },
        metric,
        status: Status::Ok,
        median,
        mad: median / 50.0,
        min: median,
        max: median,
        samples: 5,
        elements_per_sample: 100,
        oracle: Some(oracle.into()),
        ..Record::default()
    }
}

/// One machine's results: components' times per variant as given (on two
/// sets, the second twice as slow), meteor's where `bitmask` always wins,
/// and one instruction count.
fn results(path: &Path, name: &str, cpu: &str, components: [(&str, f64); 3]) {
    let mut records = Vec::new();
    for (variant, ns) in components {
        for (set, factor) in [("seed", 1.0), ("game", 2.0)] {
            records.push(record(
                "components",
                variant,
                set,
                Metric::Time,
                ns * factor,
            ));
        }
    }
    for (variant, ns) in [("naive", 9e4), ("bitmask", 1e3), ("symmetric", 3e3)] {
        records.push(record("meteor", variant, "full", Metric::Time, ns));
    }
    records.push(record(
        "components",
        "swar",
        "seed",
        Metric::Instructions,
        120.0,
    ));
    ResultsFile {
        schema: SCHEMA,
        date: "2026-11-26T10:00:00Z".into(),
        command: "bitbench bench".into(),
        machine: Machine {
            name: name.into(),
            cpu_model: cpu.into(),
            cores: 2,
            ..Machine::default()
        },
        build: Build::default(),
        records,
        environment: None,
    }
    .write(path)
    .unwrap();
}

/// The summary row of `workload` on `machine`, from `report`'s stdout.
fn summary_row<'a>(stdout: &'a str, workload: &str, machine: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| {
            let mut cells = l.split("  ").filter(|c| !c.is_empty()).map(str::trim);
            cells.next() == Some(workload) && cells.next() == Some(machine)
        })
        .unwrap_or_else(|| panic!("no summary row for {workload} on {machine}:\n{stdout}"))
}

#[test]
fn report_draws_each_machine_apart_and_names_its_fastest_variant() {
    let d = dir("report");
    // Two hosts of one CPU model, where flood and swar trade places, and a
    // third CPU where swar wins again.
    let zen = "Planted Zen 4 CPU";
    results(
        &d.join("one.json"),
        "lab-1",
        zen,
        [("naive-bfs", 900.0), ("flood", 300.0), ("swar", 100.0)],
    );
    results(
        &d.join("two.json"),
        "lab-2",
        zen,
        [("naive-bfs", 900.0), ("flood", 100.0), ("swar", 300.0)],
    );
    results(
        &d.join("arm.json"),
        "arm-1",
        "Planted Neoverse CPU",
        [("naive-bfs", 1200.0), ("flood", 600.0), ("swar", 200.0)],
    );
    let out = d.join("report");
    let args: Vec<String> = ["one", "two", "arm"]
        .iter()
        .map(|f| d.join(format!("{f}.json")).display().to_string())
        .collect();
    let mut command = vec!["report"];
    command.extend(args.iter().map(String::as_str));
    command.extend(["--out", out.to_str().unwrap()]);
    let o = bitbench(&command);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));

    // A chart per machine, none drawn from two machines' records.
    for machine in ["lab-1", "lab-2", "arm-1"] {
        for chart in ["throughput", "speedup", "instructions"] {
            let svg = out.join(format!("components-on-{machine}-{chart}.svg"));
            let image =
                std::fs::read_to_string(&svg).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
            assert!(
                image.contains(&format!("components on {machine}")),
                "{svg:?}"
            );
        }
        assert!(out.join(format!("meteor-on-{machine}-time.png")).is_file());
    }
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        names
            .iter()
            .filter(|n| n.ends_with(".svg"))
            .all(|n| n.contains("-on-")),
        "a chart not faceted by machine: {names:?}"
    );

    // Which variant wins where: it differs where the planted data differ.
    let fastest = |workload: &str, machine: &str| -> String {
        let row = summary_row(&text, workload, machine);
        row.split("  ")
            .map(str::trim)
            .find(|c| c.contains(" over "))
            .and_then(|c| c.split(':').next())
            .unwrap_or_else(|| panic!("no fastest cell in {row:?}"))
            .to_owned()
    };
    assert_eq!(fastest("components", "lab-1"), "swar");
    assert_eq!(fastest("components", "lab-2"), "flood");
    assert_eq!(fastest("components", "arm-1"), "swar");
    for machine in ["lab-1", "lab-2", "arm-1"] {
        assert_eq!(fastest("meteor", machine), "bitmask");
    }
    // 9× over the oracle on lab-1 is lab-1's alone (averaging the three
    // machines would say otherwise).
    assert!(
        summary_row(&text, "components", "lab-1").contains("swar: 9.0×"),
        "{text}"
    );
    assert!(
        summary_row(&text, "components", "arm-1").contains("swar: 6.0×"),
        "{text}"
    );

    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for (machine, variant) in [("lab-1", "swar"), ("lab-2", "flood"), ("arm-1", "swar")] {
        let row = format!("| components | {machine} | 3 | {variant}: ");
        assert!(md.contains(&row), "{row} in\n{md}");
    }
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("<th>machine</th>"), "{html}");
    assert!(
        html.contains("<td>components</td><td>lab-2</td><td class=\"num\">3</td><td>flood: "),
        "{html}"
    );
}

#[test]
fn compare_refuses_two_machines_unless_told() {
    let d = dir("compare");
    let zen = "Planted Zen 4 CPU";
    let same = [("naive-bfs", 900.0), ("flood", 300.0), ("swar", 100.0)];
    results(&d.join("one.json"), "lab-1", zen, same);
    results(&d.join("two.json"), "lab-2", zen, same);
    let (one, two) = (d.join("one.json"), d.join("two.json"));
    let base = ["compare", one.to_str().unwrap(), two.to_str().unwrap()];
    let metric = ["--metric", "instructions"];
    let refused = bitbench(&[&base[..], &metric].concat());
    assert_eq!(refused.status.code(), Some(2), "{}", stdout(&refused));
    let err = stderr(&refused);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("machine ('lab-1' vs 'lab-2')"), "{err}");
    let told = bitbench(&[&base[..], &metric, &["--allow-mismatch"]].concat());
    assert_eq!(told.status.code(), Some(0), "{}", stderr(&told));
    assert!(stdout(&told).contains("no change"), "{}", stdout(&told));
}

#[test]
fn bench_records_the_machine_name_and_refuses_a_bad_one() {
    let args = BENCH_SWAR;
    let (_, file) = bench_results(&[&args[..], &["--machine", "lab-1"]].concat());
    assert_eq!(file["machine"]["name"], "lab-1");
    assert_eq!(file["schema"], SCHEMA);
    // By default: this host's name and CPU model.
    let (_, file) = bench_results(&args);
    let name = file["machine"]["name"].as_str().unwrap();
    let cpu = file["machine"]["cpu_model"].as_str().unwrap();
    assert!(name.ends_with(cpu) && name.len() > cpu.len(), "{name}");

    for bad in ["a/b", "", "tab\there"] {
        let o = bitbench(&[&args[..], &["--machine", bad]].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--machine"), "{err}");
    }
}

#[test]
fn bench_records_its_environment_and_measures_with_library_backtraces_off() {
    let d = dir("environment");
    let out = d.join("bench.json");
    let bench = |keep: bool| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_bitbench"))
            .args(BENCH_SWAR)
            .args(["--out", out.to_str().unwrap()])
            .args(keep.then_some("--keep-env"))
            .env("RUST_BACKTRACE", "1")
            .env_remove("RUST_LIB_BACKTRACE")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        ResultsFile::read(&out)
            .unwrap()
            .environment
            .expect("recorded")
    };
    let measured = bench(false);
    assert_eq!(measured["RUST_BACKTRACE"], "1");
    assert_eq!(measured["RUST_LIB_BACKTRACE"], "0", "{measured:?}");
    let kept = bench(true);
    assert_eq!(kept["RUST_BACKTRACE"], "1");
    assert!(!kept.contains_key("RUST_LIB_BACKTRACE"), "{kept:?}");

    // Two files that differ in it: compare says so, and still compares.
    let same = [("naive-bfs", 900.0), ("flood", 300.0), ("swar", 100.0)];
    let (one, two) = (d.join("one.json"), d.join("two.json"));
    for (path, environment) in [(&one, measured), (&two, kept)] {
        results(path, "lab-1", "Planted CPU", same);
        let mut file = ResultsFile::read(path).unwrap();
        file.environment = Some(environment);
        file.write(path).unwrap();
    }
    let compared = bitbench(&[
        "compare",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--metric",
        "instructions",
    ]);
    assert_eq!(compared.status.code(), Some(0), "{}", stderr(&compared));
    let err = stderr(&compared);
    assert!(
        err.contains("different environments (RUST_LIB_BACKTRACE \"0\" vs unset)"),
        "{err}"
    );
}
