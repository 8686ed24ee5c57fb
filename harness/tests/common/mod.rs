//! Helpers shared by the CLI test binaries: run `bitbench`, read its output.
//!
//! Each test binary uses a subset of these, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the built `bitbench` with `args`, progress bars off (`CI=1`).
pub fn bitbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitbench"))
        .args(args)
        .env("CI", "1")
        .output()
        .expect("bitbench runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
