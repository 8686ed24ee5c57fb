//! Every crate of the workspace packages as it would be published, offline:
//! `cargo package --workspace --offline --no-verify`, then each `.crate` is
//! opened and its manifest and file list checked as the registry, docs.rs
//! and a user would read them.
//!
//! `--no-verify` skips building each package from its tarball (a second
//! build of the workspace); the tarball's manifest is read back with
//! `cargo metadata`, which is what the registry keeps.

mod common;

use common::{root, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// crates.io's category slugs the workspace may use; a slug outside the
/// registry's list would be dropped with only a warning.
const CATEGORIES: &[&str] = &[
    "algorithms",
    "command-line-utilities",
    "development-tools::profiling",
    "development-tools::testing",
    "games",
    "visualization",
];

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Packages the whole workspace into a scratch target directory; returns
/// the directory holding the `.crate` files and cargo's own output.
fn package(scratch: &Path) -> (PathBuf, String) {
    let out = cargo()
        .args(["package", "--workspace", "--offline", "--no-verify"])
        // A checkout with work in progress packages what is on disk.
        .arg("--allow-dirty")
        .arg("--target-dir")
        .arg(scratch)
        .current_dir(root())
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "cargo package failed:\n{stderr}");
    (scratch.join("package"), stderr)
}

/// The files in a `.crate` (a gzipped tar with one top folder), relative
/// to that folder, after unpacking it into `into`.
fn unpack(krate: &Path, into: &Path) -> Vec<String> {
    let out = Command::new("tar")
        .arg("-xzvf")
        .arg(krate)
        .arg("-C")
        .arg(into)
        .output()
        .expect("tar runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('/').map(|(_, f)| f.to_owned()))
        .filter(|f| !f.is_empty() && !f.ends_with('/'))
        .collect();
    files.sort();
    files
}

/// `cargo metadata --no-deps` of the manifest at `manifest`: its packages.
fn packages(manifest: &Path) -> Vec<Value> {
    let out = cargo()
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .arg("--manifest-path")
        .arg(manifest)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: Value = serde_json::from_slice(&out.stdout).unwrap();
    metadata["packages"].as_array().unwrap().clone()
}

/// The workspace's members: each package's name and version, by name.
fn members() -> Vec<(String, String)> {
    let mut members: Vec<(String, String)> = packages(&root().join("Cargo.toml"))
        .iter()
        .map(|p| {
            let field = |f: &str| p[f].as_str().unwrap().to_owned();
            (field("name"), field("version"))
        })
        .collect();
    members.sort();
    members
}

/// The unpacked folder (and `.crate` stem) of a member.
fn versioned(members: &[(String, String)], name: &str) -> String {
    let (_, version) = members.iter().find(|(n, _)| n == name).expect("a member");
    format!("{name}-{version}")
}

/// What the registry, docs.rs and a reader need of one packaged manifest.
fn check_manifest(package: &Value, members: &[(String, String)]) {
    let name = package["name"].as_str().unwrap();
    let field = |f: &str| package[f].as_str().unwrap_or_default().to_owned();
    assert!(
        name == "bitbench" || name.starts_with("bitbench-"),
        "{name}"
    );
    // What the workspace says: each crate's version moves on its own.
    assert_eq!(
        format!("{name}-{}", field("version")),
        versioned(members, name)
    );
    assert!(field("description").len() > 20, "{name}: description");
    assert_eq!(field("license"), "MIT OR Apache-2.0", "{name}");
    assert_eq!(field("readme"), "README.md", "{name}");
    assert_eq!(field("rust_version"), "1.95", "{name}");
    assert_eq!(field("documentation"), format!("https://docs.rs/{name}"));
    let keywords = package["keywords"].as_array().unwrap();
    assert!((1..=5).contains(&keywords.len()), "{name}: {keywords:?}");
    for k in keywords {
        let k = k.as_str().unwrap();
        let valid = k.len() <= 20
            && k.starts_with(|c: char| c.is_ascii_alphabetic())
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        assert!(valid, "{name}: keyword {k:?}");
    }
    let categories = package["categories"].as_array().unwrap();
    assert!(!categories.is_empty(), "{name}: no categories");
    for c in categories {
        assert!(CATEGORIES.contains(&c.as_str().unwrap()), "{name}: {c}");
    }
    let docs_rs = &package["metadata"]["docs"]["rs"];
    assert_eq!(docs_rs["all-features"], true, "{name}: {docs_rs}");
    assert_eq!(
        docs_rs["rustdoc-args"],
        serde_json::json!(["--cfg", "docsrs"]),
        "{name}"
    );
    // The registry resolves by version: no path left, and our own crates
    // named by their published names.
    for dep in package["dependencies"].as_array().unwrap() {
        let dep_name = dep["name"].as_str().unwrap();
        assert!(dep["path"].is_null(), "{name} -> {dep_name}: a path");
        assert_ne!(dep["req"], "*", "{name} -> {dep_name}: no version");
        if let Some((_, version)) = members.iter().find(|(m, _)| m == dep_name) {
            assert_eq!(dep["req"], format!("^{version}"), "{name} -> {dep_name}");
        }
    }
}

#[test]
fn every_crate_packages_with_its_licences_readme_and_metadata() {
    let scratch = scratch("package");
    let (crates, log) = package(&scratch);
    let members = members();
    assert_eq!(members.len(), 6, "{members:?}");
    let root_licences = ["LICENSE-MIT", "LICENSE-APACHE"]
        .map(|f| std::fs::read(root().join(f)).unwrap_or_else(|e| panic!("{f} at the root: {e}")));
    let unpacked = scratch.join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    for (member, _) in &members {
        let stem = versioned(&members, member);
        let krate = crates.join(format!("{stem}.crate"));
        assert!(krate.is_file(), "{} missing:\n{log}", krate.display());
        let files = unpack(&krate, &unpacked);
        let dir = unpacked.join(&stem);
        for needed in [
            "Cargo.toml",
            "Cargo.toml.orig",
            "README.md",
            "LICENSE-MIT",
            "LICENSE-APACHE",
            "src/lib.rs",
        ] {
            assert!(
                files.iter().any(|f| f == needed),
                "{member} lacks {needed}: {files:?}"
            );
        }
        // The licences are the files, not links to them.
        for (file, text) in ["LICENSE-MIT", "LICENSE-APACHE"].iter().zip(&root_licences) {
            assert_eq!(
                &std::fs::read(dir.join(file)).unwrap(),
                text,
                "{member}: {file}"
            );
        }
        let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
        assert!(
            lib.contains("#![cfg_attr(docsrs, feature(doc_cfg))]"),
            "{member}: docs.rs would not label feature-gated items"
        );
        assert!(
            !files
                .iter()
                .any(|f| f.starts_with("target/") || f.ends_with(".crate")),
            "{member}: {files:?}"
        );
        check_manifest(&packages(&dir.join("Cargo.toml"))[0], &members);
    }

    // The report's font travels with its licence; the library's README is
    // the workspace's.
    let reports = unpacked.join(versioned(&members, "bitbench-reports"));
    assert!(reports.join("assets/DejaVuSans-LICENSE.txt").is_file());
    let readme = std::fs::read(
        unpacked
            .join(versioned(&members, "bitbench"))
            .join("README.md"),
    );
    let readme = readme.unwrap();
    assert_eq!(readme, std::fs::read(root().join("README.md")).unwrap());
    std::fs::remove_dir_all(&scratch).ok();
}
