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

/// The target directory `cargo` uses for the package at `dir`, asked of
/// `cargo metadata`; `command` prefixes the errors.
pub(super) fn metadata_target(dir: &Path, command: &str) -> Result<PathBuf, Error> {
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
        .map_err(|e| Error::usage(format!("{command}: cannot run cargo: {e}")))?;
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|_| {
        Error::usage(format!(
            "{command}: `cargo metadata` failed in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
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
