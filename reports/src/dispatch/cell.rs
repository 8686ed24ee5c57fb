//! The choice in one cell: a tier's candidates at one regime, weighed over
//! the scenarios (machines and sets) measured there.
//!
//! Within the intervals the simplest variant wins, so a change the noise
//! could explain never buys a more demanding variant; beyond them, the
//! least worst-case loss, so no machine is sacrificed for another's gain.

use super::measured::Measured;
use super::tiers::simplicity;
use super::{Candidate, Cell, Figure, Spec};

/// Whether two figures' intervals overlap.
fn overlap(a: &Figure, b: &Figure) -> bool {
    a.low <= b.high && b.low <= a.high
}

/// The candidates of `tier` (indices into the spec's variants) at `regime`
/// on level `m`, and the scenarios (indices into `m.scenarios`) that
/// measured every one of them; `None` when no candidate was measured there.
fn measured_at(
    spec: &Spec,
    m: &Measured,
    tier: &[usize],
    regime: Option<f64>,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let name = |v: usize| spec.variants[v].name.as_str();
    let at: Vec<usize> = (0..m.scenarios.len())
        .filter(|&s| m.scenarios[s].regime == regime)
        .collect();
    let sets_at: Vec<&str> = at.iter().map(|&s| m.scenarios[s].set.as_str()).collect();
    let measured_in = |v: usize| {
        at.iter()
            .filter(|&&s| m.figures[s].contains_key(name(v)))
            .count()
    };
    let mut candidates: Vec<usize> = tier
        .iter()
        .copied()
        .filter(|&v| {
            !spec
                .ruled_out
                .iter()
                .any(|r| r.variant == name(v) && sets_at.contains(&r.input_set.as_str()))
        })
        .filter(|&v| measured_in(v) > 0)
        .collect();
    // A scenario counts only with every candidate measured in it; where
    // none has them all, the candidate measured most narrowly goes.
    loop {
        let complete: Vec<usize> = at
            .iter()
            .copied()
            .filter(|&s| {
                candidates
                    .iter()
                    .all(|&v| m.figures[s].contains_key(name(v)))
            })
            .collect();
        if candidates.is_empty() {
            return None;
        }
        if !complete.is_empty() {
            return Some((candidates, complete));
        }
        let narrowest = (0..candidates.len())
            .min_by_key(|&i| (measured_in(candidates[i]), std::cmp::Reverse(i)))
            .expect("candidates remain");
        candidates.remove(narrowest);
    }
}

/// The cell of `tier` (candidate indices into the spec's variants) at
/// `regime` on level `m`; `None` when no candidate was measured there.
pub(super) fn cell(spec: &Spec, m: &Measured, tier: &[usize], regime: Option<f64>) -> Option<Cell> {
    let name = |v: usize| spec.variants[v].name.as_str();
    let (candidates, scenarios) = measured_at(spec, m, tier, regime)?;
    let fig = |v: usize, s: usize| &m.figures[s][name(v)];
    // The least of `by`, the simplest among equals.
    let least = |among: &[usize], by: &dyn Fn(usize) -> f64| {
        let key = |v: usize| (by(v), simplicity(spec, v));
        among
            .iter()
            .copied()
            .min_by(|&a, &b| {
                let (ka, kb) = (key(a), key(b));
                ka.0.total_cmp(&kb.0).then(ka.1.cmp(&kb.1))
            })
            .expect("candidates remain")
    };
    let fastest: Vec<usize> = scenarios
        .iter()
        .map(|&s| least(&candidates, &|v| fig(v, s).median))
        .collect();
    let worst_loss = |v: usize| {
        scenarios
            .iter()
            .zip(&fastest)
            .map(|(&s, &f)| fig(v, s).median / fig(f, s).median - 1.0)
            .fold(0.0, f64::max)
    };
    let tied_with = |v: usize, chosen: &dyn Fn(usize) -> usize| {
        scenarios
            .iter()
            .enumerate()
            .all(|(i, &s)| overlap(fig(v, s), fig(chosen(i), s)))
    };
    let tie_set: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&v| tied_with(v, &|i| fastest[i]))
        .collect();
    let chosen = if tie_set.is_empty() {
        least(&candidates, &worst_loss)
    } else {
        least(&tie_set, &|_| 0.0)
    };
    let mut sets: Vec<String> = Vec::new();
    for &s in &scenarios {
        if !sets.contains(&m.scenarios[s].set) {
            sets.push(m.scenarios[s].set.clone());
        }
    }
    let disagree = scenarios
        .iter()
        .zip(&fastest)
        .filter(|&(&s, &f)| f != chosen && !overlap(fig(f, s), fig(chosen, s)))
        .map(|(&s, &f)| {
            let sc = &m.scenarios[s];
            let who = if sets.len() > 1 {
                format!("{} ({})", sc.machine, sc.set)
            } else {
                sc.machine.clone()
            };
            (who, name(f).to_owned())
        })
        .collect();
    let mut cell = Cell {
        regime,
        sets,
        scenarios: scenarios
            .iter()
            .map(|&s| (m.scenarios[s].machine.clone(), m.scenarios[s].set.clone()))
            .collect(),
        chosen: name(chosen).to_owned(),
        loss: worst_loss(chosen),
        margin: None,
        fixed_loss: f64::NAN,
        candidates: candidates
            .iter()
            .map(|&v| Candidate {
                variant: name(v).to_owned(),
                worst_loss: worst_loss(v),
                tied: tied_with(v, &|_| chosen),
                figures: scenarios.iter().map(|&s| fig(v, s).clone()).collect(),
            })
            .collect(),
        disagree,
    };
    cell.margin = candidates
        .iter()
        .filter(|&&v| v != chosen)
        .filter_map(|&v| Some((name(v).to_owned(), cell.ratio(name(v), name(chosen))?)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    Some(cell)
}
