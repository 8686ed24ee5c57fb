//! The choice in one cell: a tier's candidates at one regime, weighed over
//! the scenarios (machines and sets) measured there.
//!
//! Within the intervals the simplest variant wins, so a change the noise
//! could explain never buys a more demanding variant; beyond them, the
//! least worst-case loss, so no machine is sacrificed for another's gain.

use super::measured::Measured;
use super::tiers::{Tier, simplicity};
use super::{Candidate, Cell, Figure, Spec};

/// Whether two figures' intervals overlap.
fn overlap(a: &Figure, b: &Figure) -> bool {
    a.low <= b.high && b.low <= a.high
}

/// What a cell weighs: candidates (indices into the spec's variants), the
/// scenarios (indices into `m.scenarios`), and the variants left out
/// because a machine that takes part did not measure them, each with
/// those machines, in the workload's list order.
struct Weighed {
    candidates: Vec<usize>,
    scenarios: Vec<usize>,
    unweighed: Vec<(String, Vec<String>)>,
}

/// What the cell of `tier` at `regime` on level `m` weighs; `None` when no
/// candidate was measured there.
///
/// A machine takes part where its records show it can run the tier: for
/// each of the tier's features, it measured a variant that needs it (one
/// without AVX-512 sits out the AVX-512 tier); where none shows the whole
/// tier, every machine measured there takes part. Every machine that takes
/// part is weighed: a candidate one of them did not measure goes (the one
/// measured most narrowly first), never the machine.
fn measured_at(spec: &Spec, m: &Measured, tier: &Tier, regime: Option<f64>) -> Option<Weighed> {
    let name = |v: usize| spec.variants[v].name.as_str();
    let at: Vec<usize> = (0..m.scenarios.len())
        .filter(|&s| m.scenarios[s].regime == regime)
        .collect();
    let sets_at: Vec<&str> = at.iter().map(|&s| m.scenarios[s].set.as_str()).collect();
    let able: Vec<usize> = at
        .iter()
        .copied()
        .filter(|&s| runs_tier(spec, m, &m.scenarios[s].machine, &tier.features))
        .collect();
    let weighed = if able.is_empty() { at } else { able };
    let measured = |v: usize, s: usize| m.figures[s].contains_key(name(v));
    let measured_in = |v: usize| weighed.iter().filter(|&&s| measured(v, s)).count();
    let measured_here: Vec<usize> = tier
        .candidates
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
    let mut candidates = measured_here.clone();
    while !weighed
        .iter()
        .all(|&s| candidates.iter().all(|&v| measured(v, s)))
    {
        let narrowest = (0..candidates.len())
            .min_by_key(|&i| (measured_in(candidates[i]), std::cmp::Reverse(i)))
            .expect("a scenario lacks a candidate, so one remains");
        candidates.remove(narrowest);
    }
    if candidates.is_empty() {
        return None;
    }
    let unweighed = measured_here
        .into_iter()
        .filter(|v| !candidates.contains(v))
        .map(|v| {
            let mut without: Vec<String> = Vec::new();
            for &s in weighed.iter().filter(|&&s| !measured(v, s)) {
                if !without.contains(&m.scenarios[s].machine) {
                    without.push(m.scenarios[s].machine.clone());
                }
            }
            (name(v).to_owned(), without)
        })
        .collect();
    Some(Weighed {
        candidates,
        scenarios: weighed,
        unweighed,
    })
}

/// Whether `machine`'s figures on level `m` show every one of `features`:
/// a variant needing it was measured there.
fn runs_tier(spec: &Spec, m: &Measured, machine: &str, features: &[String]) -> bool {
    let shown: Vec<&String> = (0..m.scenarios.len())
        .filter(|&s| m.scenarios[s].machine == machine)
        .flat_map(|s| m.figures[s].keys())
        .filter_map(|v| spec.variants.iter().find(|k| k.name == *v))
        .flat_map(|v| &v.features)
        .collect();
    features.iter().all(|f| shown.contains(&f))
}

/// The cell of `tier` at `regime` on level `m`; `None` when no candidate
/// was measured there.
pub(super) fn cell(spec: &Spec, m: &Measured, tier: &Tier, regime: Option<f64>) -> Option<Cell> {
    let name = |v: usize| spec.variants[v].name.as_str();
    let Weighed {
        candidates,
        scenarios,
        unweighed,
    } = measured_at(spec, m, tier, regime)?;
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
        unweighed,
    };
    cell.margin = candidates
        .iter()
        .filter(|&&v| v != chosen)
        .filter_map(|&v| Some((name(v).to_owned(), cell.ratio(name(v), name(chosen))?)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    Some(cell)
}
