//! The documented surface is the curated one: bitbench's docs (`cargo doc
//! --no-deps`, default features) list exactly these items outside the
//! built-in suite, and nothing of the engines, the commands or the
//! internal macros. The list is read from the generated `all.html`.
//!
//! The same doc build covers every crate of the workspace with rustdoc's
//! warnings denied (`RUSTDOCFLAGS=-D warnings`), so a broken intra-doc link
//! or a public doc linking a private item fails the tests. The other
//! crates cost about a second more: their dependencies are bitbench's.

use std::path::Path;
use std::process::Command;

/// Every documented item outside `builtin`, as `all.html` names them.
const CURATED: &[&str] = &[
    "CountingAlloc",
    "DynWorkload",
    "Error",
    "InputSet",
    "Meaning",
    "Member",
    "Origin",
    "Shrink",
    "Solve",
    "Suite",
    "SuiteError",
    "VariantInfo",
    "Workload",
    "builtin",
    "cli",
    "cli::main",
    "dispatch",
    "dispatch::Level",
    "dispatch::Range",
    "dispatch::Table",
    "dispatch::Tier",
    "main",
    "origin",
    "prepared",
];

#[test]
fn the_docs_list_only_the_curated_items() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace.join("target"), Into::into);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // Any flags already given are kept; rustdoc's warnings become errors.
    let mut rustdocflags = std::env::var("RUSTDOCFLAGS").unwrap_or_default();
    rustdocflags.push_str(" -D warnings");
    let out = Command::new(cargo)
        .args(["doc", "--no-deps", "--release", "--offline", "--workspace"])
        .current_dir(&workspace)
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTDOCFLAGS", rustdocflags.trim())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo doc failed (rustdoc warnings are errors here):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let index = std::fs::read_to_string(target.join("doc/bitbench/all.html")).expect("all.html");
    // Each item is a link whose text is its path: `Workload`, `cli::main`.
    let item =
        regex::Regex::new(r#"<a href="[A-Za-z0-9_/.]+\.html">([A-Za-z0-9_:]+)</a>"#).unwrap();
    let mut items: Vec<String> = item
        .captures_iter(&index)
        .map(|c| c[1].to_owned())
        .filter(|i| i != "bitbench") // the crate's own page
        .collect();
    // Modules are listed in all.html only through their items: add them.
    for module in ["builtin", "cli", "dispatch"] {
        if items.iter().any(|i| i.starts_with(&format!("{module}::"))) {
            items.push(module.to_owned());
        }
    }
    items.sort();
    items.dedup();
    let outside_suite: Vec<&str> = items
        .iter()
        .map(String::as_str)
        .filter(|i| !i.starts_with("builtin::"))
        .collect();
    let mut curated = CURATED.to_vec();
    curated.sort();
    assert_eq!(outside_suite, curated, "all items: {items:?}");
}
