//! A function's and a source file's identity across profiles and builds.
//!
//! Two builds of one kernel name the same function differently: Rust's
//! symbol hash (`::h0123…`) changes with any edit, and callgrind names each
//! recursion level apart (`walk`, `walk'2`). Comparing two profiles needs
//! one name per function, so both are removed here; the crate path is kept,
//! since it tells a kernel's code from the standard library's. Source files
//! likewise: two checkouts of one commit name a file by different absolute
//! paths, so a file is its path from its crate on, which is also the
//! shortest path a reader recognises.

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

/// A source path from its crate on: the directory holding the last `src`
/// component and what follows (`components/src/swar.rs`, `core/src/num/
/// uint_macros.rs` for the standard library, `flate2-1.1.11/src/lib.rs`
/// for a registry crate), else its last two components.
pub(super) fn short_path(file: &str) -> String {
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
    use super::{identity, short_path};

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
}
