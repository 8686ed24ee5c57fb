//! The README and the guide's pages (`docs/*.md`), read by the tests that
//! keep what they show true.

use super::root;
use std::path::{Path, PathBuf};

/// One Markdown page: its path from the workspace root and its text.
pub struct Page {
    pub path: PathBuf,
    pub text: String,
}

/// The README's text.
pub fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("README.md at the root")
}

/// `README.md`, then every `docs/*.md` in name order.
pub fn pages() -> Vec<Page> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("the guide's folder, docs/")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| Path::new("docs").join(p.file_name().expect("a file name")))
        .collect();
    paths.sort();
    paths.insert(0, PathBuf::from("README.md"));
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(root().join(&path))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Page { path, text }
        })
        .collect()
}

/// Every page's text, one after the other.
pub fn all_text() -> String {
    pages()
        .into_iter()
        .map(|p| p.text)
        .collect::<Vec<_>>()
        .join("\n")
}
