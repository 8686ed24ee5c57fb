//! `ab` end to end on a fixture crate with a git history of its own.
//!
//! The test writes a tiny crate outside this workspace (a dependent loop
//! kernel, through `bitbench::main!`), commits a base and four changes, and
//! runs the crate's own `ab` against the base: the loop three times over
//! with the same answers (regressed on time, and on instructions where
//! valgrind is present), one changed answer (broke, naming the input, with
//! repro commands that still work afterwards) and the base again (no
//! change); a commit that does not compile is refused. Then `--binaries`
//! on two kept builds, and a kept build run where no repository is finds
//! its own. The program's own build, beside the revision builds, is left
//! byte for byte as it was.
//! The program builds in this workspace's target directory, with its lock
//! file, so only the fixture compiles; its revisions in `bitbench-ab/build`
//! there, shared with every fixture's. Each revision build compiles the
//! fixture and links the program, so the test keeps their number down:
//! one change is judged on both metrics.

mod common;

use common::{cargo_outside, git, loop_fixture, scratch, text, tool_missing};
use std::path::Path;
use std::process::{Command, Output};
use std::time::SystemTime;

/// Three `#[inline(never)]` helpers, each a dependent loop of its own
/// length, one after the other: `ab`'s table ranks them by name. With
/// `PLANT=MS` in its environment, the build has a slow mode no probe
/// sees: MS ms in every [`PERIOD_MS`] of the wall clock it does 30 % more
/// work, on the thread's CPU time (the clock is read every 64th input, so
/// that costs nothing). The phase is the wall clock's, not the process's
/// start: each fresh process would otherwise begin in the slow mode, and
/// a slice shorter than the slow stretch would lie in it whole.
fn helpers(head: u64, middle: u64, tail: u64) -> String {
    format!(
        "#[inline(always)] fn spin(mut x: u64, n: u64) -> u64 {{ \
             for _ in 0..black_box(n) {{ x = x.wrapping_mul(6364136223846793005) \
             .wrapping_add(1442695040888963407) ^ (x >> 29); }} x }} \
         #[inline(never)] fn head(x: u64) -> u64 {{ spin(x, {head}) }} \
         #[inline(never)] fn middle(x: u64) -> u64 {{ spin(x, {middle}) }} \
         #[inline(never)] fn tail(x: u64) -> u64 {{ spin(x, {tail}) }} \
         use std::sync::atomic::{{AtomicBool, Ordering::Relaxed}}; \
         static PLANTED: std::sync::OnceLock<Option<u128>> = std::sync::OnceLock::new(); \
         static SLOW: AtomicBool = AtomicBool::new(false); \
         if x % 64 == 0 {{ \
             let planted = PLANTED.get_or_init(|| std::env::var(\"{PLANT}\").ok() \
                 .and_then(|v| v.parse().ok())); \
             let now = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) \
                 .map_or(0, |d| d.as_millis()); \
             SLOW.store(planted.is_some_and(|ms| now() % {PERIOD_MS} < ms), Relaxed); }} \
         let r = tail(middle(head(x))); \
         if SLOW.load(Relaxed) {{ black_box(spin(r, 600)); }} \
         let _ = walk; r"
    )
}

/// The environment variable that gives a build of [`helpers`] its slow
/// mode.
const PLANT: &str = "ABFIX_SLOW_MODE";

/// The slow mode's period: long beside a sample (2 ms at most), so few
/// samples straddle a switch, whose ratios lie between the two levels;
/// and shorter than the shortest slice a pair of processes measures
/// (`slices.rs`: 24 pairs, 40 ms and more), so each slice sees both
/// levels. A slow stretch longer than a slice is what a pair of
/// processes landed with, judged as such (`instances.rs`): at 240 ms,
/// slices of 70 ms lay wholly in one level.
const PERIOD_MS: u32 = 48;

/// The seconds a record measures in the slow mode's runs.
const SLOW_MODE_SECONDS: &str = "3";

/// The base: 2000 steps in all, as `walk` takes. No two helpers alike:
/// the linker would fold them into one.
fn base_body() -> String {
    helpers(720, 680, 600)
}
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
    ab_for(driver, dir, args, "1")
}

/// [`ab`], measuring each record `seconds`.
fn ab_for(driver: &Path, dir: &Path, args: &[&str], seconds: &str) -> Output {
    loop_fixture::command(driver, dir)
        .arg("ab")
        .args(args)
        .args(["--seconds", seconds, "--threshold", "3"])
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
    let dir = scratch("ab");
    loop_fixture::init(&dir, "abfix");
    std::fs::write(dir.join("src/main.rs"), "bitbench::main!(abfix::Steps);\n").unwrap();
    let base = commit(&dir, &base_body(), "base");
    let changed = commit(&dir, CHANGED_ANSWER, "one changed answer");
    let slower = commit(&dir, THREE_TIMES, "three times slower");
    let broken = commit(&dir, "walk(x) +", "does not compile");
    let again = commit(&dir, &base_body(), "the base again");
    // One helper does 5 % more work; then one less and another more.
    let grown = commit(&dir, &helpers(720, 714, 600), "middle does 5 % more");
    let mixed = commit(
        &dir,
        &helpers(648, 680, 720),
        "head 10 % less, tail 20 % more",
    );
    // The program as its user builds it, and the driver: a copy of it.
    let program = loop_fixture::build(&dir, "abfix");
    let built = file(&program);
    let driver = dir.join("driver");
    std::fs::copy(&program, &driver).unwrap();
    let repo = dir.canonicalize().unwrap();

    let o = ab(&driver, &dir, &[&base, &slower]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let named = format!("ab: revisions of {}", repo.display());
    assert!(err.lines().any(|l| l == named), "{err}");
    // Two revisions built, and the program's own build untouched: the
    // same bytes and time, and nothing for cargo to do.
    assert_eq!(err.matches("ab: built ").count(), 2, "{err}");
    assert!(file(&program) == built, "ab changed {}", program.display());
    let cargo = cargo_outside(&dir, loop_fixture::BUILD);
    assert!(
        cargo.contains("Finished") && !cargo.contains("Compiling"),
        "not fresh after ab: {cargo}"
    );
    // The revisions were built like the program, with the crate's feature
    // that turns on bitbench's `count`.
    let counting = Command::new(loop_fixture::kept(&base, "abfix"))
        .args(["count", "--help"])
        .output()
        .unwrap();
    assert!(counting.status.success(), "{}", text(&counting).1);
    assert_eq!(verdict(&out, "time"), Some("REGRESSED"), "{out}{err}");
    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!("instruction verdict not asserted: valgrind or gungraun-runner missing");
    } else {
        assert_eq!(
            verdict(&out, "instructions"),
            Some("REGRESSED"),
            "{out}{err}"
        );
        // The time regression is attributed from the instructions' table.
        assert!(
            out.contains("where steps loop random time: REGRESSED"),
            "{out}{err}"
        );
        // Lines are named from the repository's root, the same in both
        // revisions, never from a revision's export directory.
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with("src/lib.rs:")),
            "{out}"
        );
        assert!(!out.contains("/src/lib.rs:"), "{out}");
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

    // A kept build, copied where no repository is, runs `ab` on the
    // repository its build recorded, and reuses the kept builds there.
    let loose = scratch("ab-loose");
    std::fs::create_dir_all(&loose).unwrap();
    let kept_driver = loose.join("driver");
    std::fs::copy(loop_fixture::kept(&base, "abfix"), &kept_driver).unwrap();
    let o = ab(&kept_driver, &loose, &[&base, &again]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(err.lines().any(|l| l == named), "{err}");
    assert!(
        !err.contains(&format!("building {}", &base)),
        "reused: {err}"
    );
    // The same code: no change, or (a busy machine) too little evidence
    // to say, which passes; never a move.
    let same = verdict(&out, "time").unwrap_or_default();
    assert!(
        same == "no change" || same.starts_with("inconclusive"),
        "{out}{err}"
    );

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
    let (a, b) = (loose.join("a"), loose.join("b"));
    std::fs::copy(loop_fixture::kept(&base, "abfix"), &a).unwrap();
    std::fs::copy(loop_fixture::kept(&slower, "abfix"), &b).unwrap();
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
    if !tool_missing("valgrind") && !tool_missing("gungraun-runner") {
        // Time alone was judged, so `ab` counted the regressed record in
        // both builds to say where: three times the loop.
        let table = &row["where"]["table"];
        assert!(table["total"]["percent"].as_f64().unwrap() > 100.0, "{row}");
        assert!(!table["rows"].as_array().unwrap().is_empty(), "{row}");
    }
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

    slow_mode_is_named_and_favours_neither(&driver, &loose, &loop_fixture::kept(&base, "abfix"));

    if tool_missing("valgrind") || tool_missing("gungraun-runner") {
        eprintln!("where it changed not asserted: valgrind or gungraun-runner missing");
    } else {
        where_it_changed(&driver, &dir, [&base, &grown, &mixed]);
    }

    loop_fixture::remove_kept(&[&base, &changed, &slower, &again, &broken, &grown, &mixed]);
    std::fs::remove_dir_all(&loose).ok();
    std::fs::remove_dir_all(&dir).ok();
}

/// The bytes of the file at `path` and the time it was last modified.
fn file(path: &Path) -> (Vec<u8>, SystemTime) {
    let modified = std::fs::metadata(path).and_then(|m| m.modified());
    (std::fs::read(path).unwrap(), modified.unwrap())
}

/// The rows of the `where` table of the instructions row in `ab`'s JSON
/// (`function`, `self_cost` before, after and delta per element), its
/// rest row and the row itself.
fn where_rows(
    json: &serde_json::Value,
) -> (Vec<serde_json::Value>, serde_json::Value, serde_json::Value) {
    let row = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "instructions")
        .cloned()
        .expect("an instructions row");
    let table = &row["where"]["table"];
    let rows = table["rows"].as_array().cloned().unwrap_or_default();
    (rows, table["rest"].clone(), row)
}

/// `ab` on a commit that makes one helper do 5 % more work names it first,
/// with rows that add up to the record's change, a flame graph that marks
/// it grown and a Markdown table; one helper better and another worse are
/// two rows of opposite sign.
fn where_it_changed(driver: &Path, dir: &Path, [base, grown, mixed]: [&str; 3]) {
    let out = dir.join("where.json");
    let args = |b: &str, format: &str| {
        let mut args: Vec<String> = [base, b, "--metric", "instructions", "--threshold", "0.5"]
            .map(str::to_owned)
            .to_vec();
        args.extend(["--format", format, "--out"].map(str::to_owned));
        args.push(out.display().to_string());
        args
    };
    let run = |args: Vec<String>| {
        loop_fixture::command(driver, dir)
            .arg("ab")
            .args(args)
            .output()
            .expect("the fixture runs")
    };
    let o = run(args(grown, "json"));
    let (text_out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{text_out}{err}");
    let json: serde_json::Value = serde_json::from_str(&text_out).expect("JSON");
    let (rows, rest, row) = where_rows(&json);
    assert!(!rows.is_empty(), "{row}");
    let first = &rows[0];
    assert!(
        first["function"].as_str().unwrap().ends_with("middle"),
        "{row}"
    );
    let cost = &first["self_cost"];
    let (before, after) = (
        cost["before"].as_f64().unwrap(),
        cost["after"].as_f64().unwrap(),
    );
    assert!(after > before * 1.04 && after < before * 1.06, "{first}");
    // The rows and the rest add up to the record's change.
    let change: f64 = rows
        .iter()
        .map(|r| r["self_cost"]["delta"].as_f64().unwrap())
        .sum::<f64>()
        + rest["cost"]["delta"].as_f64().unwrap();
    let total = row["b"].as_f64().unwrap() - row["a"].as_f64().unwrap();
    assert!(
        (change - total).abs() <= total.abs() * 1e-6 + 1e-6,
        "{change} vs {total}: {row}"
    );
    // The flame graph marks the helper grown: its frame is red.
    let svg = row["where"]["flame_graphs"][0]
        .as_str()
        .expect("a flame graph");
    let svg = std::fs::read_to_string(svg).unwrap();
    let frame = svg
        .split("<g>")
        .find(|g| g.contains("middle (") || g.contains("::middle"))
        .expect("middle's frame");
    let fill = frame.split("fill=\"rgb(").nth(1).expect("a fill");
    let rgb: Vec<u32> = fill
        .split(')')
        .next()
        .unwrap()
        .split(',')
        .map(|c| c.trim().parse().unwrap())
        .collect();
    assert!(rgb[0] > rgb[2], "grown means red, not blue: {frame}");

    let o = run(args(grown, "markdown"));
    let (md, err) = text(&o);
    assert!(
        md.contains("#### Where steps loop random instructions"),
        "{md}{err}"
    );
    assert!(
        md.lines()
            .any(|l| l.starts_with('|') && l.contains("middle")),
        "{md}"
    );

    let o = run(args(mixed, "json"));
    let (text_out, err) = text(&o);
    let json: serde_json::Value = serde_json::from_str(&text_out).expect("JSON");
    let (rows, _, row) = where_rows(&json);
    let change = |name: &str| {
        rows.iter()
            .find(|r| r["function"].as_str().unwrap().ends_with(name))
            .map(|r| r["self_cost"]["delta"].as_f64().unwrap())
            .unwrap_or_else(|| panic!("no {name} row: {row}{err}"))
    };
    assert!(change("head") < 0.0 && change("tail") > 0.0, "{row}");
}

/// A build with a slow mode no probe sees (its samples lose time inside
/// the thread's CPU time), against itself without one: the slow side is
/// named, and the verdict is not pulled its way. Slow three quarters of
/// the time as A, the median of every pair's ratio would read it 20 %
/// faster, "improved"; a quarter of the time as B, it would move it.
fn slow_mode_is_named_and_favours_neither(driver: &Path, dir: &Path, build: &Path) {
    let planted = |ms: u32| {
        let path = dir.join(format!("planted-{ms}"));
        std::fs::write(
            &path,
            format!("#!/bin/sh\n{PLANT}={ms} exec {} \"$@\"\n", build.display()),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        path
    };
    let (most, some) = (planted(PERIOD_MS * 3 / 4), planted(PERIOD_MS / 4));
    for (a, b, slow) in [(most.as_path(), build, "A"), (build, some.as_path(), "B")] {
        let o = ab_for(
            driver,
            dir,
            &[
                "--binaries",
                a.to_str().unwrap(),
                b.to_str().unwrap(),
                "--metric",
                "time",
                "--format",
                "json",
                "--out",
                dir.join("ab-planted.json").to_str().unwrap(),
            ],
            SLOW_MODE_SECONDS,
        );
        let (out, err) = text(&o);
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let row = &json["rows"][0];
        // Not pulled its way: no change, or too little evidence to say.
        assert!(
            ["no_change", "inconclusive"].contains(&row["verdict"].as_str().unwrap_or_default()),
            "{row}{err}"
        );
        let mode = row["slow_mode"].as_str().unwrap_or_default();
        assert!(
            mode.starts_with(&format!("{slow}'s samples are bimodal")),
            "{row}"
        );
        assert!(row["outliers"].as_u64().unwrap() > 0, "{row}");
    }
}
