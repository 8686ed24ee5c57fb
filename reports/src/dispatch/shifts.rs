//! [`shifts`]: where a written table runs another variant than newer
//! results choose, beyond what their intervals can tell apart.

use super::{Decision, Shift};

/// The places where `decision` chooses otherwise than an older table:
/// `old(target_cpu, tier features, regime)` names the variant the old
/// table runs for each cell of `decision` (`None`: it covers no such
/// place, which is not a shift).
///
/// A cell is a shift when the old variant differs from the chosen one and
/// is not tied with it there. Its margin is the old variant's time over
/// the chosen one's (geometric mean over the cell's scenarios), or
/// `f64::INFINITY` when the old variant is no candidate there at all:
/// ruled out, failed, or not measured.
pub fn shifts(
    decision: &Decision,
    old: impl Fn(&str, &[String], Option<f64>) -> Option<String>,
) -> Vec<Shift> {
    let mut out = Vec::new();
    for level in &decision.levels {
        for tier in &level.tiers {
            for cell in &tier.cells {
                let Some(was) = old(&level.target_cpu, &tier.features, cell.regime) else {
                    continue;
                };
                let margin = match cell.candidate(&was) {
                    _ if was == cell.chosen => continue,
                    Some(c) if c.tied => continue,
                    Some(_) => cell.ratio(&was, &cell.chosen).unwrap_or(f64::INFINITY),
                    None => f64::INFINITY,
                };
                out.push(Shift {
                    target_cpu: level.target_cpu.clone(),
                    features: tier.features.clone(),
                    regime: cell.regime,
                    old: was,
                    new: cell.chosen.clone(),
                    margin,
                });
            }
        }
    }
    out
}
