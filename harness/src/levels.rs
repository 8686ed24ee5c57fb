//! Target-cpu levels: the `-C target-cpu` builds `matrix` measures, and
//! whether this CPU (and valgrind) can run each.
//!
//! The x86-64 micro-architecture levels are fixed feature sets (psABI), so
//! a level is runnable exactly when the CPU reports all of its features; a
//! level whose code may contain AVX-512 cannot be counted, because valgrind
//! does not implement AVX-512.

use crate::features::detected;

/// Every level `matrix` knows, in increasing order.
pub const LEVELS: &[&str] = &["x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "native"];

/// Why instruction counts are missing where AVX-512 is involved.
pub const NO_AVX512: &str = "not countable: valgrind has no AVX-512";

/// Features a level adds to the one before it (psABI; LAHF/SAHF is left
/// out of v2 because the standard library cannot detect it, and every
/// 64-bit CPU since 2006 has it).
const ADDED: &[(&str, &[&str])] = &[
    ("x86-64", &[]),
    (
        "x86-64-v2",
        &["cmpxchg16b", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3"],
    ),
    (
        "x86-64-v3",
        &[
            "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave",
        ],
    ),
    (
        "x86-64-v4",
        &["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"],
    ),
];

/// Parses a comma-separated level list, rejecting unknown names.
pub fn parse_list(list: &str) -> Result<Vec<String>, String> {
    let mut levels = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if !LEVELS.contains(&name) {
            return Err(format!(
                "unknown target-cpu level '{name}' (known: {})",
                LEVELS.join(", ")
            ));
        }
        if !levels.iter().any(|l| l == name) {
            levels.push(name.to_owned());
        }
    }
    if levels.is_empty() {
        return Err("--levels is empty".to_owned());
    }
    Ok(levels)
}

/// The CPU features a level requires (cumulative); `native` requires none.
pub fn required_features(level: &str) -> Vec<&'static str> {
    let Some(end) = ADDED.iter().position(|(name, _)| *name == level) else {
        return Vec::new();
    };
    ADDED[..=end]
        .iter()
        .flat_map(|(_, features)| features.iter().copied())
        .collect()
}

/// `Some(reason)` when this CPU cannot run code built for `level`.
pub fn cannot_run(level: &str) -> Option<String> {
    if !cfg!(target_arch = "x86_64") {
        return (level != "native")
            .then(|| format!("{level} is an x86-64 level and this machine is not x86-64"));
    }
    let missing: Vec<&str> = required_features(level)
        .into_iter()
        .filter(|f| detected(f) != Some(true))
        .collect();
    (!missing.is_empty()).then(|| format!("this CPU lacks {}", missing.join(", ")))
}

/// `Some(reason)` when valgrind cannot run code built for `level`: its code
/// may use AVX-512 (v4, or `native` on an AVX-512 CPU).
pub fn not_countable(level: &str) -> Option<&'static str> {
    let avx512 = match level {
        "x86-64-v4" => true,
        "native" => detected("avx512f") == Some(true),
        _ => false,
    };
    avx512.then_some(NO_AVX512)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_cumulative() {
        assert!(required_features("x86-64").is_empty());
        assert!(required_features("native").is_empty());
        let v3 = required_features("x86-64-v3");
        assert!(v3.contains(&"sse4.2") && v3.contains(&"avx2"));
        assert!(!v3.contains(&"avx512f"));
        assert_eq!(required_features("x86-64-v4").len(), v3.len() + 5);
    }

    #[test]
    fn every_required_feature_is_detectable() {
        // A name missing from `detected` would make a level look unrunnable.
        for feature in required_features("x86-64-v4") {
            assert!(detected(feature).is_some(), "{feature}");
        }
        assert_eq!(cannot_run("x86-64"), None);
        assert_eq!(cannot_run("native"), None);
    }

    #[test]
    fn level_lists_parse_and_reject_unknown_names() {
        assert_eq!(
            parse_list("x86-64, native,x86-64").unwrap(),
            vec!["x86-64", "native"]
        );
        let err = parse_list("x86-64,v5").unwrap_err();
        assert!(err.starts_with("unknown target-cpu level 'v5'"), "{err}");
        assert!(parse_list(" , ").is_err());
        assert_eq!(not_countable("x86-64-v4"), Some(NO_AVX512));
        assert_eq!(not_countable("x86-64-v3"), None);
    }
}
