//! A build's ordinary subcommands, run once each: what works with every
//! revision, including those from before serve mode.
//!
//! Instruction counts always come from `count --out` (valgrind runs a
//! process of its own anyway); for a revision without serve mode the
//! answers come from `solve --input-file` on the driver's inputs and time
//! from one `bench` run of each build, compared unpaired.

use crate::error::Error;
use reports::ResultsFile;
use std::path::Path;
use std::process::Command;

/// Runs `exe ARGS` quietly; its stdout, or `Err(Failed)` with the first
/// line of its stderr, or what killed it (a signal, in words).
fn run(exe: &Path, args: &[&str]) -> Result<String, Error> {
    let out = Command::new(exe)
        .args(args)
        .env("CI", "1")
        .output()
        .map_err(|e| Error::usage(format!("ab: cannot run {}: {e}", exe.display())))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code().is_none() {
        let fault = crate::fault::watch::fault_of(&out.status, stderr.into_owned());
        return Err(Error::failed(format!(
            "`{} {}` {}",
            exe.display(),
            args.join(" "),
            fault.describe()
        )));
    }
    let first = stderr.lines().next().unwrap_or("no message");
    Err(Error::failed(format!(
        "`{} {}` failed ({}): {first}",
        exe.display(),
        args.join(" "),
        out.status
    )))
}

/// `inputs WORKLOAD SET --seed S`, one input a line.
pub fn inputs(exe: &Path, workload: &str, set: &str, seed: u64) -> Result<Vec<String>, Error> {
    let seed = seed.to_string();
    let text = run(exe, &["inputs", workload, set, "--seed", &seed])?;
    Ok(text.lines().map(str::to_owned).collect())
}

/// `solve WORKLOAD --variant V --input-file FILE`, one answer a line.
pub fn solve(exe: &Path, workload: &str, variant: &str, file: &Path) -> Result<Vec<String>, Error> {
    let file = file.to_string_lossy();
    let text = run(
        exe,
        &[
            "solve",
            workload,
            "--variant",
            variant,
            "--input-file",
            &file,
        ],
    )?;
    Ok(text.lines().map(str::to_owned).collect())
}

/// `SUBCOMMAND WORKLOAD --variant V... --inputs SET... --seed S --out FILE`,
/// then the file it wrote (`bench --quick` or `count`).
pub fn measure(
    exe: &Path,
    subcommand: &[&str],
    workload: &str,
    variants: &[String],
    sets: &[String],
    seed: u64,
    out: &Path,
) -> Result<ResultsFile, Error> {
    let seed = seed.to_string();
    let mut args: Vec<&str> = subcommand.to_vec();
    args.push(workload);
    args.push("--variant");
    args.extend(variants.iter().map(String::as_str));
    args.push("--inputs");
    args.extend(sets.iter().map(String::as_str));
    args.extend(["--seed", &seed]);
    results(exe, &args, out)
}

/// `exe ARGS --out FILE`, then the results file it wrote: also when it
/// failed after writing it (a variant crashed or hung, and its records
/// say so).
pub fn results(exe: &Path, args: &[&str], out: &Path) -> Result<ResultsFile, Error> {
    let out_text = out.to_string_lossy();
    let mut args = args.to_vec();
    args.extend(["--out", &out_text]);
    let _ = std::fs::remove_file(out);
    match run(exe, &args) {
        Err(e) if !out.exists() => Err(e),
        _ => Ok(ResultsFile::read(out)?),
    }
}
