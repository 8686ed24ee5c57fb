//! The structure every crate of the workspace keeps, checked from its
//! sources: the harness, reports and each kernel crate.
//!
//! - No import circle, between files ([`imports::edges`]) or between
//!   top-level modules ([`imports::top_level`]).
//! - No file over [`FILE_LIMIT`] lines, no function outside tests over
//!   [`FUNCTION_LIMIT`] (counted as [`lengths`] says), but for the few in
//!   [`LONG_FUNCTIONS`], each with its reason.
//! - In the harness, the engines stand on the vocabulary and never import
//!   the layers above them, and nothing but the command line and the
//!   commands imports a command.
//! - `docs/the-code.md` shows the harness's floors as they are.
//!
//! Planted trees check that each rule sees its violation.

mod floors;
mod imports;
mod lengths;

use imports::{Edges, edges, no_cycle, top_level};
use std::path::{Path, PathBuf};

/// Lines a source file may have.
const FILE_LIMIT: usize = 800;

/// Lines a function outside tests may have.
const FUNCTION_LIMIT: usize = 100;

/// Functions allowed over [`FUNCTION_LIMIT`] (`FILE: Type::function`), each
/// with the reason it reads better whole.
const LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// The `src` folders checked: the harness's, the reports crate's and each
/// kernel crate's, those that are here (a packaged crate has only its own).
fn crates() -> Vec<PathBuf> {
    let root = root();
    let mut dirs = vec![root.join("harness/src"), root.join("reports/src")];
    if let Ok(kernels) = std::fs::read_dir(root.join("impls")) {
        let mut kernels: Vec<PathBuf> = kernels.map(|e| e.unwrap().path().join("src")).collect();
        kernels.sort();
        dirs.extend(kernels);
    }
    dirs.retain(|d| d.is_dir());
    dirs
}

/// What breaks the structure in the crate whose sources are in `src`: a
/// circle between files or between top-level modules, a file or a
/// function (not in `allowed`) over its limit.
fn violations(root: &Path, src: &Path, allowed: &[(&str, &str)]) -> Vec<String> {
    let edges = edges(src);
    let mut found: Vec<String> = [no_cycle(&edges), no_cycle(&top_level(&edges))]
        .into_iter()
        .filter_map(Result::err)
        .collect();
    for (file, lines) in lengths::long_files(root, src, FILE_LIMIT) {
        found.push(format!("{file}: {lines} lines, over {FILE_LIMIT}"));
    }
    for (function, lines) in lengths::long_functions(root, src, FUNCTION_LIMIT) {
        if !allowed.iter().any(|(name, _)| *name == function) {
            found.push(format!("{function}: {lines} lines, over {FUNCTION_LIMIT}"));
        }
    }
    found
}

/// The harness's layering: the engines (and the vocabulary and the low
/// half of isolation they stand on) import neither the type-erased
/// workload, nor the runner that isolates them, nor the command line, nor
/// a command; and only the command line and the commands import a
/// command (what two commands share lives outside `cmd`).
fn layering(edges: &Edges) -> Vec<String> {
    let mut found = Vec::new();
    let engines = ["engine", "workload", "fault"];
    let above = ["dyn_workload", "isolated", "cmd", "cli", "entry"];
    for (module, targets) in edges {
        let top = module.split("::").next().unwrap();
        for target in targets {
            let target_top = target.split("::").next().unwrap();
            if engines.contains(&top) && above.contains(&target_top) {
                found.push(format!("{module} imports {target}, above it"));
            } else if target_top == "cmd" && top != "cmd" && top != "cli" {
                found.push(format!("{module} imports the command {target}"));
            }
        }
    }
    found
}

#[test]
fn every_crate_keeps_its_structure() {
    let root = root();
    let crates = crates();
    assert!(crates.len() >= 6, "{crates:?}");
    let found: Vec<String> = crates
        .iter()
        .flat_map(|src| violations(&root, src, LONG_FUNCTIONS))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_harness_engines_stand_below_what_runs_them() {
    let edges = edges(&root().join("harness/src"));
    assert!(edges.len() > 20, "{edges:?}");
    let found = layering(&edges);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_allowed_long_function_is_still_long() {
    let root = root();
    let long: Vec<String> = crates()
        .iter()
        .flat_map(|src| lengths::long_functions(&root, src, FUNCTION_LIMIT))
        .map(|(f, _)| f)
        .collect();
    for (function, reason) in LONG_FUNCTIONS {
        assert!(!reason.is_empty(), "{function}: give the reason");
        assert!(
            long.contains(&function.to_string()),
            "{function} is no longer over the limit: take it off the list"
        );
    }
}

/// The picture between the page's markers is the one the code draws now.
#[test]
fn the_code_page_shows_the_harness_floors() {
    let src = root().join("harness/src");
    let tops = top_level(&edges(&src));
    // A circle has no floors (and would recurse without end): name it.
    if let Err(circle) = no_cycle(&tops) {
        panic!("{circle}");
    }
    let picture = floors::picture(&src, &tops);
    let page = std::fs::read_to_string(root().join("docs/the-code.md")).unwrap();
    let (start, end) = (
        "<!-- floors: begin -->\n```text\n",
        "```\n<!-- floors: end -->",
    );
    let shown = page
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(shown, _)| shown)
        .expect("docs/the-code.md has the floors' markers");
    assert_eq!(
        shown, picture,
        "docs/the-code.md: put this picture between the markers:\n{picture}"
    );
}

/// Writes `files` (path under `src/`, text) into a fresh directory and
/// returns its `src`.
fn plant(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "bitbench-module-graph-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    let src = root.join("src");
    for (path, text) in files {
        let file = src.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    src
}

/// The shape the real crate once had: `a` (a mod.rs) declares `mod build;`
/// and uses it by its bare name, `build` takes a helper from a command
/// module, and that command module imports `a`.
const PLANTED: &[(&str, &str)] = &[
    ("lib.rs", "mod a;\nmod cmd;\n"),
    ("a/mod.rs", "mod build;\nuse build::x;\n\npub fn y() {}\n"),
    (
        "a/build.rs",
        "use crate::cmd::m::helper;\n\npub fn x() {}\n",
    ),
    ("cmd/mod.rs", "pub mod m;\n"),
    ("cmd/m.rs", "use crate::a::y;\n\npub fn helper() {}\n"),
];

#[test]
fn a_cycle_through_a_child_used_by_its_bare_name_is_found() {
    let src = plant("child", PLANTED);
    let edges = edges(&src);
    std::fs::remove_dir_all(src.parent().unwrap()).unwrap();
    assert_eq!(edges["a"], ["a::build"], "{edges:?}");
    assert_eq!(
        no_cycle(&edges),
        Err("import cycle: a -> a::build -> cmd::m -> a".to_owned())
    );
}

#[test]
fn a_cycle_through_self_and_a_pub_child_is_found() {
    let mut files = PLANTED.to_vec();
    files[1] = (
        "a/mod.rs",
        "pub(crate) mod build;\n\npub fn y() {\n    self::build::x();\n}\n",
    );
    let src = plant("self", &files);
    let edges = edges(&src);
    std::fs::remove_dir_all(src.parent().unwrap()).unwrap();
    assert_eq!(edges["a"], ["a::build"], "{edges:?}");
    assert!(no_cycle(&edges).is_err(), "{edges:?}");
}

#[test]
fn the_planted_tree_without_the_back_edge_has_no_cycle() {
    let mut files = PLANTED.to_vec();
    // A commented-out import is no edge; nor is another crate's path that
    // merely ends in the name of a child declared here (`other::m::…`).
    files[3] = (
        "cmd/mod.rs",
        "pub mod m;\n\npub fn f() {\n    let _ = other::m::z;\n}\n",
    );
    files[4] = ("cmd/m.rs", "// use crate::a::y;\npub fn helper() {}\n");
    let src = plant("acyclic", &files);
    let edges = edges(&src);
    std::fs::remove_dir_all(src.parent().unwrap()).unwrap();
    assert!(edges["cmd"].is_empty(), "{edges:?}");
    assert!(edges["cmd::m"].is_empty(), "{edges:?}");
    assert_eq!(no_cycle(&edges), Ok(()));
}

#[test]
fn a_circle_between_top_level_modules_is_found() {
    // No two files import each other, but `a` and `b` do.
    let src = plant(
        "tops",
        &[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a/mod.rs", "mod x;\n"),
            ("a/x.rs", "use crate::b::y;\n"),
            ("b/mod.rs", "mod y;\n"),
            ("b/y.rs", "use crate::a::z;\n"),
            ("a/z.rs", ""),
        ],
    );
    let edges = edges(&src);
    std::fs::remove_dir_all(src.parent().unwrap()).unwrap();
    assert_eq!(no_cycle(&edges), Ok(()));
    assert_eq!(
        no_cycle(&top_level(&edges)),
        Err("import cycle: a -> b -> a".to_owned())
    );
}

#[test]
fn a_long_file_and_a_long_function_are_found_and_tests_are_not() {
    let body = |n: usize| "    let _ = 1;\n".repeat(n);
    let long_fn = format!("fn long() {{\n{}}}\n", body(99));
    let short_fn = format!("fn short() {{\n{}}}\n", body(98));
    let in_tests = format!(
        "#[cfg(test)]\nmod tests {{\n    fn helper() {{\n{}    }}\n}}\n",
        body(200)
    );
    let long_file = "// a line\n".repeat(801);
    let src = plant(
        "lengths",
        &[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", &format!("{long_fn}{short_fn}{in_tests}")),
            ("b.rs", &long_file),
        ],
    );
    let root = src.parent().unwrap().to_owned();
    let found = violations(&root, &src, &[]);
    let allowed = violations(&root, &src, &[("src/a.rs: long", "planted")]);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(
        found,
        [
            "src/b.rs: 801 lines, over 800",
            "src/a.rs: long: 101 lines, over 100"
        ]
    );
    assert_eq!(allowed, ["src/b.rs: 801 lines, over 800"]);
}

#[test]
fn an_engine_importing_a_command_is_found() {
    let src = plant(
        "layers",
        &[
            ("lib.rs", "mod engine;\nmod cmd;\nmod grid;\n"),
            ("engine/mod.rs", "mod bench;\n"),
            ("engine/bench.rs", "use crate::cmd::table::time;\n"),
            ("cmd/mod.rs", "pub mod table;\n"),
            ("cmd/table.rs", "use crate::grid::x;\n"),
            ("grid.rs", "use crate::cmd::table::y;\n"),
        ],
    );
    let edges = edges(&src);
    std::fs::remove_dir_all(src.parent().unwrap()).unwrap();
    assert_eq!(
        layering(&edges),
        [
            "engine::bench imports cmd::table, above it",
            "grid imports the command cmd::table"
        ]
    );
}
