//! `ab` end to end on a fixture crate with a git history of its own.
//!
//! The test writes a tiny crate outside this workspace (a dependent loop
//! kernel, through `bitbench::main!`), commits a base and four changes, and
//! runs the crate's own `ab` against the base: the loop three times over
//! with the same answers (regressed on time, and on instructions where
//! valgrind is present), one changed answer (broke, naming the input, with
//! repro commands that still work afterwards) and the base again (no
//! change); a commit that does not compile is refused. Then `--binaries`
//! on two kept builds.
//! Every build shares this workspace's target directory and lock file, so
//! only the fixture compiles; each revision build links the whole program
//! (the release profile's thin LTO), so the test keeps their number down:
//! one change is judged on both metrics.

mod common;

use common::{build_outside, git, loop_fixture, target_dir, text, tool_missing};
use std::path::Path;
use std::process::{Command, Output};

const BASE: &str = "let _ = black_box(0); walk(x)";
/// Every third input's answer changes.
const CHANGED_ANSWER: &str = "let r = walk(x); if x % 3 == 0 { r ^ 1 } else { r }";
/// The loop three times over, the same answers: three times the time and
/// the instructions.
const THREE_TIMES: &str = "let mut r = 0; for _ in 0..3 { r = black_box(walk(black_box(x))); } r";

fn commit(dir: &Path, body: &str, message: &str) -> String {
    std::fs::write(dir.join("src/lib.rs"), loop_fixture::lib(2000, 256, body)).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

fn ab(driver: &Path, dir: &Path, args: &[&str]) -> Output {
    loop_fixture::command(driver, dir)
        .arg("ab")
        .args(args)
        .args(["--seconds", "1", "--threshold", "3"])
        .output()
        .expect("the fixture runs")
}

/// The verdict cell of the row for `metric`.
fn verdict<'a>(out: &'a str, metric: &str) -> Option<&'a str> {
    out.lines()
        .find(|l| l.starts_with("steps") && l.contains(&format!(" {metric} ")))
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .last()
                .unwrap_or("")
        })
}

#[test]
fn ab_judges_instructions_answers_and_time_of_two_commits() {
    let dir = std::env::temp_dir().join(format!("bitbench-ab-{}", std::process::id()));
    loop_fixture::init(&dir, "abfix");
    std::fs::write(dir.join("src/main.rs"), "bitbench::main!(abfix::Steps);\n").unwrap();
    let base = commit(&dir, BASE, "base");
    let changed = commit(&dir, CHANGED_ANSWER, "one changed answer");
    let slower = commit(&dir, THREE_TIMES, "three times slower");
    let broken = commit(&dir, "walk(x) +", "does not compile");
    let again = commit(&dir, BASE, "the base again");
    // The driver: the fixture's own binary, copied away from the target
    // directory the revision builds write to.
    let driver = dir.join("driver");
    std::fs::copy(build_outside(&dir, "abfix"), &driver).unwrap();

    let o = ab(&driver, &dir, &[&base, &slower]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert_eq!(verdict(&out, "time"), Some("REGRESSED"), "{out}{err}");
    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!("instruction verdict not asserted: valgrind or gungraun-runner missing");
    } else {
        assert_eq!(
            verdict(&out, "instructions"),
            Some("REGRESSED"),
            "{out}{err}"
        );
    }
    assert!(out.contains("agree on every input"), "{out}{err}");

    let o = ab(&driver, &dir, &[&base, &changed, "--metric", "time"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let row = verdict(&out, "answers").unwrap_or_default();
    assert!(
        row.starts_with("BROKE: answers differ on input '"),
        "{out}{err}"
    );
    // Both repro commands still run, and show the difference.
    let repro: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("reproduce: "))
        .collect();
    assert_eq!(repro.len(), 2, "{out}");
    let answers: Vec<String> = repro
        .iter()
        .map(|command| {
            let parts: Vec<&str> = command.split(' ').collect();
            let o = Command::new(parts[0]).args(&parts[1..]).output().unwrap();
            assert!(o.status.success(), "{command}: {}", text(&o).1);
            text(&o).0
        })
        .collect();
    assert_ne!(answers[0], answers[1], "{repro:?}");

    let o = ab(&driver, &dir, &[&base, &again]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        !err.contains(&format!("building {}", &base)),
        "reused: {err}"
    );
    assert_eq!(verdict(&out, "time"), Some("no change"), "{out}{err}");

    // A revision that does not build, or is no revision: one line naming it.
    for (rev, message) in [
        (broken.as_str(), format!("ab: revision {broken} ")),
        (
            "no-such-rev",
            "ab: 'no-such-rev' is not a commit".to_owned(),
        ),
    ] {
        let o = ab(&driver, &dir, &[&base, rev]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}{err}");
        let last = err.trim_end().lines().last().unwrap_or_default();
        assert!(last.contains(&message), "{err}");
        assert!(
            rev != broken || last.contains("does not build: error"),
            "{err}"
        );
    }

    // Two kept builds, no git: copied where no repository is.
    let kept = target_dir().join("bitbench-ab");
    let loose = std::env::temp_dir().join(format!("bitbench-ab-loose-{}", std::process::id()));
    std::fs::create_dir_all(&loose).unwrap();
    let (a, b) = (loose.join("a"), loose.join("b"));
    std::fs::copy(kept.join(&base).join("abfix"), &a).unwrap();
    std::fs::copy(kept.join(&slower).join("abfix"), &b).unwrap();
    let o = ab(
        &driver,
        &loose,
        &[
            "--binaries",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--metric",
            "time",
            "--format",
            "json",
            "--out",
            loose.join("ab.json").to_str().unwrap(),
        ],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["regressed"], 1, "{out}");
    let row = &json["rows"][0];
    assert!(row["change_pct"].as_f64().unwrap() > 100.0, "{row}");
    assert!(row["pairs"].as_u64().unwrap() >= 10, "{row}");
    // The results file keeps the pairs on B's record, for `report`.
    let file = reports::ResultsFile::read(&loose.join("ab.json")).unwrap();
    let paired: Vec<_> = file
        .records
        .iter()
        .filter_map(|r| r.paired.as_ref())
        .collect();
    assert_eq!(paired.len(), 1, "{:?}", file.records);
    assert_eq!(
        paired[0].ratios.len() as u64,
        row["pairs"].as_u64().unwrap()
    );
    assert!(
        paired[0].ratio > 2.0 && paired[0].interval.is_some(),
        "{:?}",
        paired[0]
    );

    for sha in [&base, &changed, &slower, &again, &broken] {
        std::fs::remove_dir_all(kept.join(sha)).ok();
        std::fs::remove_dir_all(kept.join("src").join(sha)).ok();
    }
    std::fs::remove_dir_all(&loose).ok();
    std::fs::remove_dir_all(&dir).ok();
}
