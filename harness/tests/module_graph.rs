//! No import cycles among the library's modules: every path in `src/`
//! (comments aside, tests included) that starts at `crate::`, `super::`,
//! `self::` or a child module the file declares (`mod build;` then
//! `use build::…` or `build::item`) is an edge from the file's module to the
//! longest module the path names (each of `a::{b, c}`), and the graph must
//! have no cycle. Engines import the vocabulary (`workload`, `verify`),
//! never the type-erased layer or the commands that call them, and nothing
//! but the command line and the commands imports a command. Planted trees
//! check that the detector sees a cycle through a child declared that way.

use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `a::b` for `src/a/b.rs` and `src/a/b/mod.rs`; the crate root is left out
/// (it only declares and re-exports).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    (parts != ["lib"] && parts != ["main"]).then(|| parts.join("::"))
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// Each module's imports of other modules, for the crate whose sources are
/// in `src`.
fn edges(src: &Path) -> BTreeMap<String, Vec<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .into_iter()
        .filter_map(|f| Some((module_of(src, &f)?, f)))
        .collect();
    // `mod NAME;` (any visibility): a child module in its own file.
    let child =
        Regex::new(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+([A-Za-z0-9_]+)[ \t]*;")
            .unwrap();
    let mut edges = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        let code: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        let code = code.join("\n");
        let children: Vec<&str> = child
            .captures_iter(&code)
            .map(|c| c.get(1).unwrap().as_str())
            .collect();
        let starts = ["crate", "super", "self"]
            .iter()
            .chain(&children)
            .copied()
            .collect::<Vec<_>>()
            .join("|");
        // Not after `::` (`reports::compare::…` is not a child `compare`)
        // nor `$` (`$crate::` belongs to the macro's caller).
        let path = Regex::new(&format!(
            r"(?:^|[^$A-Za-z0-9_:])({starts})::([A-Za-z0-9_:]*(?:\{{[^}}]*\}})?)"
        ))
        .unwrap();
        let here: Vec<&str> = module.split("::").collect();
        let mut targets: Vec<String> = Vec::new();
        for m in path.captures_iter(&code) {
            let base: Vec<&str> = match &m[1] {
                "crate" => Vec::new(),
                // `super` of `a::b` (a file) is `a`; of `a` (a mod.rs) the root.
                "super" => here[..here.len() - 1].to_vec(),
                "self" => here.clone(),
                // A child declared here: `a::b::build` for `build` in `a::b`.
                name => here.iter().copied().chain([name]).collect(),
            };
            // `a::b`, or `a::{b, c as d, self}`: `a::b`, `a::c`, `a`.
            let items: Vec<String> = match m[2].split_once('{') {
                Some((head, list)) => list
                    .trim_end_matches('}')
                    .split(',')
                    .map(|item| {
                        let item = item.split(" as ").next().unwrap().trim();
                        match item {
                            "self" => head.to_owned(),
                            _ => format!("{head}{item}"),
                        }
                    })
                    .collect(),
                None => vec![m[2].to_owned()],
            };
            for item in &items {
                let item = item.trim_end_matches(':');
                let full: Vec<&str> = base.iter().copied().chain(item.split("::")).collect();
                let target = (1..=full.len())
                    .rev()
                    .map(|k| full[..k].join("::"))
                    .find(|m| modules.contains_key(m));
                if let Some(t) = target {
                    let nested = module.starts_with(&format!("{t}::"));
                    if t != *module && !nested && !targets.contains(&t) {
                        targets.push(t);
                    }
                }
            }
        }
        edges.insert(module.clone(), targets);
    }
    edges
}

/// A cycle through `from`, as the list of modules on it.
fn cycle_from(edges: &BTreeMap<String, Vec<String>>, from: &str) -> Option<Vec<String>> {
    fn walk(
        edges: &BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        let here = path.last().unwrap().clone();
        for next in &edges[&here] {
            if let Some(i) = path.iter().position(|m| m == next) {
                return Some(path[i..].to_vec());
            }
            if done.contains(next) {
                continue;
            }
            path.push(next.clone());
            if let Some(c) = walk(edges, path, done) {
                return Some(c);
            }
            path.pop();
        }
        done.push(here);
        None
    }
    walk(edges, &mut vec![from.to_owned()], &mut Vec::new())
}

/// `Err` naming an import cycle, when there is one.
fn no_cycle(edges: &BTreeMap<String, Vec<String>>) -> Result<(), String> {
    for module in edges.keys() {
        if let Some(cycle) = cycle_from(edges, module) {
            return Err(format!(
                "import cycle: {} -> {}",
                cycle.join(" -> "),
                cycle[0]
            ));
        }
    }
    Ok(())
}

#[test]
fn the_library_modules_import_each_other_without_cycles() {
    let edges = edges(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(edges.len() > 20, "{edges:?}");
    // The engines stand on the vocabulary, never on the layers above them.
    for engine in ["batch", "bench", "check", "verify", "solve", "workload"] {
        for above in ["erased", "cmd", "cli", "entry"] {
            assert!(
                !edges[engine]
                    .iter()
                    .any(|t| t == above || t.starts_with(&format!("{above}::"))),
                "{engine} imports {above}: {:?}",
                edges[engine]
            );
        }
    }
    // Only the command line and the commands themselves import commands:
    // what two commands share lives outside `cmd` (building revisions is
    // `revision`'s). `cmd::table` is the commands' own table formatter,
    // not a command; `setup` borrows its number format.
    for (module, targets) in &edges {
        if module == "cli" || module.starts_with("cmd::") {
            continue;
        }
        for target in targets {
            let command = target.starts_with("cmd::") || target == "cmd";
            let known = module == "setup" && target == "cmd::table";
            assert!(!command || known, "{module} imports {target}");
        }
    }
    if let Err(cycle) = no_cycle(&edges) {
        panic!("{cycle}");
    }
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
