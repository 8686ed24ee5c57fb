//! No import cycles among the library's modules: every `crate::` and
//! `super::` path in `src/` (comments aside, tests included) is an edge from
//! the file's module to the longest module the path names, and the graph
//! must have no cycle. Engines import the vocabulary (`workload`, `verify`),
//! never the type-erased layer or the commands that call them.

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

/// Each module's imports of other modules.
fn edges() -> BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .into_iter()
        .filter_map(|f| Some((module_of(&src, &f)?, f)))
        .collect();
    let path =
        Regex::new(r"(?:^|[^$A-Za-z0-9_])(crate|super)::(\{[^}]*\}|[A-Za-z0-9_:]+)").unwrap();
    let mut edges = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        let code: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        let mut targets: Vec<String> = Vec::new();
        for m in path.captures_iter(&code.join("\n")) {
            let base: Vec<&str> = match &m[1] {
                "crate" => Vec::new(),
                // `super` of `a::b` (a file) is `a`; of `a` (a mod.rs) the root.
                _ => {
                    let mut parts: Vec<&str> = module.split("::").collect();
                    parts.pop();
                    parts
                }
            };
            let rest = &m[2];
            let items: Vec<&str> = match rest.strip_prefix('{') {
                Some(list) => list.trim_end_matches('}').split(',').collect(),
                None => vec![rest],
            };
            for item in items {
                let item = item
                    .split(" as ")
                    .next()
                    .unwrap()
                    .trim()
                    .trim_end_matches(':');
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

#[test]
fn the_library_modules_import_each_other_without_cycles() {
    let edges = edges();
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
    for module in edges.keys() {
        if let Some(cycle) = cycle_from(&edges, module) {
            panic!("import cycle: {} -> {}", cycle.join(" -> "), cycle[0]);
        }
    }
}
