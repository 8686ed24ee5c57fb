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
//! one line.
//! Builds share this workspace's target directory and lock file, so only
//! the fixture compiles (each revision links the program, thin LTO).

mod common;

use common::{build_outside, tool_missing, write_outside_manifest};
use reports::history::Store;
use reports::{Metric, Status};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The fixture; `BODY` is replaced by each commit's body of `answer`.
const LIB: &str = r#"
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};
use std::hint::black_box;

/// A uniform dependent loop over one word.
pub struct Steps;

fn walk(mut x: u64) -> u64 {
    for _ in 0..1000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) ^ (x >> 29);
    }
    x
}

fn answer(x: u64) -> u64 {
    BODY
}

impl Workload for Steps {
    type Input = u64;
    type Output = u64;
    fn name(&self) -> &'static str { "steps" }
    fn description(&self) -> &'static str { "a dependent loop" }
    fn unit(&self) -> &'static str { "words" }
    fn variants(&self) -> Vec<VariantInfo> { vec![VariantInfo::new("loop", "the loop", &[])] }
    fn default_variant(&self) -> &'static str { "loop" }
    fn solver(&self, v: &str) -> Option<Box<dyn Solve<u64, u64>>> {
        (v == "loop").then(|| Box::new(|x: &u64| answer(*x)) as Box<dyn Solve<u64, u64>>)
    }
    fn input_sets(&self) -> Vec<InputSet> { vec![InputSet::new("random", "random words")] }
    fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["random".into()] }
    fn check_sets(&self) -> Vec<String> { vec!["random".into()] }
    fn bench_batch(&self, _quick: bool) -> usize { 64 }
    fn generate(&self, _set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
        Ok((0..n as u64).map(|i| (i + seed).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect())
    }
    fn parse_input(&self, text: &str) -> Result<u64, String> {
        text.parse().map_err(|e| format!("'{text}': {e}"))
    }
    fn format_input(&self, x: &u64) -> String { x.to_string() }
    fn format_output(&self, x: &u64) -> String { x.to_string() }
    fn same(&self, a: &u64, b: &u64) -> bool { a == b }
}
"#;

const BASE: &str = "black_box(walk(black_box(x)))";
/// The loop twice, the same answers: twice the instructions.
const TWICE: &str = "let _ = black_box(walk(black_box(x))); black_box(walk(black_box(x)))";

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "history test")
        .env("GIT_AUTHOR_EMAIL", "history@example.invalid")
        .env("GIT_COMMITTER_NAME", "history test")
        .env("GIT_COMMITTER_EMAIL", "history@example.invalid")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", text(&out).1);
    text(&out).0.trim().to_owned()
}

/// Commits `src/main.rs` and `src/lib.rs` (the fixture with `body`, and
/// `comment` appended); returns the commit.
fn commit(dir: &Path, main: &str, body: &str, comment: &str, message: &str) -> String {
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let lib = LIB.replace("BODY", body) + comment;
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// This workspace's target directory, which the fixture's builds share.
fn target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    )
}

fn history(driver: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(driver)
        .arg("history")
        .args(args)
        .current_dir(dir)
        .env("CI", "1")
        .env("CARGO_TARGET_DIR", target())
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .expect("the fixture runs")
}

#[test]
fn history_run_files_each_commit_and_bisect_finds_the_doubled_loop() {
    let dir = std::env::temp_dir().join(format!("bitbench-history-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    write_outside_manifest(&dir, "histfix", &["count"]);
    std::fs::write(dir.join(".gitignore"), "target/\n").unwrap();
    git(&dir, &["init", "-q"]);
    let program = "bitbench::main!(histfix::Steps);\n";
    let before = commit(&dir, "fn main() {}\n", BASE, "", "no bitbench program yet");
    let base = commit(&dir, program, BASE, "", "base");
    let c1 = commit(&dir, program, BASE, "// one\n", "a comment");
    let planted = commit(&dir, program, TWICE, "// one\n", "the loop twice");
    let last = commit(&dir, program, TWICE, "// two\n", "another comment");
    // The driver: the fixture's own binary, copied away from the target
    // directory the revision builds write to.
    let driver = dir.join("driver");
    std::fs::copy(build_outside(&dir, "histfix"), &driver).unwrap();
    let counted = !(tool_missing("valgrind") || tool_missing("gungraun-runner"));
    if !counted {
        eprintln!("instructions not asserted: valgrind or gungraun-runner missing");
    }

    let store = dir.join("store");
    let range = format!("{before}..{last}");
    let o = history(
        &driver,
        &dir,
        &["run", &range, "--store", store.to_str().unwrap()],
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
    assert_eq!(
        Store::open(&store).unwrap().runs().unwrap().len(),
        runs.len()
    );

    let kept = target().join("bitbench-ab");
    for sha in [&before, &base, &c1, &planted, &last] {
        std::fs::remove_dir_all(kept.join(sha)).ok();
        std::fs::remove_dir_all(kept.join("src").join(sha)).ok();
    }
    std::fs::remove_dir_all(&dir).ok();
}
