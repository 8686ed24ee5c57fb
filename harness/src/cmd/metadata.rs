//! What `cargo metadata` says of the program's own package, for the
//! commands that write files into the user's repository (`fuzz --init`,
//! `ci --init`): the package, its workspace's root, and the form its
//! dependency on bitbench takes.
//! (`revision::metadata` runs cargo for it, as for the revision builds.)

use crate::error::Error;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The package `name` of the manifest in `crate_dir` and its workspace's
/// root, as `cargo metadata` reports them; errors start with `command`.
pub(crate) fn package(
    crate_dir: &Path,
    name: &str,
    command: &str,
) -> Result<(Value, PathBuf), Error> {
    let manifest = crate_dir.join("Cargo.toml");
    let mut metadata = crate::revision::metadata(crate_dir).map_err(|why| {
        Error::usage(format!(
            "{command}: cargo metadata cannot read {}: {why}",
            manifest.display()
        ))
    })?;
    let workspace_root = metadata["workspace_root"]
        .as_str()
        .map_or_else(|| crate_dir.to_owned(), PathBuf::from);
    let package = metadata["packages"]
        .as_array_mut()
        .and_then(|all| all.iter_mut().find(|p| p["name"] == name))
        .map(Value::take)
        .ok_or_else(|| {
            Error::usage(format!(
                "{command}: no package '{name}' in {}",
                manifest.display()
            ))
        })?;
    Ok((package, workspace_root))
}

/// The package's normal (not dev, not build) dependency on bitbench.
pub(crate) fn bitbench_dependency(package: &Value) -> Option<&Value> {
    package["dependencies"]
        .as_array()?
        .iter()
        .find(|d| d["name"] == "bitbench" && d["kind"].is_null())
}

/// A dependency's source as the keys of a dependency table: a path, a
/// crates.io version, or a git repository (with its branch, tag or rev).
pub(crate) fn source(dependency: &Value) -> Option<Vec<(&'static str, String)>> {
    let version = dependency["req"].as_str().unwrap_or("*").to_owned();
    if let Some(path) = dependency["path"].as_str() {
        return Some(vec![("path", path.to_owned())]);
    }
    let source = dependency["source"].as_str()?;
    if source == "registry+https://github.com/rust-lang/crates.io-index" {
        return Some(vec![("version", version)]);
    }
    let git = source.strip_prefix("git+")?;
    let (url, query) = git.split_once('?').unwrap_or((git, ""));
    let mut keys = vec![("git", url.to_owned())];
    for (key, value) in query.split('&').filter_map(|kv| kv.split_once('=')) {
        match key {
            "branch" => keys.push(("branch", value.to_owned())),
            "tag" => keys.push(("tag", value.to_owned())),
            "rev" => keys.push(("rev", value.to_owned())),
            _ => {}
        }
    }
    Some(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_sources_become_table_keys() {
        let path = serde_json::json!({"name": "bitbench", "source": null, "req": "*", "path": "/w/harness"});
        assert_eq!(source(&path), Some(vec![("path", "/w/harness".into())]));
        let registry = serde_json::json!({"name": "bitbench", "req": "^0.1",
            "source": "registry+https://github.com/rust-lang/crates.io-index"});
        assert_eq!(source(&registry), Some(vec![("version", "^0.1".into())]));
        let git = serde_json::json!({"name": "bitbench", "req": "*",
            "source": "git+https://example.invalid/b.git?branch=main"});
        assert_eq!(
            source(&git),
            Some(vec![
                ("git", "https://example.invalid/b.git".into()),
                ("branch", "main".into())
            ])
        );
        let other = serde_json::json!({"name": "bitbench", "req": "*",
            "source": "registry+https://mirror.example.invalid/index"});
        assert_eq!(source(&other), None);
    }
}
