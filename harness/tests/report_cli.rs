//! End-to-end tests of `bitbench report`: a hand-made results file becomes
//! a report directory; bad arguments fail with one line and exit code 2;
//! and headless Chromium loads `index.html` with every image (skipped with
//! a message where Chromium is not installed; `.ci/install-chromium`
//! installs it).

use reports::compare::Verdict;
use reports::interval::Interval;
use reports::{Build, Machine, Metric, Paired, Parameter, Record, ResultsFile, SCHEMA, Status};
use std::path::{Path, PathBuf};
use std::process::Command;
mod common;
use common::bitbench;

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report-cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn record(
    workload: &str,
    variant: &str,
    set: &str,
    metric: Metric,
    unit: &str,
    median: f64,
) -> Record {
    Record {
        workload: workload.into(),
        variant: variant.into(),
        input_set: set.into(),
        target_cpu: "default".into(),
        metric,
        unit: unit.into(),
        status: Status::Ok,
        median,
        mad: median / 50.0,
        min: median,
        max: median,
        samples: 5,
        elements_per_sample: 100,
        oracle: Some(
            match workload {
                "components" => "naive-bfs",
                _ => "naive",
            }
            .into(),
        ),
        ..Record::default()
    }
}

/// `r` on a set with these parameters.
fn with(r: Record, parameters: &[(&str, f64)]) -> Record {
    Record {
        parameters: parameters
            .iter()
            .map(|&(name, value)| Parameter {
                name: name.into(),
                value,
                meaning: None,
            })
            .collect(),
        ..r
    }
}

/// A small results file: components with a density sweep, cephalopod with
/// a 3×4 rank-by-depth grid, meteor with a node counter.
fn results(path: &Path, slowdown: f64) {
    let mut records = Vec::new();
    for (i, v) in ["naive-bfs", "flood", "swar"].iter().enumerate() {
        let t = slowdown * 800.0 / (1.0 + 3.0 * i as f64);
        records.push(record("components", v, "seed", Metric::Time, "ns/board", t));
        for p in [0.2, 0.5, 0.8] {
            records.push(with(
                record(
                    "components",
                    v,
                    &format!("density:{p}"),
                    Metric::Time,
                    "ns/board",
                    t * (0.5 + p),
                ),
                &[("density", p)],
            ));
        }
    }
    records.push(record(
        "cephalopod",
        "naive",
        "official",
        Metric::Time,
        "ns/solve",
        9e6,
    ));
    records.push(record(
        "cephalopod",
        "swar",
        "official",
        Metric::Time,
        "ns/solve",
        2e5,
    ));
    for r in 0..3u32 {
        for d in 6..10u32 {
            let ns = 1e3 * f64::from(d * d) / f64::from(r + 1);
            records.push(with(
                record(
                    "cephalopod",
                    "swar",
                    &format!("rank:{r} depth:{d}"),
                    Metric::Time,
                    "ns/solve",
                    ns,
                ),
                &[("rank", f64::from(r)), ("depth", f64::from(d))],
            ));
        }
    }
    for v in ["naive", "bitmask"] {
        records.push(record("meteor", v, "full", Metric::Time, "ns/input", 1e8));
        records.push(record(
            "meteor",
            v,
            "full",
            Metric::Counter,
            "nodes/input",
            4e5,
        ));
    }
    ResultsFile {
        schema: SCHEMA,
        date: "2026-11-22T10:00:00Z".into(),
        command: "bitbench bench".into(),
        machine: Machine {
            cpu_model: "Hand-made CPU".into(),
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

#[test]
fn report_writes_charts_and_pages() {
    let d = dir("ok");
    results(&d.join("before.json"), 1.0);
    results(&d.join("after.json"), 0.5);
    let out = d.join("report");
    let o = bitbench(&[
        "report",
        d.join("before.json").to_str().unwrap(),
        d.join("after.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains(&format!("report: {}", out.join("index.html").display())),
        "{stdout}"
    );
    for f in [
        "index.html",
        "report.md",
        "components-density.png",
        "components-density.svg",
        "meteor-counter-nodes-input.png",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let heatmaps: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("cephalopod-heatmap-swar") && n.ends_with(".svg"))
        .collect();
    assert_eq!(
        heatmaps.len(),
        2,
        "one heatmap per results file: {heatmaps:?}"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("| before |") && md.contains("| after |"),
        "{md}"
    );
    // A report speaks only of the workloads its files hold.
    assert!(!stdout.contains("connectx"), "{stdout}");
}

/// An `ab` results file: each record timed in build A and build B, B's
/// record carrying the paired ratios (B 3 % slower on `seed`, no change on
/// `density:0.5`).
fn ab_results(path: &Path) {
    let mut records = Vec::new();
    for (set, change) in [("seed", 1.03), ("density:0.5", 1.0)] {
        let a = record("components", "swar", set, Metric::Time, "ns/board", 100.0);
        let ratios: Vec<f64> = (0..40)
            .map(|i| change + 0.002 * f64::from(i % 7) - 0.006)
            .collect();
        records.push(Record {
            source: Some("A base".into()),
            ..a.clone()
        });
        records.push(Record {
            source: Some("B head".into()),
            median: 100.0 * change,
            paired: Some(Paired {
                ratio: change,
                interval: Some(Interval {
                    low: change - 0.004,
                    high: change + 0.004,
                }),
                ratios,
                threshold_pct: Some(2.0),
                verdict: Some(if change > 1.02 {
                    Verdict::Regressed
                } else {
                    Verdict::NoChange
                }),
            }),
            ..a
        });
    }
    ResultsFile {
        schema: SCHEMA,
        date: "2026-11-22T10:00:00Z".into(),
        command: "bitbench ab base".into(),
        machine: Machine::default(),
        build: Build::default(),
        records,
        environment: None,
    }
    .write(path)
    .unwrap();
}

#[test]
fn report_draws_an_ab_file_as_changes_and_paired_ratios() {
    let d = dir("ab");
    let ab = d.join("ab.json");
    ab_results(&ab);
    let out = d.join("report");
    let o = bitbench(&[
        "report",
        ab.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for stem in ["components-ab-change", "components-ab-pairs"] {
        assert!(out.join(format!("{stem}.png")).is_file(), "{stem}.png");
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        for set in ["swar · seed", "swar · density:0.5"] {
            assert!(svg.contains(set), "{stem}.svg lacks {set}");
        }
        assert!(
            md.contains(&format!("{stem}.svg")),
            "report.md lacks {stem}"
        );
        assert!(
            html.contains(&format!("{stem}.svg")),
            "index.html lacks {stem}"
        );
    }
    // A results file without paired records gets neither chart.
    let plain = d.join("plain.json");
    results(&plain, 1.0);
    let out = d.join("plain-report");
    let o = bitbench(&[
        "report",
        plain.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.join("components-ab-change.svg").exists());
}

#[test]
fn bad_arguments_fail_with_one_line() {
    let d = dir("bad");
    let missing = d.join("nope.json");
    let o = bitbench(&["report", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nope.json"), "{err}");

    results(&d.join("r.json"), 1.0);
    std::fs::write(d.join("file"), "").unwrap();
    let o = bitbench(&[
        "report",
        d.join("r.json").to_str().unwrap(),
        "--out",
        d.join("file").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a file"));

    let o = bitbench(&["report"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Where Chromium lives, if installed.
fn chromium() -> Option<&'static str> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

/// Loads `page` in headless Chromium, 1,280 px wide, with a script that
/// reports, after the load event, how many images loaded and which ones
/// reach past the page's right edge; returns that line.
fn image_check(chromium: &str, page: &Path) -> String {
    let html = std::fs::read_to_string(page).unwrap();
    let script = "<script>window.addEventListener('load', () => { \
        const imgs = [...document.images]; \
        const bad = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src')); \
        const p = document.createElement('pre'); p.id = 'image-check'; \
        const page = document.documentElement.clientWidth; \
        const wide = imgs.filter(i => i.getBoundingClientRect().right > page + 0.5).map(i => i.getAttribute('src')); \
        p.textContent = 'loaded ' + (imgs.length - bad.length) + ' of ' + imgs.length + (bad.length ? ' missing ' + bad.join(' ') : '') + (wide.length ? ' wider than the page ' + wide.join(' ') : ''); \
        document.body.appendChild(p); });</script>\n</body>";
    let probe = page.with_file_name("image-check.html");
    std::fs::write(&probe, html.replace("</body>", script)).unwrap();
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
            "--virtual-time-budget=20000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", probe.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&o.stdout);
    let line = dom
        .split("<pre id=\"image-check\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!(
                "no image check in the DOM; stderr: {}",
                String::from_utf8_lossy(&o.stderr)
            )
        });
    line.to_owned()
}

#[test]
fn chromium_loads_every_image_of_index_html() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: /usr/bin/chromium not found (install it with .ci/install-chromium)");
        return;
    };
    let d = dir("chromium");
    results(&d.join("run.json"), 1.0);
    let out = d.join("report");
    let o = bitbench(&[
        "report",
        d.join("run.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let index = out.join("index.html");
    let charts = std::fs::read_to_string(&index)
        .unwrap()
        .matches("<img ")
        .count();
    assert!(charts >= 10, "{charts} images");
    assert_eq!(
        image_check(chromium, &index),
        format!("loaded {charts} of {charts}")
    );

    // The probe notices a broken image, so a pass above means something.
    let broken = out.join("broken.html");
    std::fs::write(
        &broken,
        "<html><body><img src=\"no-such-chart.svg\"></body></html>",
    )
    .unwrap();
    assert_eq!(
        image_check(chromium, &broken),
        "loaded 0 of 1 missing no-such-chart.svg"
    );
    // And one drawn wider than the page.
    let chart = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.ends_with(".svg"))
        .unwrap();
    let wide = out.join("wide.html");
    std::fs::write(
        &wide,
        format!("<html><body><img src=\"{chart}\" style=\"width:2000px\"></body></html>"),
    )
    .unwrap();
    assert_eq!(
        image_check(chromium, &wide),
        format!("loaded 1 of 1 wider than the page {chart}")
    );
}
