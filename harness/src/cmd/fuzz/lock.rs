//! The fuzz crate's lock file: `fuzz --init` starts it as a copy of the
//! user's crate's `Cargo.lock`.
//!
//! The fuzz crate is a workspace of its own, so with no lock file of its
//! own cargo resolves every dependency afresh, and a release of a shared
//! dependency newer than the crate's (one needing a newer rustc, say)
//! breaks a fuzz build where the crate itself builds. From a copy of the
//! crate's lock, cargo keeps each package the two share at the crate's
//! version and resolves only what the fuzz crate adds (libfuzzer-sys, the
//! `arbitrary` of bitbench's `fuzz` feature), with edition 2024's resolver,
//! at versions the crate's `rust-version` (or the toolchain) allows.

use crate::error::Error;
use std::path::{Path, PathBuf};

/// Copies the crate's `Cargo.lock` into `fuzz`: the one beside its
/// manifest, else its workspace's (at `workspace_root`, from `cargo
/// metadata`). Returns the file copied, or `None` when the crate has none.
pub(super) fn copy(
    crate_dir: &Path,
    workspace_root: &Path,
    fuzz: &Path,
) -> Result<Option<PathBuf>, Error> {
    let Some(lock) = [crate_dir, workspace_root]
        .iter()
        .map(|dir| dir.join("Cargo.lock"))
        .find(|lock| lock.is_file())
    else {
        return Ok(None);
    };
    let copied = fuzz.join("Cargo.lock");
    std::fs::copy(&lock, &copied).map_err(|e| {
        Error::usage(format!(
            "fuzz --init: cannot copy {} to {}: {e}",
            lock.display(),
            copied.display()
        ))
    })?;
    Ok(Some(lock))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crate's own lock file comes before its workspace's; with
    /// neither, nothing is copied.
    #[test]
    fn the_lock_beside_the_manifest_comes_first() {
        let root = std::env::temp_dir().join(format!("bitbench-fuzz-locks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (kernel, fuzz) = (root.join("kernel"), root.join("kernel/fuzz"));
        std::fs::create_dir_all(&fuzz).unwrap();
        assert_eq!(copy(&kernel, &root, &fuzz).unwrap(), None);
        assert!(!fuzz.join("Cargo.lock").exists());

        std::fs::write(root.join("Cargo.lock"), "# the workspace's\n").unwrap();
        std::fs::write(kernel.join("Cargo.lock"), "# the crate's\n").unwrap();
        assert_eq!(
            copy(&kernel, &root, &fuzz).unwrap(),
            Some(kernel.join("Cargo.lock"))
        );
        let copied = std::fs::read_to_string(fuzz.join("Cargo.lock")).unwrap();
        assert_eq!(copied, "# the crate's\n");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
