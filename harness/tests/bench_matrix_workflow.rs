//! The runner-matrix workflow does what docs/machines.md says: every runner of at
//! least two architectures benches (and, where valgrind runs, counts) under
//! its own machine name and uploads its results, and one job merges every
//! runner's files into one report page.

mod common;

use common::workflow::{self, Job, Yaml};
use std::collections::BTreeSet;

const PATH: &str = ".github/workflows/bench-matrix.yml";

/// The job running on `${{ matrix.runner }}` and the one that needs it.
fn bench_and_merge() -> (Job, Job) {
    let mut jobs = workflow::jobs(&workflow::load(PATH));
    let bench = jobs
        .iter()
        .position(|j| j.text("runs-on").as_deref() == Some("${{ matrix.runner }}"))
        .expect("a job on the matrix's runners");
    let bench = jobs.remove(bench);
    let merge = jobs
        .into_iter()
        .find(|j| workflow::strings(&j.yaml["needs"]) == [bench.id.as_str()])
        .expect("a job that needs the matrix job");
    (bench, merge)
}

/// The matrix's `include:` entries: one per runner.
fn runners(bench: &Job) -> Vec<Yaml> {
    bench.yaml["strategy"]["matrix"]["include"]
        .as_vec()
        .expect("the matrix lists its runners under `include:`")
        .clone()
}

#[test]
fn runners_of_two_architectures_bench_and_count_under_their_machine_names_and_upload() {
    let (bench, _) = bench_and_merge();
    let include = runners(&bench);
    let field = |name: &str| -> Vec<String> {
        include
            .iter()
            .map(|r| workflow::scalar(&r[name]).unwrap_or_else(|| panic!("no {name}: {r:?}")))
            .collect()
    };
    let runners = field("runner");
    let architectures: BTreeSet<&str> = runners
        .iter()
        .map(|r| {
            if r.ends_with("-arm") {
                "arm64"
            } else {
                "x86-64"
            }
        })
        .collect();
    assert_eq!(architectures.len(), 2, "{runners:?}");
    assert!(
        runners.iter().any(|r| r == "ubuntu-24.04-arm"),
        "{runners:?}"
    );
    let machines: BTreeSet<String> = field("machine").into_iter().collect();
    assert_eq!(
        machines.len(),
        runners.len(),
        "one name per runner: {machines:?}"
    );

    let steps = bench.steps();
    workflow::pinned_toolchain(&steps);
    let machine = "--machine \"${{ matrix.machine }}\"";
    let quick = workflow::step(&steps, "running bench --quick", |s| {
        s.run.contains("bitbench bench --quick")
    });
    assert!(quick.run.contains(machine), "{quick:#?}");
    assert!(quick.run.contains("--out \"results/"), "{quick:#?}");
    // Counting needs valgrind: it runs, and the tools install, only where
    // the matrix says valgrind runs.
    let count = workflow::step(&steps, "running count", |s| {
        s.run.contains("bitbench count")
    });
    assert!(count.run.contains(machine), "{count:#?}");
    assert!(count.run.contains("--out \"results/"), "{count:#?}");
    assert_eq!(count.condition, "matrix.count", "{count:#?}");
    let tools = workflow::step(&steps, "installing valgrind", |s| {
        s.run.contains("install-measure-tools")
    });
    assert_eq!(tools.condition, count.condition);
    // Each runner says whether valgrind runs there, as a boolean: the
    // string "false" would be true to `if:`.
    for runner in &include {
        assert!(runner["count"].as_bool().is_some(), "{runner:?}");
    }

    let upload = workflow::step(&steps, "uploading", |s| {
        s.uses.starts_with("actions/upload-artifact@v")
    });
    assert_eq!(upload.with("path"), Some("results/*.json"), "{upload:#?}");
    let name = upload.with("name").expect("the upload is named");
    assert!(name.contains("${{ matrix.machine }}"), "{upload:#?}");
}

#[test]
fn one_job_downloads_every_runners_results_and_draws_one_report() {
    let (bench, merge) = bench_and_merge();
    let uploaded = bench
        .steps()
        .into_iter()
        .find_map(|s| s.with("name").map(str::to_owned))
        .expect("the matrix job uploads its results");
    let prefix = uploaded
        .split("${{")
        .next()
        .expect("a name before the machine");

    let steps = merge.steps();
    let download = workflow::step(&steps, "downloading", |s| {
        s.uses.starts_with("actions/download-artifact@v")
    });
    assert_eq!(
        download.with("pattern"),
        Some(format!("{prefix}*").as_str()),
        "every runner's upload: {download:#?}"
    );
    assert_eq!(download.with("merge-multiple"), Some("true"));
    let dir = download.with("path").expect("downloaded into a folder");

    let report = workflow::step(&steps, "running report", |s| {
        s.run.contains("bitbench report")
    });
    assert!(
        report
            .run
            .contains(&format!("bitbench report {dir}/*.json --out report")),
        "every file into one report: {report:#?}"
    );
    let page = workflow::step(&steps, "uploading the report", |s| {
        s.uses.starts_with("actions/upload-artifact@v") && s.with("path") == Some("report")
    });
    assert!(page.with("name").is_some(), "{page:#?}");
}
