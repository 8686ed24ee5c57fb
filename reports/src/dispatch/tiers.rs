//! Feature tiers: which variants a CPU may run, by the features it has.
//!
//! The measured variants' feature sets are ordered by how demanding they
//! are (the x86-64 level that brings a feature) and made cumulative, so a
//! CPU that qualifies for a tier has every feature of the tiers below; a
//! tier that adds no measured variant is left out.

use super::Spec;
use super::measured::Measured;

/// A tier before its cells are decided.
#[derive(Debug, PartialEq)]
pub(super) struct Tier {
    /// The features a CPU needs, by rank then name.
    pub features: Vec<String>,
    /// Indices into the spec's variants, in list order.
    pub candidates: Vec<usize>,
}

/// The x86-64 level that brings `feature`: 1 for `sse`, `sse2`; 2, 3, 4
/// for x86-64-v2, v3, v4's; 5 for any other (`avx512vpopcntdq`, `sha`).
pub(super) fn rank(feature: &str) -> u8 {
    const V2: [&str; 6] = ["popcnt", "sse3", "sse4.1", "sse4.2", "ssse3", "cmpxchg16b"];
    const V3: [&str; 9] = [
        "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave",
    ];
    const V4: [&str; 5] = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"];
    match feature {
        "sse" | "sse2" => 1,
        f if V2.contains(&f) => 2,
        f if V3.contains(&f) => 3,
        f if V4.contains(&f) => 4,
        _ => 5,
    }
}

/// A feature set's rank: its highest feature's, 0 when empty.
fn set_rank(set: &[String]) -> u8 {
    set.iter().map(|f| rank(f)).max().unwrap_or(0)
}

/// The features `variant` needs at run time on a build that compiles in
/// `compiled`, sorted by rank then name, without repeats.
fn runtime_features(spec: &Spec, variant: usize, compiled: &[String]) -> Vec<String> {
    let mut set: Vec<String> = spec.variants[variant]
        .features
        .iter()
        .filter(|f| !compiled.contains(f))
        .cloned()
        .collect();
    set.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    set.dedup();
    set
}

/// How simple a variant is, lower first: fewer declared features, then
/// earlier in the list.
pub(super) fn simplicity(spec: &Spec, variant: usize) -> (usize, usize) {
    let mut features = spec.variants[variant].features.clone();
    features.sort();
    features.dedup();
    (features.len(), variant)
}

/// The tiers of one level, the most demanding first: `measured` holds
/// its figures, `compiled` its target features.
pub(super) fn tiers(spec: &Spec, measured: &Measured, compiled: &[String]) -> Vec<Tier> {
    let present: Vec<usize> = (0..spec.variants.len())
        .filter(|&v| measured.has(&spec.variants[v].name))
        .collect();
    let needs: Vec<Vec<String>> = present
        .iter()
        .map(|&v| runtime_features(spec, v, compiled))
        .collect();
    let mut sets: Vec<&Vec<String>> = Vec::new();
    for set in &needs {
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    // A stable sort keeps first appearance among equals.
    sets.sort_by_key(|s| (set_rank(s), s.len()));
    let mut tiers: Vec<Tier> = Vec::new();
    let mut features: Vec<String> = Vec::new();
    for set in sets {
        features.extend(set.iter().cloned());
        features.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
        features.dedup();
        let candidates: Vec<usize> = present
            .iter()
            .zip(&needs)
            .filter(|(_, need)| need.iter().all(|f| features.contains(f)))
            .map(|(&v, _)| v)
            .collect();
        if tiers.last().is_none_or(|t| t.candidates != candidates) {
            tiers.push(Tier {
                features: features.clone(),
                candidates,
            });
        }
    }
    tiers.reverse();
    tiers
}
