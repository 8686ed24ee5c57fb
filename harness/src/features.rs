//! CPU feature names: which ones this machine has, detected at run time,
//! and which names mean anything at all.
//!
//! A variant declares the features it needs by the names Rust's
//! `is_*_feature_detected!` macros use. A name of another architecture means
//! "unavailable here" (so a suite with NEON variants still runs on x86-64),
//! but a name no architecture knows is a typo and must be reported, not
//! read as a missing feature.

/// Defines [`X86`], the detection of each of its names and whether this
/// build compiles it in ([`compiled`]), so the list is written once (the
/// std macros want a literal).
macro_rules! x86_features {
    ($($name:tt),* $(,)?) => {
        /// Every name stable Rust's `is_x86_feature_detected!` accepts.
        pub(crate) const X86: &[&str] = &[$($name),*];

        /// Whether this build was compiled with `feature` enabled
        /// (`cfg!(target_feature)`, from `-C target-cpu` or
        /// `-C target-feature`): false for a name of another architecture
        /// or none. A few names the detection knows are no target features
        /// of rustc (`tsc`, `mmx`, ...): never compiled in, and the `allow`
        /// keeps cargo's check of cfg values quiet about them.
        #[allow(unexpected_cfgs)]
        pub(crate) fn compiled(feature: &str) -> bool {
            match feature {
                $($name => cfg!(target_feature = $name),)*
                _ => false,
            }
        }

        #[cfg(target_arch = "x86_64")]
        fn detect_x86(feature: &str) -> Option<bool> {
            match feature {
                $($name => Some(std::arch::is_x86_feature_detected!($name)),)*
                _ => None,
            }
        }
    };
}

x86_features!(
    "aes",
    "pclmulqdq",
    "rdrand",
    "rdseed",
    "tsc",
    "mmx",
    "sse",
    "sse2",
    "sse3",
    "ssse3",
    "sse4.1",
    "sse4.2",
    "sse4a",
    "sha",
    "avx",
    "avx2",
    "sha512",
    "sm3",
    "sm4",
    "avx512f",
    "avx512cd",
    "avx512er",
    "avx512pf",
    "avx512bw",
    "avx512dq",
    "avx512vl",
    "avx512ifma",
    "avx512vbmi",
    "avx512vpopcntdq",
    "avx512vbmi2",
    "gfni",
    "vaes",
    "vpclmulqdq",
    "avx512vnni",
    "avx512bitalg",
    "avx512bf16",
    "avx512vp2intersect",
    "avx512fp16",
    "avxvnni",
    "avxifma",
    "avxneconvert",
    "avxvnniint8",
    "avxvnniint16",
    "f16c",
    "fma",
    "bmi1",
    "bmi2",
    "abm",
    "lzcnt",
    "tbm",
    "popcnt",
    "fxsr",
    "xsave",
    "xsaveopt",
    "xsaves",
    "xsavec",
    "cmpxchg16b",
    "kl",
    "widekl",
    "adx",
    "rtm",
    "movbe",
    "ermsb",
);

/// Names the other architectures' detection macros accept (aarch64, arm,
/// RISC-V, LoongArch, PowerPC, s390x): never present on this machine when it
/// is x86-64, and never a typo.
const OTHER: &[&str] = &[
    // aarch64 and arm
    "asimd",
    "neon",
    "bf16",
    "bti",
    "crc",
    "cssc",
    "dit",
    "dotprod",
    "dpb",
    "dpb2",
    "ecv",
    "f32mm",
    "f64mm",
    "faminmax",
    "fcma",
    "fhm",
    "flagm",
    "flagm2",
    "fp",
    "fp16",
    "fp8",
    "fp8dot2",
    "fp8dot4",
    "fp8fma",
    "fpmr",
    "frintts",
    "hbc",
    "i8mm",
    "jsconv",
    "lse",
    "lse128",
    "lse2",
    "lut",
    "mops",
    "mte",
    "paca",
    "pacg",
    "pauth-lr",
    "pmull",
    "rand",
    "rcpc",
    "rcpc2",
    "rcpc3",
    "rdm",
    "sb",
    "sha2",
    "sha3",
    "sme",
    "sme2",
    "sme2p1",
    "ssbs",
    "sve",
    "sve2",
    "sve2-aes",
    "sve2-bitperm",
    "sve2-sha3",
    "sve2-sm4",
    "sve2p1",
    "tme",
    "wfxt",
    "v7",
    "vfp2",
    "vfp3",
    "vfp4",
    // RISC-V
    "rv32e",
    "rv32i",
    "rv64i",
    "a",
    "b",
    "c",
    "d",
    "f",
    "m",
    "q",
    "v",
    "zba",
    "zbb",
    "zbc",
    "zbkb",
    "zbkc",
    "zbkx",
    "zbs",
    "zfh",
    "zfhmin",
    "zk",
    "zkn",
    "zks",
    "zvbb",
    "zvbc",
    "zve32x",
    "zve64x",
    "zvfh",
    "zvkn",
    // LoongArch, PowerPC, s390x
    "lsx",
    "lasx",
    "lbt",
    "lvz",
    "ual",
    "altivec",
    "vsx",
    "power8",
    "power9",
    "power10",
    "vector",
    "vector-enhancements-1",
    "vector-enhancements-2",
];

/// The environment variable a parent sets on the children that run its
/// kernels ([`crate::fault`]): the features it detected, comma-separated.
/// A child has only those, so it runs the variants its parent listed, even
/// where the parent runs emulated (`qemu-x86_64 -cpu qemu64`) and the
/// child, started natively, would detect more.
pub(crate) const PARENT_ENV: &str = "BITBENCH_PARENT_FEATURES";

/// Whether this CPU has `feature`: `None` for a name no architecture
/// knows; `Some(false)` for a name of another architecture, or one the
/// parent process did not have ([`PARENT_ENV`]).
pub(crate) fn detected(feature: &str) -> Option<bool> {
    #[cfg(target_arch = "x86_64")]
    let detect_here = detect_x86;
    #[cfg(not(target_arch = "x86_64"))]
    let detect_here = |_: &str| None;
    let here = known(feature, detect_here)?;
    let parent = std::env::var(PARENT_ENV);
    Some(
        here && parent
            .ok()
            .is_none_or(|list| list.split(',').any(|f| f == feature)),
    )
}

/// Every feature this process has, in the order of [`X86`]: what its
/// results file records and `list --features` prints.
pub(crate) fn detected_names() -> Vec<&'static str> {
    X86.iter()
        .copied()
        .filter(|f| detected(f) == Some(true))
        .collect()
}

/// [`PARENT_ENV`]'s value for this process: [`detected_names`],
/// comma-separated.
pub(crate) fn detected_list() -> String {
    detected_names().join(",")
}

/// [`detected`] given this architecture's detection (`None` for a name it
/// does not know): any other name an architecture knows reads as absent.
fn known(feature: &str, detect_here: impl Fn(&str) -> Option<bool>) -> Option<bool> {
    detect_here(feature)
        .or_else(|| (X86.contains(&feature) || OTHER.contains(&feature)).then_some(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stable_x86_name_is_detected() {
        for feature in X86 {
            assert!(detected(feature).is_some(), "{feature}");
        }
        // Names that used to read as absent on every CPU.
        for feature in [
            "sse",
            "sse2",
            "aes",
            "pclmulqdq",
            "sha",
            "avx512vbmi2",
            "avx512vnni",
        ] {
            assert!(X86.contains(&feature), "{feature}");
        }
        if cfg!(target_arch = "x86_64") {
            // Every x86-64 CPU has SSE2.
            assert_eq!(detected("sse2"), Some(true));
        }
    }

    #[test]
    fn names_of_other_architectures_are_absent_and_typos_unknown() {
        if cfg!(target_arch = "x86_64") {
            assert_eq!(detected("neon"), Some(false));
            assert_eq!(detected("sve2"), Some(false));
        }
        assert_eq!(detected("avx-2"), None);
        assert_eq!(detected("no-such-feature"), None);
    }

    #[test]
    fn compiled_features_are_the_builds_own() {
        assert_eq!(compiled("sse2"), cfg!(target_feature = "sse2"));
        assert_eq!(compiled("avx2"), cfg!(target_feature = "avx2"));
        assert_eq!(compiled("avx512f"), cfg!(target_feature = "avx512f"));
        if cfg!(target_arch = "x86_64") {
            // Every x86-64 build has SSE2; none has a feature rustc lacks.
            assert!(compiled("sse2"));
            assert!(!compiled("tsc"));
        }
        // Other architectures' names and typos: never.
        assert!(!compiled("neon"));
        assert!(!compiled("avx-2"));
    }

    #[test]
    fn x86_names_read_as_absent_on_an_architecture_without_x86_detection() {
        // What an aarch64 build sees (.ci/aarch64-run runs this build):
        // every x86 variant unavailable, none an error.
        for feature in X86 {
            assert_eq!(known(feature, |_| None), Some(false), "{feature}");
        }
        assert_eq!(known("avx-2", |_| None), None);
        if !cfg!(target_arch = "x86_64") {
            assert_eq!(detected("avx2"), Some(false));
            assert_eq!(detected("avx512f"), Some(false));
        }
    }
}
