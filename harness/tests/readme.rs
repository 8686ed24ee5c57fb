//! Keeps the README and the guide (`docs/*.md`) true.
//!
//! - Every `bitbench ...` line in a `sh` block is a command, and each one
//!   is tested. Each page runs its commands in order through `sh`, in a
//!   fresh scratch directory of its own (it holds a `boards.txt` for the
//!   `--input-file` example), with the built `bitbench` first on `PATH`.
//!   Benchmarks get `--quick` and checks few cases, so the test stays
//!   fast. A command exits 0, or 1 where it is a gate (`compare`,
//!   `history check`, `ab`: 1 is a verdict, not a failure). `# ...` lines
//!   right after a command are that command's exact output.
//! - A block whose previous non-blank line is `<!-- parse only: REASON -->`
//!   is parsed by the real command line and not run. Its commands build
//!   revisions, need valgrind, or run for minutes; other tests run them on
//!   fixtures.
//! - The README stays short and starts with the two commands. Every page
//!   of the guide is reachable from it, and every relative link resolves.

mod common;

use common::guide::{Page, pages, readme};
use common::{root, scratch};
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// What the README must stay under, in bytes.
const README_LIMIT: usize = 8 * 1024;

/// A `bitbench` command shown in a `sh` block.
#[derive(Debug)]
struct Shown {
    /// The line after `bitbench `.
    line: String,
    /// Its exact output, from the `# ...` lines under it.
    expected: Option<String>,
    /// Why it is parsed and not run, when it is.
    parse_only: Option<String>,
}

/// Every `bitbench` command in the `sh` blocks of `text`.
fn shown(text: &str) -> Vec<Shown> {
    let mut out: Vec<Shown> = Vec::new();
    // Inside a fence; `Some` inside a `sh` one, holding why it is parse only.
    let mut fenced = false;
    let mut sh: Option<Option<String>> = None;
    let mut previous = "";
    let mut after_command = false;
    for line in text.lines() {
        if line.starts_with("```") {
            sh = (!fenced && line == "```sh").then(|| {
                previous
                    .strip_prefix("<!-- parse only: ")
                    .and_then(|r| r.strip_suffix(" -->"))
                    .map(str::to_owned)
            });
            fenced = !fenced;
            after_command = false;
            previous = line;
            continue;
        }
        if !line.trim().is_empty() {
            previous = line;
        }
        let Some(parse_only) = &sh else { continue };
        if let Some(rest) = line.strip_prefix("bitbench ") {
            out.push(Shown {
                line: rest.to_owned(),
                expected: None,
                parse_only: parse_only.clone(),
            });
            after_command = true;
        } else if let (Some(expected), true, Some(last)) =
            (line.strip_prefix("# "), after_command, out.last_mut())
        {
            let all = last.expected.get_or_insert_with(String::new);
            if !all.is_empty() {
                all.push('\n');
            }
            all.push_str(expected);
        } else {
            after_command = false;
        }
    }
    out
}

/// Splits a shell line into words, honouring single quotes, up to a
/// comment, a redirection or a pipe.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            '#' | '>' | '|' if !quoted && word.is_empty() => break,
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// The line as the test runs it: benchmarks quick, checks short.
fn quick(line: &str) -> String {
    let mut line = line.to_owned();
    let command = line.split(" #").next().unwrap_or_default();
    if command.starts_with("bench ") && !command.contains("--quick") {
        line = line.replacen("bench ", "bench --quick ", 1);
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    if let Some(i) = words.iter().position(|w| *w == "--cases") {
        words[i + 1] = "200";
    }
    words.join(" ")
}

/// Whether a command is a gate, whose exit 1 is a verdict.
fn is_gate(line: &str) -> bool {
    matches!(
        words(line).iter().map(String::as_str).collect::<Vec<_>>()[..],
        ["compare", ..] | ["ab", ..] | ["history", "check", ..]
    )
}

/// Runs the commands of one page in a scratch directory of its own.
fn run_page(page: &Page, commands: &[Shown]) {
    let name = page.path.to_string_lossy().replace(['/', '.'], "_");
    let dir = scratch(&format!("guide-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("boards.txt"), "0x3\n0x41\n").unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_bitbench")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    for shown in commands {
        let where_ = format!("{}: bitbench {}", page.path.display(), shown.line);
        if let Some(reason) = &shown.parse_only {
            assert!(!reason.trim().is_empty(), "{where_}: parse only, but why?");
            if let Err(e) = bitbench::cli::parse(&words(&shown.line)) {
                panic!("{where_} does not parse:\n{e}");
            }
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("bitbench {}", quick(&shown.line)))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("CI", "1")
            .env("GITHUB_STEP_SUMMARY", dir.join("step-summary.md"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        let allowed = code == Some(0) || code == Some(1) && is_gate(&shown.line);
        assert!(allowed, "{where_} exited {code:?}: {stderr}");
        if let Some(expected) = &shown.expected {
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim_end(),
                expected,
                "{where_}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_command_shown_runs_as_documented() {
    let pages = pages();
    let mut total = 0;
    for page in &pages {
        let commands = shown(&page.text);
        total += commands.len();
        run_page(page, &commands);
    }
    assert!(total >= 40, "the guide lost its examples: {total} commands");
}

/// The targets of a page's relative links (no scheme, no bare anchor),
/// anchors dropped, resolved from the page's folder.
fn links(page: &Page) -> Vec<PathBuf> {
    let folder = page.path.parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for (i, _) in page.text.match_indices("](") {
        let rest = &page.text[i + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = rest[..end].split('#').next().unwrap_or("");
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        out.push(normalise(&folder.join(target)));
    }
    out
}

/// `a/b/../c` as `a/c`.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

#[test]
fn every_page_is_reachable_and_every_link_resolves() {
    let pages = pages();
    for page in &pages {
        for target in links(page) {
            assert!(
                root().join(&target).exists(),
                "{} links to {}, which does not exist",
                page.path.display(),
                target.display()
            );
        }
    }
    let mut reached = BTreeSet::from([PathBuf::from("README.md")]);
    let mut queue = vec![PathBuf::from("README.md")];
    while let Some(path) = queue.pop() {
        let Some(page) = pages.iter().find(|p| p.path == path) else {
            continue;
        };
        for target in links(page) {
            if reached.insert(target.clone()) {
                queue.push(target);
            }
        }
    }
    let unreached: Vec<_> = pages
        .iter()
        .filter(|p| !reached.contains(&p.path))
        .map(|p| p.path.display().to_string())
        .collect();
    assert!(
        unreached.is_empty(),
        "not reachable from README.md: {unreached:?}"
    );
    assert!(pages.len() >= 8, "the guide has {} pages", pages.len());
}

#[test]
fn the_readme_is_short_and_starts_with_the_two_commands() {
    let readme = &readme();
    assert!(
        readme.len() < README_LIMIT,
        "README.md is {} bytes; the guide (docs/) is the place for more",
        readme.len()
    );
    let first_block: Vec<&str> = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sh block")
        .lines()
        .collect();
    assert_eq!(first_block.len(), 2, "{first_block:?}");
    assert!(
        first_block[0].starts_with("cargo run --release "),
        "{first_block:?}"
    );
    assert!(
        first_block[1].starts_with("cargo test --workspace --release "),
        "{first_block:?}"
    );
    // .ci/run runs exactly the README's test command.
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l == "cargo test --workspace --release"),
        ".ci/run no longer runs the README's test command"
    );
}

#[test]
fn blocks_and_words() {
    let text = "\
```sh
bitbench list
# a
# b
bitbench check x --cases 100000
```

<!-- parse only: builds revisions -->

```sh
bitbench ab main > out.md   # note
```
```
bitbench not-shown
```
";
    let shown = shown(text);
    assert_eq!(shown.len(), 3, "{shown:?}");
    assert_eq!(shown[0].expected.as_deref(), Some("a\nb"));
    assert_eq!(shown[1].expected, None);
    assert_eq!(shown[0].parse_only, None);
    assert_eq!(shown[2].parse_only.as_deref(), Some("builds revisions"));
    assert_eq!(words(&shown[2].line), ["ab", "main"]);
    assert_eq!(words("solve x 'a b' c # note"), ["solve", "x", "a b", "c"]);
    assert_eq!(quick("check x --cases 100000"), "check x --cases 200");
    assert_eq!(quick("bench x"), "bench --quick x");
    assert_eq!(
        quick("bench x # not --quick"),
        "bench --quick x # not --quick"
    );
    assert!(is_gate("history check --store s") && !is_gate("history add f"));
    assert!(is_gate("ab") && is_gate("ab main > out.md") && !is_gate("abc"));
}
