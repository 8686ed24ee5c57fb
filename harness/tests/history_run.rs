//! `history run` and `history bisect` end to end on a fixture crate with a
//! git history of its own.
//!
//! The test writes a tiny crate outside this workspace (a dependent loop
//! through `bitbench::main!`, as `ab_cli.rs` does) and commits: a first
//! commit that is no bitbench program (standing in for a revision too old
//! to record its commit), the base, and three changes of which the second
//! runs the loop twice (twice the instructions) and the others only add
//! comments. `history run` over base..last files one run per commit and
//! measure, naming the right commits; `history bisect` finds the doubled
//! loop reusing those builds, measuring at most 2 + ceil(log2(3))
//! revisions; the first commit and an unknown revision are refused with
//! one line. A last commit writes through a null pointer on some inputs:
//! `history bisect --metric answers` finds it and `history run` files it
//! as broken.
//! The program builds in this workspace's target directory, with its lock
//! file, so only the fixture compiles; its revisions in `bitbench-ab/build`
//! there, shared with every fixture's (each compiles the fixture and links
//! the program).

mod common;

use common::{git, loop_fixture, scratch, text, tool_missing};
use reports::history::Store;
use reports::{Metric, Status};
use std::path::Path;
use std::process::Output;

const BASE: &str = "black_box(walk(black_box(x)))";
/// The loop twice, the same answers: twice the instructions.
const TWICE: &str = "let _ = black_box(walk(black_box(x))); black_box(walk(black_box(x)))";

/// Commits `src/main.rs` and `src/lib.rs` (the fixture with `body`, and
/// `comment` appended); returns the commit.
fn commit(dir: &Path, main: &str, body: &str, comment: &str, message: &str) -> String {
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let lib = loop_fixture::lib(1000, 64, body) + comment;
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

fn history(driver: &Path, dir: &Path, args: &[&str]) -> Output {
    loop_fixture::command(driver, dir)
        .arg("history")
        .args(args)
        .output()
        .expect("the fixture runs")
}

#[test]
fn history_run_files_each_commit_and_bisect_finds_the_doubled_loop() {
    let dir = scratch("history");
    loop_fixture::init(&dir, "histfix");
    let program = "bitbench::main!(histfix::Steps);\n";
    let before = commit(&dir, "fn main() {}\n", BASE, "", "no bitbench program yet");
    let base = commit(&dir, program, BASE, "", "base");
    let c1 = commit(&dir, program, BASE, "// one\n", "a comment");
    let planted = commit(&dir, program, TWICE, "// one\n", "the loop twice");
    let last = commit(&dir, program, TWICE, "// two\n", "another comment");
    // The driver: the fixture's own binary, copied away from the target
    // directory the revision builds write to.
    let driver = dir.join("driver");
    std::fs::copy(loop_fixture::build(&dir, "histfix"), &driver).unwrap();
    let counted = !(tool_missing("valgrind") || tool_missing("gungraun-runner"));
    if !counted {
        eprintln!("instructions not asserted: valgrind or gungraun-runner missing");
    }

    let store = dir.join("store");
    let range = format!("{before}..{last}");
    let o = history(
        &driver,
        &dir,
        &[
            "run",
            &range,
            "--store",
            store.to_str().unwrap(),
            "--machine",
            "fixture-box",
        ],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    let line = [&base, &c1, &planted, &last];
    for sha in line {
        let row = out
            .lines()
            .find(|l| l.starts_with(&sha[..10]))
            .unwrap_or_else(|| panic!("no line for {sha}: {out}"));
        let files = if counted { "2 added" } else { "1 added" };
        assert!(row.contains(files), "{row}\n{out}{err}");
    }
    assert!(!out.contains(&before[..10]), "{out}");
    // The store holds one run per commit and measure, each naming its own
    // commit; the doubled loop shows in the counts of its commit on.
    let runs = Store::open(&store).unwrap().runs().unwrap();
    let per_commit = if counted { 2 } else { 1 };
    assert_eq!(runs.len(), line.len() * per_commit, "{runs:?}");
    for sha in line {
        let mine: Vec<_> = runs.iter().filter(|r| r.commit == *sha).collect();
        assert_eq!(mine.len(), per_commit, "{sha}: {runs:?}");
        assert!(mine.iter().all(|r| !r.dirty));
        assert!(mine.iter().all(|r| r.machine == "fixture-box"), "{mine:?}");
    }
    if counted {
        let instructions = |sha: &str| {
            runs.iter()
                .filter(|r| r.commit == sha)
                .flat_map(|r| &r.file.records)
                .find(|r| r.metric == Metric::Instructions && r.status == Status::Ok)
                .map(|r| r.median)
                .unwrap_or_else(|| panic!("no count of {sha}"))
        };
        let ratio = instructions(&planted) / instructions(&c1);
        assert!((1.8..2.2).contains(&ratio), "{ratio}");
        let same = instructions(&c1) / instructions(&base);
        assert!((same - 1.0).abs() < 0.01, "{same}");
    }

    // Bisect base..last (3 commits): base, last, then 2 halvings, all
    // built already.
    let metric = if counted { "instructions" } else { "time" };
    let bisect = |good: &str, bad: &str, metric: &str| {
        history(
            &driver,
            &dir,
            &[
                "bisect",
                good,
                bad,
                "--workload",
                "steps",
                "--variant",
                "loop",
                "--inputs",
                "random",
                "--metric",
                metric,
                "--threshold",
                "10",
                "--seconds",
                "1",
            ],
        )
    };
    let o = bisect(&base, &last, metric);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("first moved: {} the loop twice", &planted[..10])),
        "{out}{err}"
    );
    let measured: usize = out
        .lines()
        .find(|l| l.contains(" revision(s) measured"))
        .and_then(|l| l.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no count of revisions: {out}"));
    assert!((3..=4).contains(&measured), "{out}");
    assert!(out.contains(", 0 built anew"), "{out}");
    if counted {
        // Where: the first moved commit against its parent on the line.
        assert!(
            out.contains("where it changed, from its parent on the line:"),
            "{out}"
        );
        assert!(out.contains("flame graph: "), "{out}");
    }
    for sha in [&base, &planted, &last] {
        assert!(
            out.lines().any(|l| l.starts_with(&sha[..10])),
            "{sha}: {out}"
        );
    }
    // Paired time finds it too (the first search did when uncounted).
    if counted {
        let o = bisect(&base, &last, "time");
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{out}{err}");
        assert!(
            out.contains(&format!("first moved: {} the loop twice", &planted[..10])),
            "{out}{err}"
        );
    }
    // From the planted commit on nothing moves: exit 1, said so.
    let o = bisect(&planted, &last, metric);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("did not move beyond 10%"), "{out}{err}");

    // Answers: the doubled loop answers the same, so nothing moves; a
    // commit writing through a null pointer on some inputs is found, and
    // `history run` files it as broken there (one build more).
    let o = bisect(&base, &last, "answers");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let null_write = "if x & 7 == 5 { unsafe { std::ptr::null_mut::<u64>().write_volatile(x) } } \
                      black_box(walk(black_box(x)))";
    let crash = commit(&dir, program, null_write, "// two\n", "a null write");
    let o = bisect(&last, &crash, "answers");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("first moved: {} a null write", &crash[..10])),
        "{out}{err}"
    );
    let o = history(
        &driver,
        &dir,
        &[
            "run",
            &format!("{last}..{crash}"),
            "--store",
            store.to_str().unwrap(),
            "--machine",
            "fixture-box",
        ],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains(&format!(
            "{} bench: broken: steps/loop/random: crashed: segmentation fault (SIGSEGV) on",
            &crash[..10]
        )),
        "{out}{err}"
    );

    // A commit whose build does not record its commit, an unknown
    // revision: refused with one line naming them.
    for (rev, message) in [
        (
            before.as_str(),
            format!("history run: revision {} is not supported", &before[..10]),
        ),
        (
            "no-such-rev",
            "history run: 'no-such-rev' is not a commit".to_owned(),
        ),
    ] {
        let o = history(
            &driver,
            &dir,
            &["run", rev, "--store", store.to_str().unwrap()],
        );
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}{err}");
        let last = err.trim_end().lines().last().unwrap_or_default();
        assert!(last.contains(&message), "{err}");
    }
    // Nothing filed by the refused runs: the runs of the line and of the
    // broken commit only.
    assert_eq!(
        Store::open(&store).unwrap().runs().unwrap().len(),
        runs.len() + per_commit
    );

    loop_fixture::remove_kept(&[&before, &base, &c1, &planted, &last, &crash]);
    std::fs::remove_dir_all(&dir).ok();
}
