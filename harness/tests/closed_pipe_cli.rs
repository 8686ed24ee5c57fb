//! A reader that goes away (`bitbench … | head`) ends the output quietly:
//! exit status 0 and no panic message, for every command that prints.

mod common;

use common::scratch;
use std::process::{Command, Stdio};

/// Runs bitbench with its stdout a pipe whose read end is already closed.
fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitbench"))
        .args(args)
        .env("CI", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bitbench starts");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("bitbench ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn printing_commands_stop_quietly_when_the_reader_is_gone() {
    let results = scratch("pipe").with_extension("json");
    let results = results.to_str().expect("a UTF-8 temp path");
    for args in [
        &["list"][..],
        &["solve", "cephalopod", "20 060/222/161", "1 555/005/555"],
        &[
            "bench",
            "meteor",
            "--quick",
            "--variant",
            "endgame",
            "--inputs",
            "partial:3",
            "--out",
            results,
        ],
    ] {
        let (code, stderr) = run_into_closed_pipe(args);
        assert_eq!(code, Some(0), "bitbench {args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "bitbench {args:?}: {stderr}");
    }
    let _ = std::fs::remove_file(results);
}
