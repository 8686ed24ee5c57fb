//! Who imports whom, read from the sources: every path in `src/`
//! (comments aside, tests included) that starts at `crate::`, `super::`,
//! `self::` or a child module the file declares (`mod build;` then
//! `use build::…` or `build::item`) is an edge from the file's module to
//! the longest module the path names (each of `a::{b, c}`).

use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each module's imports of other modules.
pub type Edges = BTreeMap<String, Vec<String>>;

/// `a::b` for `src/a/b.rs` and `src/a/b/mod.rs`; the crate root is left out
/// (it only declares and re-exports).
pub fn module_of(src: &Path, file: &Path) -> Option<String> {
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

pub fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
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
pub fn edges(src: &Path) -> Edges {
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
fn cycle_from(edges: &Edges, from: &str) -> Option<Vec<String>> {
    fn walk(edges: &Edges, path: &mut Vec<String>, done: &mut Vec<String>) -> Option<Vec<String>> {
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
pub fn no_cycle(edges: &Edges) -> Result<(), String> {
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

/// The same imports between top-level modules: `a::b -> c::d` is `a -> c`,
/// and what a module's children import of each other is no edge. A circle
/// here is one a reader meets even when no two files import each other.
pub fn top_level(edges: &Edges) -> Edges {
    let top = |m: &str| m.split("::").next().unwrap().to_owned();
    let mut tops = Edges::new();
    for (module, targets) in edges {
        let from = top(module);
        let entry = tops.entry(from.clone()).or_default();
        for target in targets.iter().map(|t| top(t)) {
            if target != from && !entry.contains(&target) {
                entry.push(target);
            }
        }
    }
    tops
}
