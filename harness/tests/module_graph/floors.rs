//! The picture of a crate's layers that `docs/the-code.md` shows: its
//! top-level modules on floors, each above everything it imports, with the
//! first line of its module doc.

use super::imports::Edges;
use std::collections::BTreeMap;
use std::path::Path;

/// One line per top-level module, the highest floor first: the floor
/// (1: imports no other module), the module (`name/` for a folder) and
/// its [`summary`]. `tops` must have no cycle.
pub fn picture(src: &Path, tops: &Edges) -> String {
    let mut floors = BTreeMap::new();
    for module in tops.keys() {
        floor(tops, module, &mut floors);
    }
    let mut rows: Vec<(usize, String, String)> = floors
        .into_iter()
        .map(|(module, floor)| {
            let file = src.join(format!("{module}.rs"));
            let file = match file.is_file() {
                true => file,
                false => src.join(&module).join("mod.rs"),
            };
            let name = match src.join(&module).is_dir() {
                true => format!("{module}/"),
                false => module,
            };
            (floor, name, summary(&file))
        })
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(floor, name, doc)| format!("{floor:>2}  {name:<width$}  {doc}\n"))
        .collect()
}

/// A module's floor: one above the highest it imports.
fn floor(tops: &Edges, module: &str, floors: &mut BTreeMap<String, usize>) -> usize {
    if let Some(&f) = floors.get(module) {
        return f;
    }
    let f = 1 + tops[module]
        .iter()
        .map(|t| floor(tops, t, floors))
        .max()
        .unwrap_or(0);
    floors.insert(module.to_owned(), f);
    f
}

/// The first sentence of a file's `//!` doc, cut at a word to fit
/// [`SUMMARY`] characters.
fn summary(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let doc: Vec<&str> = text
        .lines()
        .map_while(|l| l.strip_prefix("//!"))
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let doc = doc.join(" ");
    let sentence = doc
        .split_once(". ")
        .map_or(doc.trim_end_matches('.'), |(s, _)| s);
    if sentence.chars().count() <= SUMMARY {
        return sentence.to_owned();
    }
    let cut: String = sentence.chars().take(SUMMARY).collect();
    format!("{}…", &cut[..cut.rfind(' ').unwrap_or(cut.len())])
}

/// Characters of a module's summary in the picture.
const SUMMARY: usize = 72;
