//! What the written gate needs to know of the program's crate: its package
//! and binary, where its workspace sits in the repository, the toolchain to
//! pin, whether it counts instructions, and the form of its dependency on
//! bitbench. Everything comes from the crate itself (`cargo metadata`, git,
//! the toolchain files), never from bitbench's repository, and whatever
//! would make the gate fail in CI is said here, before a file is written.

use crate::cmd::metadata;
use crate::entry::Origin;
use crate::error::Error;
use crate::revision;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The program's crate, as the gate sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// The package (`cargo build -p`).
    pub package: String,
    /// The binary (`--bin`).
    pub binary: String,
    /// The repository's root, where `.github/` is.
    pub repo: PathBuf,
    /// The workspace's root inside the repository, where the steps run:
    /// empty at the repository's root.
    pub dir: String,
    /// The toolchain the gate installs: an exact version where one is known.
    pub toolchain: String,
    /// Where that toolchain comes from, in words.
    pub toolchain_from: String,
    /// Whether the program has bitbench's `count` feature: the gate then
    /// judges instructions as well as answers and time.
    pub count: bool,
    /// How the package depends on bitbench, in words; `None` for bitbench
    /// itself.
    pub dependency: Option<String>,
}

/// The line for a program without `count`.
const WITHOUT_COUNT: &str = "this program was built without bitbench's `count` feature, so the \
     gate judges answers and paired time only, time deciding; for the exact instruction gate \
     add features = [\"count\"] to the bitbench dependency in Cargo.toml and run ci --init again";

impl Project {
    /// The crate `origin` was built from, read afresh, in the repository
    /// at `root` (default: the git repository it is in); the lines to say
    /// on stderr come back beside it (warnings start with `warning:`).
    pub fn read(
        origin: &Origin,
        command: &str,
        root: Option<&Path>,
    ) -> Result<(Project, Vec<String>), Error> {
        let manifest_dir = Path::new(origin.manifest_dir);
        let refuse = |why: String| Error::usage(format!("{command}: {why}"));
        let repo = match root {
            Some(root) => root
                .canonicalize()
                .map_err(|e| refuse(format!("--root {}: {e}", root.display())))?,
            None => git(manifest_dir, &["rev-parse", "--show-toplevel"])
                .map(PathBuf::from)
                .map_err(|_| {
                    refuse(format!(
                        "{} is not in a git repository, which the gate's `ab` builds revisions \
                         of (--root names a folder to write the gate for)",
                        manifest_dir.display()
                    ))
                })?,
        };
        let (package, workspace_root) = metadata::package(manifest_dir, origin.package, command)?;
        let has_binary = package["targets"].as_array().is_some_and(|targets| {
            targets.iter().any(|t| {
                t["name"] == origin.binary && t["kind"].as_array().is_some_and(|k| k[0] == "bin")
            })
        });
        if !has_binary {
            return Err(refuse(format!(
                "package '{}' has no binary '{}'",
                origin.package, origin.binary
            )));
        }
        let dir = inside(&repo, &workspace_root).ok_or_else(|| {
            refuse(format!(
                "the workspace at {} is not inside the repository at {}",
                workspace_root.display(),
                repo.display()
            ))
        })?;
        let mut notes = Vec::new();
        let count = cfg!(feature = "count");
        let dependency = if origin.package == env!("CARGO_PKG_NAME") {
            None
        } else {
            let dependency = metadata::bitbench_dependency(&package).ok_or_else(|| {
                refuse(format!(
                    "package '{}' has no dependency on bitbench",
                    origin.package
                ))
            })?;
            notes.extend(count_mismatch(&package, dependency, count));
            let (words, warning) = form(dependency, &repo);
            notes.extend(warning);
            Some(words)
        };
        if !count {
            notes.push(WITHOUT_COUNT.to_owned());
        }
        let (toolchain, toolchain_from) = toolchain(
            &workspace_root,
            &repo,
            package["rust_version"].as_str(),
            env!("BITBENCH_RUSTC"),
        );
        if !is_exact(&toolchain) {
            notes.push(format!(
                "warning: the toolchain '{toolchain}' ({toolchain_from}) is no exact version, so \
                 a new release can move the instruction counts by itself: pin one in \
                 rust-toolchain.toml"
            ));
        }
        let project = Project {
            package: origin.package.to_owned(),
            binary: origin.binary.to_owned(),
            repo,
            dir,
            toolchain,
            toolchain_from,
            count,
            dependency,
        };
        Ok((project, notes))
    }
}

/// `path` relative to `repo`, `/`-separated (empty when the same); `None`
/// when it is not inside.
fn inside(repo: &Path, path: &Path) -> Option<String> {
    let repo = repo.canonicalize().ok()?;
    let path = path.canonicalize().ok()?;
    let within = path.strip_prefix(&repo).ok()?;
    let parts: Vec<String> = within
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// The dependency's form in words, and a warning when CI cannot have it:
/// a path outside the repository or not in its commits (CI's checkout and
/// `ab`'s `git archive` of each revision hold only what git tracks).
fn form(dependency: &Value, repo: &Path) -> (String, Option<String>) {
    let keys = metadata::source(dependency).unwrap_or_default();
    let value = |key: &str| {
        keys.iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    };
    if let Some(url) = value("git") {
        return (format!("from git ({url})"), None);
    }
    if let Some(version) = value("version") {
        return (format!("from crates.io ({version})"), None);
    }
    let Some(path) = value("path") else {
        return ("from its registry".to_owned(), None);
    };
    let path = Path::new(path);
    let warning = match inside(repo, path) {
        None => Some(format!(
            "warning: bitbench is a path dependency outside this repository ({}), which CI's \
             checkout will not have: depend on it by git (git = \"…\") for the gate to build",
            path.display()
        )),
        Some(within) => {
            let manifest = if within.is_empty() {
                "Cargo.toml".to_owned()
            } else {
                format!("{within}/Cargo.toml")
            };
            git(repo, &["ls-files", "--error-unmatch", "--", &manifest])
                .is_err()
                .then(|| {
                    format!(
                        "warning: bitbench's path dependency {within} is not in this \
                         repository's commits (untracked, or a submodule), so neither CI's \
                         checkout nor `ab`'s export of a revision will have it"
                    )
                })
        }
    };
    ("by path".to_owned(), warning)
}

/// A warning when the package's default build and this program disagree
/// on bitbench's `count`: the gate builds the default, and follows this
/// program.
fn count_mismatch(package: &Value, dependency: &Value, count: bool) -> Option<String> {
    let by_default = revision::count_through(package, dependency) == revision::Count::Default;
    match (count, by_default) {
        (true, false) => Some(
            "warning: this program has bitbench's `count` feature, but its package's default \
             build, which the gate builds, does not: add features = [\"count\"] to the bitbench \
             dependency in Cargo.toml"
                .to_owned(),
        ),
        (false, true) => Some(
            "warning: the package's default build has bitbench's `count` feature, but this \
             program was built without it: run ci --init from a default build for the \
             instruction gate"
                .to_owned(),
        ),
        _ => None,
    }
}

/// The toolchain to pin and where it came from: the channel of a
/// `rust-toolchain.toml` (or `rust-toolchain`) that rustup would find from
/// the workspace's root up to the repository's (rustup would use it over
/// any other anyway), else the package's `rust-version` as an exact
/// version, else `rustc`, the one that built this program.
fn toolchain(
    workspace_root: &Path,
    repo: &Path,
    rust_version: Option<&str>,
    rustc: &str,
) -> (String, String) {
    for dir in workspace_root.ancestors() {
        for name in ["rust-toolchain.toml", "rust-toolchain"] {
            let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
                continue;
            };
            if let Some(channel) = channel(&text) {
                let at = inside(repo, &dir.join(name)).unwrap_or_else(|| name.to_owned());
                return (channel, format!("the channel of {at}"));
            }
        }
        if dir == repo {
            break;
        }
    }
    if let Some(version) = rust_version {
        let exact = if version.split('.').count() == 2 {
            format!("{version}.0")
        } else {
            version.to_owned()
        };
        return (exact, format!("the package's rust-version ({version})"));
    }
    let version = rustc.split_whitespace().nth(1).unwrap_or("stable");
    let channel = match version.split_once('-') {
        Some((_, pre)) => pre.split('.').next().unwrap_or("stable").to_owned(),
        None => version.to_owned(),
    };
    (
        channel,
        format!("the rustc that built this program ({rustc})"),
    )
}

/// The toolchain a toolchain file names: `channel = "…"` of a TOML one, or
/// the whole of a legacy one-line file.
fn channel(text: &str) -> Option<String> {
    if !text.contains("[toolchain]") {
        let line = text.trim();
        return (!line.is_empty() && !line.contains(char::is_whitespace)).then(|| line.to_owned());
    }
    text.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        (key.trim() == "channel").then(|| value.trim().trim_matches(['"', '\'']).to_owned())
    })
}

/// Whether `toolchain` is an exact release, `1.95.0`.
pub fn is_exact(toolchain: &str) -> bool {
    let parts: Vec<&str> = toolchain.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok())
}

/// `git ARGS` in `dir`: its trimmed stdout, or `Err` when it fails.
fn git(dir: &Path, args: &[&str]) -> Result<String, ()> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(drop)?;
    if !out.status.success() {
        return Err(());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_toolchain_comes_from_the_file_then_rust_version_then_rustc() {
        let root =
            std::env::temp_dir().join(format!("bitbench-ci-toolchain-{}", std::process::id()));
        let crate_dir = root.join("kernel");
        std::fs::create_dir_all(&crate_dir).unwrap();
        let rustc = "rustc 1.93.1 (01f6ddf75 2026-02-11)";
        assert_eq!(
            toolchain(&crate_dir, &root, Some("1.90"), rustc),
            (
                "1.90.0".to_owned(),
                "the package's rust-version (1.90)".to_owned()
            )
        );
        assert_eq!(toolchain(&crate_dir, &root, None, rustc).0, "1.93.1");
        let nightly = "rustc 1.97.0-nightly (abcdef012 2026-05-01)";
        assert_eq!(toolchain(&crate_dir, &root, None, nightly).0, "nightly");
        std::fs::write(
            root.join("rust-toolchain.toml"),
            "[toolchain]\nchannel = \"1.92.0\"\ncomponents = [\"rustfmt\"]\n",
        )
        .unwrap();
        assert_eq!(
            toolchain(&crate_dir, &root, Some("1.90"), rustc),
            (
                "1.92.0".to_owned(),
                "the channel of rust-toolchain.toml".to_owned()
            )
        );
        // The legacy file, nearer the workspace, is what rustup finds first.
        std::fs::write(crate_dir.join("rust-toolchain"), "1.91.1\n").unwrap();
        assert_eq!(
            toolchain(&crate_dir, &root, Some("1.90"), rustc),
            (
                "1.91.1".to_owned(),
                "the channel of kernel/rust-toolchain".to_owned()
            )
        );
        std::fs::remove_dir_all(&root).unwrap();
        assert!(is_exact("1.95.0") && !is_exact("1.95") && !is_exact("stable"));
    }

    #[test]
    fn count_is_found_through_the_packages_own_features() {
        let dependency = |defaults: bool, features: Value| {
            json!({"name": "bitbench", "rename": null, "uses_default_features": defaults,
                   "features": features})
        };
        let plain = json!({"features": {}});
        let off = dependency(false, json!([]));
        assert!(count_mismatch(&plain, &off, true).is_some());
        assert!(count_mismatch(&plain, &off, false).is_none());
        assert!(count_mismatch(&plain, &dependency(false, json!(["count"])), true).is_none());
        assert!(count_mismatch(&plain, &dependency(true, json!([])), true).is_none());
        // default = ["counts"], counts = ["bitbench?/count"]
        let chained = json!({"features": {"default": ["counts"], "counts": ["bitbench?/count"],
                             "loop": ["loop"]}});
        assert!(count_mismatch(&chained, &off, true).is_none());
        assert!(count_mismatch(&chained, &off, false).is_some());
        let looping = json!({"features": {"default": ["loop"], "loop": ["default"]}});
        assert!(count_mismatch(&looping, &off, true).is_some());
    }

    #[test]
    fn toolchain_files_name_their_channel() {
        assert_eq!(channel("1.91.0\n").as_deref(), Some("1.91.0"));
        assert_eq!(
            channel("[toolchain]\nchannel = 'nightly-2026-01-02'\n").as_deref(),
            Some("nightly-2026-01-02")
        );
        assert_eq!(channel("[toolchain]\ncomponents = [\"clippy\"]\n"), None);
        assert_eq!(channel("[toolchain]\n"), None);
        assert_eq!(channel(""), None);
    }
}
