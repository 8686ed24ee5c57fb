//! `fuzz --init`: writes a cargo-fuzz crate for the program's own crate,
//! one differential target per workload, each a `bitbench::fuzz::check`
//! call.
//!
//! A target names each workload from outside the crate that registers it,
//! so [`main!`](crate::main!) records the source text of every workload it
//! is given, and only a path through the crate's library will do. The
//! generated crate has a workspace of its own, so libFuzzer's build flags
//! never reach the user's builds, and a lock file that starts as the
//! crate's ([`lock`]).

use super::lock;
use crate::cmd::metadata::{self, source};
use crate::entry::Suite;
use crate::error::Error;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// The workloads as [`main!`](crate::main!) was given them, in order.
static PATHS: OnceLock<&'static [&'static str]> = OnceLock::new();

/// Records the source text of the workloads handed to the entry point
/// (`stringify!` of each argument of [`main!`](crate::main!)), which
/// `fuzz --init` writes into the targets. Not API: the macro calls it, as
/// `bitbench::record_paths`.
#[doc(hidden)]
pub fn record_paths(paths: &'static [&'static str]) {
    // A second call (a test calling `main` twice) records the same text.
    let _ = PATHS.set(paths);
}

/// Writes `fuzz/` beside the program's manifest, for `program` to run;
/// returns what it wrote.
pub(super) fn write(suite: &Suite, program: &str) -> Result<Written, Error> {
    let origin = suite.origin();
    let refuse = |why: String| Error::usage(format!("fuzz --init: {why}"));
    let Some(paths) = PATHS.get() else {
        return Err(refuse(
            "the workloads' paths are unknown: register them with bitbench::main!(...), \
             which records them, instead of calling bitbench::cli::main"
                .to_owned(),
        ));
    };
    let crate_dir = Path::new(origin.manifest_dir);
    let dir = crate_dir.join("fuzz");
    if dir.exists() {
        return Err(refuse(format!(
            "{} already exists; remove it to write a new one",
            dir.display()
        )));
    }
    let package = Package::read(crate_dir, origin.package)?;
    let Some(lib) = &package.lib else {
        return Err(refuse(format!(
            "package '{}' has no library target for the fuzz crate to depend on: \
             move the workloads into src/lib.rs",
            package.name
        )));
    };
    let mut targets = Vec::new();
    for (w, text) in suite.workloads().iter().zip(paths.iter()) {
        let name = w.name();
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(refuse(format!(
                "workload '{name}' cannot name a fuzz target: use letters, digits, '-' and '_'"
            )));
        }
        let path = library_path(text, lib).map_err(|why| {
            refuse(format!(
                "workload '{name}' is given to main! as `{text}`, {why}: pass its path in \
                 the library instead, as main!({lib}::{})",
                last_segment(text).unwrap_or("WORKLOAD")
            ))
        })?;
        targets.push((name.to_owned(), path));
    }

    let lock = scaffold(crate_dir, &dir, &package, program, &targets)?;
    Ok(Written {
        dir,
        targets: targets.into_iter().map(|(name, _)| name).collect(),
        lock,
    })
}

/// What `fuzz --init` wrote.
pub(super) struct Written {
    /// The fuzz crate's folder.
    pub dir: PathBuf,
    /// Its targets, one per workload.
    pub targets: Vec<String>,
    /// The crate's lock file it copied, if the crate has one.
    pub lock: Option<PathBuf>,
}

/// Writes the fuzz crate in `dir` for `package` (in `crate_dir`): its
/// manifest, its `.gitignore`, one source per target (a workload's name
/// and its path in the library) and the crate's lock file
/// ([`lock::copy`]), which it returns.
fn scaffold(
    crate_dir: &Path,
    dir: &Path,
    package: &Package,
    program: &str,
    targets: &[(String, String)],
) -> Result<Option<PathBuf>, Error> {
    let written = |e: std::io::Error| {
        Error::usage(format!("fuzz --init: cannot write {}: {e}", dir.display()))
    };
    std::fs::create_dir_all(dir.join("fuzz_targets")).map_err(written)?;
    std::fs::write(
        dir.join("Cargo.toml"),
        package.fuzz_manifest(dir, program, targets),
    )
    .map_err(written)?;
    std::fs::write(
        dir.join(".gitignore"),
        "target\ncorpus\nartifacts\ncoverage\n",
    )
    .map_err(written)?;
    for (name, path) in targets {
        std::fs::write(
            dir.join("fuzz_targets")
                .join(format!("{}.rs", file_stem(name))),
            target_source(name, path),
        )
        .map_err(written)?;
    }
    lock::copy(crate_dir, &package.workspace_root, dir)
}

/// A target's file name: the workload's name as a Rust file stem.
fn file_stem(name: &str) -> String {
    name.replace('-', "_")
}

/// A target's whole source.
fn target_source(name: &str, path: &str) -> String {
    format!(
        "//! Differential target `{name}`: every variant of `{path}` against its oracle,\n\
         //! on inputs decoded from the fuzzer's bytes (see `bitbench::fuzz`).\n\
         #![no_main]\n\n\
         libfuzzer_sys::fuzz_target!(|bytes: &[u8]| bitbench::fuzz::check(&{path}, bytes));\n"
    )
}

/// `text` (as `main!` was given it) as a path the fuzz crate can name: one
/// starting with the library's crate name. `Err` says what it is instead.
fn library_path(text: &str, lib: &str) -> Result<String, &'static str> {
    let path: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let path = path.strip_prefix("::").unwrap_or(&path);
    let segments: Vec<&str> = path.split("::").collect();
    if !segments.iter().all(|s| is_identifier(s)) {
        return Err("an expression rather than a path");
    }
    if segments.len() < 2 || segments[0] != lib {
        return Err("a path the fuzz crate cannot name");
    }
    Ok(path.to_owned())
}

fn is_identifier(s: &str) -> bool {
    let s = s.strip_prefix("r#").unwrap_or(s);
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "_"
}

/// The last `::` segment of a path, for the message's example.
fn last_segment(text: &str) -> Option<&str> {
    let last = text.rsplit("::").next()?.trim();
    is_identifier(last).then_some(last)
}

/// What the fuzz crate needs to know of the user's package, from `cargo
/// metadata`.
struct Package {
    name: String,
    /// The library target's crate name, if there is one.
    lib: Option<String>,
    /// The package has a `fuzz` feature (forwarding `bitbench/fuzz`, for a
    /// decoder of its own), which the fuzz crate turns on.
    has_fuzz_feature: bool,
    /// How the package depends on bitbench, as a dependency table's keys.
    bitbench: Vec<(&'static str, String)>,
    /// Its `rust-version`, which the fuzz crate's resolver honours too.
    rust_version: Option<String>,
    /// Its workspace's root folder, where a member's lock file is.
    workspace_root: PathBuf,
}

impl Package {
    fn read(crate_dir: &Path, name: &str) -> Result<Package, Error> {
        let (package, workspace_root) = metadata::package(crate_dir, name, "fuzz --init")?;
        Package::from_metadata(&package, workspace_root)
    }

    fn from_metadata(package: &Value, workspace_root: PathBuf) -> Result<Package, Error> {
        let name = package["name"].as_str().unwrap_or_default().to_owned();
        let lib = package["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "lib" || k == "rlib"))
            })
            .and_then(|t| t["name"].as_str())
            .map(|n| n.replace('-', "_"));
        let has_fuzz_feature = package["features"].get("fuzz").is_some();
        let dependency = metadata::bitbench_dependency(package).ok_or_else(|| {
            Error::usage(format!(
                "fuzz --init: package '{name}' has no dependency on bitbench"
            ))
        })?;
        Ok(Package {
            bitbench: source(dependency).ok_or_else(|| {
                Error::usage(format!(
                    "fuzz --init: package '{name}' depends on bitbench from {}, which the \
                     fuzz crate cannot copy: depend on it by path, version or git",
                    dependency["source"]
                ))
            })?,
            rust_version: package["rust_version"].as_str().map(str::to_owned),
            name,
            lib,
            has_fuzz_feature,
            workspace_root,
        })
    }

    /// The fuzz crate's `Cargo.toml`, written in `dir`.
    fn fuzz_manifest(&self, dir: &Path, program: &str, targets: &[(String, String)]) -> String {
        let mut bitbench: Vec<String> = self
            .bitbench
            .iter()
            .map(|(key, value)| match *key {
                "path" => format!("path = {:?}", relative(dir, Path::new(value))),
                _ => format!("{key} = {value:?}"),
            })
            .collect();
        bitbench.push("default-features = false".into());
        bitbench.push(r#"features = ["fuzz"]"#.into());
        let parent = relative(dir, dir.parent().unwrap_or(dir));
        let features = if self.has_fuzz_feature {
            r#", features = ["fuzz"]"#
        } else {
            ""
        };
        let rust_version = self
            .rust_version
            .as_ref()
            .map_or_else(String::new, |v| format!("rust-version = {v:?}\n"));
        let mut text = format!(
            "# Differential cargo-fuzz targets for {name}: every variant of each workload\n\
             # against its oracle (`bitbench::fuzz::check`). Its own workspace, so\n\
             # libFuzzer's build flags stay out of the main build. Run from here with\n\
             #   cargo fuzz run -s none TARGET\n\
             # or through the program: `{program} fuzz [TARGET...] [--seconds N]`.\n\
             [package]\n\
             name = \"{name}-fuzz\"\n\
             version = \"0.0.0\"\n\
             publish = false\n\
             # `fuzz --init` copied {name}'s Cargo.lock here (where it had one), so\n\
             # the dependencies they share build at its versions. Edition 2024\n\
             # implies resolver 3, which picks the others at versions that the\n\
             # rust-version (copied from {name}'s; without one, the toolchain's) allows.\n\
             edition = \"2024\"\n\
             {rust_version}\n\
             [package.metadata]\n\
             cargo-fuzz = true\n\n\
             [dependencies]\n\
             libfuzzer-sys = \"0.4\"\n\
             bitbench = {{ {bitbench} }}\n\
             {name} = {{ path = {parent:?}{features} }}\n\n\
             [workspace]\n\
             members = [\".\"]\n\n\
             # Line tables make libFuzzer's stack traces readable.\n\
             [profile.release]\n\
             debug = \"line-tables-only\"\n",
            name = self.name,
            bitbench = bitbench.join(", "),
        );
        for (target, _) in targets {
            write!(
                text,
                "\n[[bin]]\nname = \"{target}\"\npath = \"fuzz_targets/{}.rs\"\n\
                 test = false\ndoc = false\nbench = false\n",
                file_stem(target)
            )
            .expect("writing to a String");
        }
        text
    }
}

/// `to` relative to the directory `from`, both absolute: `..` up to their
/// common ancestor, then down.
fn relative(from: &Path, to: &Path) -> String {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path = PathBuf::new();
    for _ in common..from.len() {
        path.push("..");
    }
    for c in &to[common..] {
        path.push(c);
    }
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_through_the_library_are_taken() {
        assert_eq!(
            library_path("toy_kernel::PARITY", "toy_kernel"),
            Ok("toy_kernel::PARITY".to_owned())
        );
        assert_eq!(
            library_path(":: toy_kernel :: adapters :: Parity", "toy_kernel"),
            Ok("toy_kernel::adapters::Parity".to_owned())
        );
        for (text, why) in [
            ("PARITY", "a path the fuzz crate cannot name"),
            ("crate::PARITY", "a path the fuzz crate cannot name"),
            ("other::PARITY", "a path the fuzz crate cannot name"),
            ("Parity { name: \"p\" }", "an expression rather than a path"),
            ("toy_kernel::parity()", "an expression rather than a path"),
        ] {
            assert_eq!(library_path(text, "toy_kernel"), Err(why), "{text}");
        }
        assert_eq!(last_segment("toy_kernel::PARITY"), Some("PARITY"));
        assert_eq!(last_segment("Parity { name: \"p\" }"), None);
    }

    #[test]
    fn relative_paths_climb_to_the_common_ancestor() {
        assert_eq!(relative(Path::new("/a/b/fuzz"), Path::new("/a/b")), "..");
        assert_eq!(
            relative(Path::new("/tmp/toy/fuzz"), Path::new("/work/x/harness")),
            "../../../work/x/harness"
        );
    }

    #[test]
    fn a_package_without_a_library_has_no_crate_to_name() {
        let package = |kinds: serde_json::Value| {
            serde_json::json!({"name": "toy-kernel", "features": {"fuzz": []},
                "targets": [{"name": "toy-kernel", "kind": kinds}],
                "dependencies": [{"name": "bitbench", "kind": null, "req": "^0.1",
                    "source": "registry+https://github.com/rust-lang/crates.io-index"}]})
        };
        let bin_only =
            Package::from_metadata(&package(serde_json::json!(["bin"])), "/w".into()).unwrap();
        assert_eq!(bin_only.lib, None);
        let lib =
            Package::from_metadata(&package(serde_json::json!(["lib"])), "/w".into()).unwrap();
        assert_eq!(lib.lib.as_deref(), Some("toy_kernel"));
        assert!(lib.has_fuzz_feature);
    }

    /// A user's workspace lock file, written by hand: packages at versions
    /// older than the registry's newest, which the fuzz crate must keep.
    const LOCK: &str = r#"version = 4

[[package]]
name = "bitbench"
version = "0.1.0"
dependencies = [
 "serde",
]

[[package]]
name = "cc"
version = "1.0.83"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "f1174fb0b6ec23863f8b0aeebc2e4b8c6c6f6e0a0d8c5f0e0d3b3b0b8c6f1a2b"

[[package]]
name = "kernel"
version = "0.2.0"
dependencies = [
 "bitbench",
 "cc",
]

[[package]]
name = "serde"
version = "1.0.100"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "0d4a1c8b1c2b8f1e7c0c5a3c4e2f1d9b8a7c6e5f4d3c2b1a0f9e8d7c6b5a4f3e"
"#;

    /// Each package's name and version in a lock file.
    fn versions(lock: &Path) -> Vec<(String, String)> {
        let text = std::fs::read_to_string(lock).expect("the lock file");
        let field = |package: &str, key: &str| {
            let prefix = format!("{key} = \"");
            package
                .lines()
                .find_map(|l| l.strip_prefix(&prefix)?.strip_suffix('"'))
                .expect("a name and a version")
                .to_owned()
        };
        text.split("[[package]]")
            .skip(1)
            .map(|p| (field(p, "name"), field(p, "version")))
            .collect()
    }

    /// The fuzz crate of `kernel`, a member of a workspace whose lock file
    /// (at the root, as cargo keeps it) pins `cc` below its newest: through
    /// `cargo metadata` (`--no-deps`: nothing resolved, no network), as
    /// `fuzz --init` reads the package.
    #[test]
    fn the_fuzz_crate_keeps_the_workspaces_versions_and_rust_version() {
        let root = std::env::temp_dir().join(format!("bitbench-fuzz-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let kernel = root.join("kernel");
        std::fs::create_dir_all(kernel.join("src")).unwrap();
        std::fs::write(
            root.join("Cargo.toml"),
            "[workspace]\nmembers = [\"kernel\"]\n",
        )
        .unwrap();
        std::fs::write(root.join("Cargo.lock"), LOCK).unwrap();
        let manifest = format!(
            "[package]\nname = \"kernel\"\nversion = \"0.2.0\"\nedition = \"2024\"\n\
             rust-version = \"1.90\"\n\n[dependencies]\n\
             bitbench = {{ path = {:?}, default-features = false }}\n",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::write(kernel.join("Cargo.toml"), manifest).unwrap();
        std::fs::write(kernel.join("src/lib.rs"), "").unwrap();

        let package = Package::read(&kernel, "kernel").unwrap();
        let fuzz = kernel.join("fuzz");
        let targets = [("parity".to_owned(), "kernel::PARITY".to_owned())];
        let lock = scaffold(&kernel, &fuzz, &package, "kernel", &targets).unwrap();
        assert_eq!(lock, Some(root.join("Cargo.lock")));
        let pinned = versions(&fuzz.join("Cargo.lock"));
        let cc = ("cc".to_owned(), "1.0.83".to_owned());
        assert!(pinned.contains(&cc), "{pinned:?}");
        assert_eq!(pinned, versions(&root.join("Cargo.lock")));
        let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("\nedition = \"2024\"\nrust-version = \"1.90\"\n"),
            "{manifest}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
