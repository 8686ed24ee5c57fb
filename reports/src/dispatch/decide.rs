//! [`decide`]: the rules of the module applied level by level, tier by
//! tier, cell by cell, and the best single fixed variant each tier's
//! dispatcher is weighed against.

use super::boundary::ranges;
use super::cell::cell;
use super::measured::gather;
use super::tiers::{simplicity, tiers};
use super::{Cell, Decision, LevelDecision, Spec, TierDecision};
use crate::results::ResultsFile;

/// Decides, from `files` (each with its label), which variant of
/// `spec.workload` to run on each target-cpu level, feature tier and
/// regime (see the module doc for the rules).
///
/// A (machine, input set, variant) measured at one level in several files
/// counts as the last of them has it. On a level, the features its build
/// compiles in ([`Spec::level_features`]) are no tier's: a variant that
/// needs only those runs on any CPU of the level. Levels come the most demanding
/// first (more target features in [`Spec::level_features`]; first seen
/// among equals); a level where no candidate was measured is left out.
///
/// # Errors
///
/// One line, when no file has a time record of the workload, when none is
/// an ok record of a variant the spec lists, or when every such variant
/// failed somewhere (or, with a parameter, was measured only on sets
/// without it).
pub fn decide(spec: &Spec, files: &[(String, &ResultsFile)]) -> Result<Decision, String> {
    let gathered = gather(spec, files)?;
    let mut levels: Vec<LevelDecision> = Vec::new();
    for m in &gathered.levels {
        let compiled = spec
            .level_features
            .get(&m.target_cpu)
            .cloned()
            .unwrap_or_default();
        let regimes = m.regimes();
        let tiers: Vec<TierDecision> = tiers(spec, m, &compiled)
            .into_iter()
            .filter_map(|tier| {
                let cells: Vec<Cell> = regimes
                    .iter()
                    .filter_map(|&x| cell(spec, m, &tier, x))
                    .collect();
                (!cells.is_empty()).then(|| finish(spec, tier.features, cells))
            })
            .collect();
        if !tiers.is_empty() {
            levels.push(LevelDecision {
                target_cpu: m.target_cpu.clone(),
                target_features: compiled,
                tiers,
            });
        }
    }
    // A stable sort keeps first appearance among equals.
    levels.sort_by_key(|l| std::cmp::Reverse(l.target_features.len()));
    Ok(Decision {
        workload: spec.workload.clone(),
        parameter: spec.parameter.clone(),
        levels,
        sources: gathered.sources,
    })
}

/// A tier's decision from its cells: their ranges and the best single
/// fixed variant, whose loss each cell then records.
fn finish(spec: &Spec, features: Vec<String>, mut cells: Vec<Cell>) -> TierDecision {
    let fixed = fixed(spec, &cells);
    for c in &mut cells {
        c.fixed_loss = c
            .candidate(&fixed.0)
            .map_or(f64::INFINITY, |k| k.worst_loss);
    }
    TierDecision {
        features,
        ranges: ranges(&cells),
        cells,
        fixed,
    }
}

/// The variant with the least worst-case loss over `cells`, among those
/// measured in the most of them (every one, unless none is), the simplest
/// among equals; a cell without it counts as an infinite loss.
fn fixed(spec: &Spec, cells: &[Cell]) -> (String, f64) {
    let mut names: Vec<(&str, usize)> = Vec::new();
    for c in cells.iter().flat_map(|c| &c.candidates) {
        let v = spec.variants.iter().position(|v| v.name == c.variant);
        if let Some(v) = v.filter(|_| !names.iter().any(|n| n.0 == c.variant)) {
            names.push((&c.variant, v));
        }
    }
    // (cells measured in, worst-case loss over all cells)
    let score = |name: &str| {
        let losses = cells
            .iter()
            .map(|c| c.candidate(name).map(|k| k.worst_loss));
        let present = losses.clone().flatten().count();
        let worst = losses.fold(0.0, |w, l| f64::max(w, l.unwrap_or(f64::INFINITY)));
        (present, worst)
    };
    names
        .into_iter()
        .min_by(|&(a, va), &(b, vb)| {
            let ((pa, wa), (pb, wb)) = (score(a), score(b));
            pb.cmp(&pa)
                .then(wa.total_cmp(&wb))
                .then(simplicity(spec, va).cmp(&simplicity(spec, vb)))
        })
        .map_or((String::new(), f64::INFINITY), |(name, _)| {
            (name.to_owned(), score(name).1)
        })
}
