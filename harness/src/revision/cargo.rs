//! Which cargo to run, and where it puts a package's builds.

use crate::entry::Origin;
use crate::error::Error;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cargo that built or runs this program (`CARGO`), else `cargo`.
pub fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The target directory `cargo` uses for `origin`'s package (the
/// workspace's, when it is a member of one), where `matrix` builds it.
pub fn target_dir(origin: &Origin) -> Result<PathBuf, Error> {
    let dir = Path::new(origin.manifest_dir);
    if !dir.join("Cargo.toml").is_file() {
        return Err(Error::usage(format!(
            "matrix rebuilds {} from its source, which is no longer at {}",
            origin.binary,
            dir.display()
        )));
    }
    metadata_target(dir, "matrix")
}

/// `cargo metadata --no-deps --offline` of the package at `dir`: its
/// workspace's packages as their manifests say, nothing resolved or
/// downloaded, so it works wherever the manifest is, network or not.
/// `Err`: the first line of cargo's complaint.
pub fn metadata(dir: &Path) -> Result<serde_json::Value, String> {
    let out = Command::new(cargo())
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    serde_json::from_slice(&out.stdout).map_err(|_| {
        let stderr = String::from_utf8_lossy(&out.stderr);
        stderr
            .trim()
            .lines()
            .next()
            .unwrap_or("cargo failed")
            .to_owned()
    })
}

/// The target directory `cargo` uses for the package at `dir`, asked of
/// `cargo metadata`; `command` prefixes the errors.
pub(super) fn metadata_target(dir: &Path, command: &str) -> Result<PathBuf, Error> {
    let metadata = metadata(dir).map_err(|why| {
        Error::usage(format!(
            "{command}: `cargo metadata` failed in {}: {why}",
            dir.display()
        ))
    })?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| {
            Error::usage(format!(
                "{command}: `cargo metadata` names no target directory"
            ))
        })
}
