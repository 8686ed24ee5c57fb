//! A function's and a source file's identity across profiles and builds.
//!
//! Two builds of one kernel name the same function differently: Rust's
//! symbol hash (`::h0123…`) changes with any edit, and callgrind names each
//! recursion level apart (`walk`, `walk'2`). Comparing two profiles needs
//! one name per function, so both are removed here; the crate path is kept,
//! since it tells a kernel's code from the standard library's. Source files
//! likewise: two builds name one file by different absolute paths (`ab`
//! builds each revision in an export of its own, the working tree in the
//! checkout or a copy), so a file of the repository is its path from the
//! repository's root, and any other (the standard library, a registry
//! crate) its path from its crate on, the shortest path a reader recognises.

use std::path::Path;

/// The identity of the function callgrind names `raw`: demangled if still
/// mangled, without the recursion suffix or the Rust hash.
pub(crate) fn identity(raw: &str) -> String {
    let name = without_recursion(raw);
    match rustc_demangle::try_demangle(name) {
        // `{:#}` leaves out the hash (legacy) or the disambiguators (v0).
        Ok(demangled) => format!("{demangled:#}"),
        Err(_) => without_hash(name).to_owned(),
    }
}

/// `walk'2` → `walk`: callgrind's suffix for the second and deeper
/// recursion levels (`--separate-recs`).
fn without_recursion(name: &str) -> &str {
    match name.rsplit_once('\'') {
        Some((base, level))
            if !base.is_empty()
                && !level.is_empty()
                && level.bytes().all(|b| b.is_ascii_digit()) =>
        {
            base
        }
        _ => name,
    }
}

/// `a::b::h0123456789abcdef` → `a::b`: the legacy mangling's hash, as a
/// demangler that kept it prints it.
fn without_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((path, hash))
            if hash.len() == 16 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) =>
        {
            path
        }
        _ => name,
    }
}

/// `file` as a change table names it: its path from the root of the tree
/// it was built from, so one line has one name in every build of it (a
/// moved line then reads as moved, an unchanged one as unchanged). That
/// root is the directory `ab` exported a commit to (`bitbench-ab/src/
/// <commit>/`) or copied the working tree to (`<commit>-dirty/`), whose
/// name says what it is, else the longest of `roots` (checkouts the builds
/// may have been made in) that holds `file`. Any other file is named by
/// [`short_path`].
pub(super) fn source_name(file: &str, roots: &[&Path]) -> String {
    if let Some(path) = in_export(file) {
        return path;
    }
    let path = Path::new(file);
    let within = roots
        .iter()
        .filter_map(|root| path.strip_prefix(root).ok())
        .min_by_key(|rest| rest.components().count())
        .filter(|rest| !rest.as_os_str().is_empty());
    match within {
        Some(rest) => rest.to_string_lossy().into_owned(),
        None => short_path(file),
    }
}

/// The path of `file` inside an `ab` export or working-tree copy (the last
/// `bitbench-ab/src/<commit>[-dirty]/` in it), if it lies in one.
fn in_export(file: &str) -> Option<String> {
    let parts: Vec<&str> = file.split('/').filter(|p| !p.is_empty()).collect();
    let tree = parts.windows(3).rposition(|w| {
        let commit = w[2].strip_suffix("-dirty").unwrap_or(w[2]);
        w[0] == "bitbench-ab" && w[1] == "src" && is_commit(commit)
    })?;
    let rest = &parts[tree + 3..];
    (!rest.is_empty()).then(|| rest.join("/"))
}

/// A full commit id: 40 hex digits (SHA-1), or 64 (SHA-256 repositories).
fn is_commit(name: &str) -> bool {
    matches!(name.len(), 40 | 64) && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A source path from its crate on: the directory holding the last `src`
/// component and what follows (`components/src/swar.rs`, `core/src/num/
/// uint_macros.rs` for the standard library, `flate2-1.1.11/src/lib.rs`
/// for a registry crate), else its last two components.
fn short_path(file: &str) -> String {
    let parts: Vec<&str> = file
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let start = match parts.iter().rposition(|p| *p == "src") {
        Some(src) if src > 0 => src - 1,
        _ => parts.len().saturating_sub(2),
    };
    match parts[start..].join("/") {
        short if short.is_empty() => file.to_owned(),
        short => short,
    }
}

#[cfg(test)]
mod tests {
    use super::{identity, short_path, source_name};
    use std::path::Path;

    #[test]
    fn recursion_levels_and_hashes_are_one_function() {
        assert_eq!(
            identity("cephalopod::front::walk'2"),
            "cephalopod::front::walk"
        );
        assert_eq!(
            identity("cephalopod::front::walk::h0123456789abcdef'3"),
            "cephalopod::front::walk"
        );
        assert_eq!(
            identity("core::fmt::write::h0123456789abcdef"),
            "core::fmt::write"
        );
    }

    #[test]
    fn mangled_names_are_demangled_without_hash() {
        // Legacy mangling of `foo::bar` with its hash.
        assert_eq!(identity("_ZN3foo3bar17h0123456789abcdefE"), "foo::bar");
        assert_eq!(identity("_ZN3foo3bar17h0123456789abcdefE'2"), "foo::bar");
        // v0 mangling of `foo::bar` (crate disambiguator hidden).
        assert_eq!(identity("_RNvCs1234_3foo3bar"), "foo::bar");
    }

    #[test]
    fn other_names_are_kept() {
        for name in [
            "(below main)",
            "__libc_start_main@@GLIBC_2.34",
            "0x000000000001ab70",
            "<components::swar::Swar as components::Labeler>::label_batch",
            "std::rt::lang_start::{{closure}}",
            // Not a hash: too short, or not hex.
            "a::habc",
            "a::h0123456789abcdefg",
            // A quote that is not a recursion level.
            "x'",
        ] {
            assert_eq!(identity(name), name);
        }
    }

    #[test]
    fn paths_are_shortened_from_their_crate_on() {
        for (path, short) in [
            (
                "/work/main/impls/components/src/swar.rs",
                "components/src/swar.rs",
            ),
            (
                "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/num/uint_macros.rs",
                "core/src/num/uint_macros.rs",
            ),
            (
                "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/flate2-1.1.11/src/lib.rs",
                "flate2-1.1.11/src/lib.rs",
            ),
            ("./csu/../csu/libc-start.c", "csu/libc-start.c"),
            ("???", "???"),
        ] {
            assert_eq!(short_path(path), short);
        }
    }
    /// A 40-hex commit, as `ab` names an export.
    const SHA: &str = "134951b57b0f2c1d9e8a7b6c5d4e3f2a1b0c9d8e";
    const OTHER: &str = "b238f8640a1b2c3d4e5f60718293a4b5c6d7e8f9";

    #[test]
    fn a_crate_at_the_repository_root_is_one_file_in_every_export() {
        // Two revisions' exports, and the working tree's copy: the same
        // `src/lib.rs`, not `<sha>/src/lib.rs`.
        let exports = "/home/u/crate/target/bitbench-ab/src";
        for tree in [SHA.to_owned(), OTHER.to_owned(), format!("{SHA}-dirty")] {
            let file = format!("{exports}/{tree}/src/lib.rs");
            assert_eq!(source_name(&file, &[]), "src/lib.rs", "{file}");
            // The checkout the export lies in is no root of it.
            let checkout = [Path::new("/home/u/crate")];
            assert_eq!(source_name(&file, &checkout), "src/lib.rs", "{file}");
        }
        // With CARGO_TARGET_DIR elsewhere, and a module below `src`.
        let file = format!("/tmp/t/bitbench-ab/src/{OTHER}/src/simd/avx2.rs");
        assert_eq!(source_name(&file, &[]), "src/simd/avx2.rs");
    }

    #[test]
    fn a_workspace_member_is_named_from_the_repository_root() {
        for tree in [SHA.to_owned(), format!("{OTHER}-dirty")] {
            let file = format!("/w/target/bitbench-ab/src/{tree}/impls/components/src/swar.rs");
            assert_eq!(source_name(&file, &[]), "impls/components/src/swar.rs");
        }
        let checkout = [Path::new("/work/main")];
        assert_eq!(
            source_name("/work/main/impls/components/src/swar.rs", &checkout),
            "impls/components/src/swar.rs"
        );
    }

    #[test]
    fn the_checkout_is_a_root_and_other_files_keep_their_crate_path() {
        // The working tree built where it is: named from the checkout.
        let roots = [Path::new("/home/u"), Path::new("/home/u/crate/")];
        assert_eq!(
            source_name("/home/u/crate/src/lib.rs", &roots),
            "src/lib.rs"
        );
        // Outside every root, and no export: the crate's path, as before.
        for (file, name) in [
            (
                "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/num/uint_macros.rs",
                "core/src/num/uint_macros.rs",
            ),
            (
                "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/hex-0.4.3/src/lib.rs",
                "hex-0.4.3/src/lib.rs",
            ),
            ("/elsewhere/crate/src/lib.rs", "crate/src/lib.rs"),
            // Not a commit: too short, upper case, no `src` above it.
            ("/t/bitbench-ab/src/abc123/src/lib.rs", "abc123/src/lib.rs"),
            (
                &format!("/t/bitbench-ab/src/{}/src/lib.rs", SHA.to_uppercase()),
                &format!("{}/src/lib.rs", SHA.to_uppercase()),
            ),
            (
                &format!("/t/bitbench-ab/{SHA}/src/lib.rs"),
                &format!("{SHA}/src/lib.rs"),
            ),
            ("???", "???"),
        ] {
            assert_eq!(source_name(file, &roots), name, "{file}");
        }
        // A root is a whole directory, not a prefix of its name.
        assert_eq!(
            source_name("/home/user/x/src/lib.rs", &[Path::new("/home/u")]),
            "x/src/lib.rs"
        );
    }
}
