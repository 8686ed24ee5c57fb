//! Keeps the README's command-line walk-through true: every `bitbench ...`
//! line in its shell blocks runs and exits 0, and a `# ...` line right
//! after a command is that command's exact output.
//!
//! Benchmarks run with `--quick` and check with few cases so the test
//! stays fast; everything else runs as written, in a scratch directory
//! holding a `boards.txt` for the `--input-file` example.

use std::process::Command;

/// Splits a shell line into words, honouring single quotes.
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
            '#' if !quoted && word.is_empty() => break,
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

/// `(command words, expected output)` for every bitbench line in a `sh` block.
fn examples(readme: &str) -> Vec<(Vec<String>, Option<String>)> {
    let mut out: Vec<(Vec<String>, Option<String>)> = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(rest) = line.strip_prefix("bitbench ") {
            out.push((words(rest), None));
        } else if let (Some(expected), Some(last)) = (line.strip_prefix("# "), out.last_mut()) {
            last.1 = Some(expected.to_owned());
        }
    }
    out
}

#[test]
fn readme_commands_run_as_documented() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md at the workspace root");
    let examples = examples(&readme);
    assert!(
        examples.len() >= 5,
        "README lost its examples: {examples:?}"
    );
    let dir = std::env::temp_dir().join(format!("bitbench-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("boards.txt"), "0x3\n0x41\n").unwrap();
    for (mut args, expected) in examples {
        match args[0].as_str() {
            "bench" => args.push("--quick".into()),
            "check" => {
                if let Some(i) = args.iter().position(|a| a == "--cases") {
                    args[i + 1] = "200".into();
                }
            }
            _ => {}
        }
        let out = Command::new(env!("CARGO_BIN_EXE_bitbench"))
            .args(&args)
            .current_dir(&dir)
            .env("CI", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "bitbench {args:?} failed: {stderr}");
        if let Some(expected) = expected {
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim_end(),
                expected,
                "bitbench {args:?}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shell_words() {
    assert_eq!(words("solve x 'a b' c # note"), ["solve", "x", "a b", "c"]);
    assert_eq!(words("list"), ["list"]);
}
