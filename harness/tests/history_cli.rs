//! `history add|report|check|compare` end to end on a fixture: a git
//! repository of twelve empty commits and a results file per commit,
//! written here with seeded noise. One machine, three variants: `alpha`'s
//! time steps up 25 % at commit 7, `beta`'s time spikes at commit 4 and
//! returns, `gamma`'s is flat; instruction counts are flat.

mod common;

use common::{bitbench, fresh_scratch, git, stderr, stdout};
use reports::interval::median_interval;
use reports::{Build, Machine, Metric, Record, ResultsFile};
use std::path::{Path, PathBuf};
use std::process::Output;

const VARIANTS: [&str; 3] = ["alpha", "beta", "gamma"];

/// Deterministic noise in -1..1.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// The time level of `variant` at commit `n` (1-based), before noise;
/// `planted` multiplies alpha's (a regression at a later commit).
fn level(variant: &str, n: usize, planted: f64) -> f64 {
    match variant {
        "alpha" => 100.0 * if n >= 7 { 1.25 } else { 1.0 } * planted,
        "beta" => 50.0 * if n == 4 { 1.5 } else { 1.0 },
        _ => 80.0,
    }
}

/// A run at `commit` (the `n`-th), its time records with three rounds of
/// samples around the level (±1 % between runs, ±0.3 % within one).
fn run(commit: &str, n: usize, dirty: bool, planted: f64) -> ResultsFile {
    let machine = Machine {
        name: "fixture-host".into(),
        cpu_model: "Fixture CPU 9000".into(),
        cores: 2,
        rustc: "rustc 1.0".into(),
        git_commit: Some(commit.to_owned()),
        git_dirty: Some(dirty),
        ..Machine::default()
    };
    let build = Build {
        target_cpu: "default".into(),
        profile: "release".into(),
        ..Build::default()
    };
    let date = format!("2026-11-{:02}T10:00:00Z", n.min(28));
    let mut file = ResultsFile::new(date, "bitbench bench".into(), machine, build);
    let mut noise = Lcg(n as u64 * 7919 + 17);
    for v in VARIANTS {
        let center = level(v, n, planted) * (1.0 + 0.01 * noise.next());
        let rounds: Vec<Vec<f64>> = (0..3)
            .map(|_| {
                (0..5)
                    .map(|_| center * (1.0 + 0.003 * noise.next()))
                    .collect()
            })
            .collect();
        let mut all: Vec<f64> = rounds.concat();
        all.sort_by(f64::total_cmp);
        let record = |metric, unit: &str| Record {
            workload: "toy".into(),
            variant: v.into(),
            input_set: "set:1".into(),
            target_cpu: "default".into(),
            metric,
            unit: unit.into(),
            samples: 15,
            elements_per_sample: 64,
            ..Record::default()
        };
        file.records.push(Record {
            median: all[7],
            min: all[0],
            max: all[14],
            interval: median_interval(&rounds, n as u64),
            rounds,
            ..record(Metric::Time, "ns/board")
        });
        let count = 1000.0 * (1 + VARIANTS.iter().position(|x| *x == v).unwrap()) as f64;
        file.records.push(Record {
            median: count,
            min: count,
            max: count,
            ..record(Metric::Instructions, "instructions/board")
        });
    }
    file
}

/// Every file under `dir` with its size, sorted: what "unchanged" compares.
fn listing(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), e.metadata().unwrap().len()));
            }
        }
    }
    out.sort();
    out
}

/// An empty commit `message` in `repo`, and its clean run `n` (alpha
/// `planted` times slower) written to `path`; returns the commit.
fn commit_with_run(repo: &Path, message: &str, n: usize, planted: f64, path: &Path) -> String {
    git(repo, &["commit", "-q", "--allow-empty", "-m", message]);
    let sha = git(repo, &["rev-parse", "HEAD"]);
    run(&sha, n, false, planted).write(path).unwrap();
    sha
}

fn run_ok(args: &[&str]) -> Output {
    let out = bitbench(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

/// Exit code 2 and exactly one line on stderr.
fn refused(args: &[&str]) -> String {
    let out = bitbench(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    err
}

#[test]
fn history_files_draws_finds_the_step_and_gates_the_newest_commit() {
    let dir = fresh_scratch("history-fixture");
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    let mut shas = Vec::new();
    let mut files = Vec::new();
    for n in 1..=12 {
        let path = dir.join(format!("run-{n}.json"));
        shas.push(commit_with_run(
            &repo,
            &format!("change {n}"),
            n,
            1.0,
            &path,
        ));
        files.push(path.to_str().unwrap().to_owned());
    }
    let store = dir.join("store");
    let store_s = store.to_str().unwrap();
    let repo_s = repo.to_str().unwrap();

    let mut add = vec!["history", "add", "--store", store_s];
    add.extend(files.iter().map(String::as_str));
    let out = run_ok(&add);
    assert!(
        stdout(&out).contains("12 run(s) filed, 0 already present"),
        "{}",
        stdout(&out)
    );
    let filed = listing(&store);
    assert_eq!(filed.len(), 12);

    // The same run again, under another name: a no-op.
    let copy = dir.join("copy-of-run-3.json");
    std::fs::copy(&files[2], &copy).unwrap();
    let out = run_ok(&["history", "add", "--store", store_s, copy.to_str().unwrap()]);
    assert!(
        stdout(&out).contains("0 run(s) filed, 1 already present"),
        "{}",
        stdout(&out)
    );
    assert_eq!(listing(&store), filed);

    // Dirty and unknown commits are refused; a corrupt or foreign file is
    // refused with one line, and the store is left exactly as it was even
    // when a good new run came with it.
    let dirty = dir.join("dirty.json");
    run(&shas[11], 12, true, 1.0).write(&dirty).unwrap();
    let unknown = dir.join("unknown.json");
    let mut file = run(&shas[11], 12, false, 1.0);
    file.machine.git_commit = Some("unknown".into());
    file.write(&unknown).unwrap();
    let corrupt = dir.join("corrupt.json");
    std::fs::write(&corrupt, "{\"schema\": 4, \"date\": ").unwrap();
    let foreign = dir.join("foreign.json");
    std::fs::write(&foreign, "{\"name\": \"not a results file\"}").unwrap();
    let fresh = dir.join("fresh.json");
    run(&shas[11], 99, false, 1.0).write(&fresh).unwrap();
    // `history add` of `files`, refused.
    let add_refused = |files: &[&Path]| {
        let mut args = vec!["history", "add", "--store", store_s];
        args.extend(files.iter().map(|f| f.to_str().unwrap()));
        refused(&args)
    };
    let err = add_refused(&[&dirty]);
    assert!(
        err.contains("dirty.json") && err.contains("--allow-dirty"),
        "{err}"
    );
    let err = add_refused(&[&unknown]);
    assert!(
        err.contains("unknown.json") && err.contains("commit"),
        "{err}"
    );
    for bad in [&corrupt, &foreign] {
        let err = add_refused(&[&fresh, bad]);
        assert!(
            err.contains(bad.file_name().unwrap().to_str().unwrap()),
            "{err}"
        );
        assert!(err.contains("not a bitbench results file"), "{err}");
        assert_eq!(listing(&store), filed);
    }
    // With --allow-dirty it is filed, and kept out of the charts.
    run_ok(&[
        "history",
        "add",
        "--allow-dirty",
        "--store",
        store_s,
        dirty.to_str().unwrap(),
    ]);
    assert_eq!(listing(&store).len(), 13);

    // The report: the step at commit 7, nothing for the spike or the flat
    // records, one line per variant.
    let report = dir.join("report");
    let out = run_ok(&[
        "history",
        "report",
        "--store",
        store_s,
        "--repo",
        repo_s,
        "--out",
        report.to_str().unwrap(),
        "--commit-url",
        "https://example.invalid/commit/{commit}",
    ]);
    let said = stdout(&out);
    assert!(said.contains("1 dirty run(s) left out"), "{said}");
    let steps: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(report.join("steps.json")).unwrap()).unwrap();
    assert_eq!(steps.len(), 1, "{steps:#?}");
    let step = &steps[0];
    assert_eq!(step["commit"], shas[6].as_str());
    assert_eq!(
        (step["variant"].as_str(), step["metric"].as_str()),
        (Some("alpha"), Some("time"))
    );
    let ratio = step["ratio"].as_f64().unwrap();
    assert!((1.2..1.3).contains(&ratio), "{ratio}");
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    let short = &shas[6][..7];
    assert!(
        md.contains(short) && md.contains("toy alpha set:1 time"),
        "{md}"
    );
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(
        index.contains(&format!("https://example.invalid/commit/{}", shas[0])),
        "{index}"
    );
    let time_chart = std::fs::read_dir(&report)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("toy-time-") && name.ends_with(".svg")
        })
        .expect("a time chart");
    assert!(time_chart.with_extension("png").is_file());
    let svg = std::fs::read_to_string(&time_chart).unwrap();
    let texts: Vec<&str> = svg
        .split("<text ")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split("</text>").next()?.trim()))
        .collect();
    for v in VARIANTS {
        assert_eq!(
            texts.iter().filter(|t| **t == v).count(),
            1,
            "{v} in the legend: {texts:?}"
        );
    }
    // --by input-set: the same step, one chart per variant.
    let by_set = dir.join("by-set");
    run_ok(&[
        "history",
        "report",
        "--store",
        store_s,
        "--repo",
        repo_s,
        "--out",
        by_set.to_str().unwrap(),
        "--by",
        "input-set",
        "--metric",
        "time",
    ]);
    let steps = std::fs::read_to_string(by_set.join("steps.json")).unwrap();
    assert_eq!(steps.matches("\"commit\"").count(), 1, "{steps}");

    // No repository: refused with one line.
    let err = refused(&[
        "history",
        "report",
        "--store",
        store_s,
        "--repo",
        dir.to_str().unwrap(),
        "--out",
        dir.join("nowhere").to_str().unwrap(),
    ]);
    assert!(err.contains("not a git repository"), "{err}");
    let err = refused(&[
        "history", "check", "--store", store_s, "--repo", repo_s, "--branch", "nope",
    ]);
    assert!(err.contains("'nope' is not a commit"), "{err}");

    // check: commit 12 is no step; a 13th commit with alpha 15 % slower
    // fails, a 13th without passes (each on its own branch, so each
    // branch sees only its own 13th run).
    run_ok(&["history", "check", "--store", store_s, "--repo", repo_s]);
    for (branch, planted) in [("slower", 1.15), ("same", 1.0)] {
        git(&repo, &["checkout", "-q", "-b", branch, &shas[11]]);
        let path = dir.join(format!("run-13-{branch}.json"));
        commit_with_run(&repo, &format!("change 13 {branch}"), 13, planted, &path);
        run_ok(&["history", "add", "--store", store_s, path.to_str().unwrap()]);
    }
    let check = |branch: &str, format: &str| {
        bitbench(&[
            "history", "check", "--store", store_s, "--repo", repo_s, "--branch", branch,
            "--format", format,
        ])
    };
    let out = check("slower", "json");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let alerts: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(alerts.len(), 1, "{alerts:#?}");
    assert_eq!(alerts[0]["variant"], "alpha");
    assert!(alerts[0]["ratio"].as_f64().unwrap() > 1.1);
    let out = check("same", "text");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    // A newest commit with no run at all.
    git(&repo, &["commit", "-q", "--allow-empty", "-m", "change 14"]);
    let err = refused(&["history", "check", "--store", store_s, "--repo", repo_s]);
    assert!(err.contains("has no run"), "{err}");

    // compare: two stored commits through `compare`'s verdicts.
    let compare = |base: &str, new: &str| {
        bitbench(&[
            "history", "compare", base, new, "--store", store_s, "--repo", repo_s,
        ])
    };
    let out = compare(&shas[0], &shas[11]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stdout(&out).contains("REGRESSED"), "{}", stdout(&out));
    let out = compare(&shas[7], &shas[10]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let err = refused(&[
        "history", "compare", "HEAD", &shas[0], "--store", store_s, "--repo", repo_s,
    ]);
    assert!(err.contains("no run of HEAD"), "{err}");

    std::fs::remove_dir_all(&dir).unwrap();
}
