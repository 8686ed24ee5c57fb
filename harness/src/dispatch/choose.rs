//! Choosing from a table: the ranges this build and CPU apply, and the
//! variant of the range a regime falls in.

use super::{Range, Table};
use crate::features;

impl Table {
    /// The ranges that apply to this build on this CPU: those of the first
    /// tier whose features the CPU has (detected at run time), in the first
    /// level whose target features this build was compiled with (the last
    /// level when none is); `None` when no tier applies.
    ///
    /// It detects the CPU's features on every call: a dispatching solver
    /// ([`Table::solver`]) calls it once, when it is built.
    pub fn ranges(&self) -> Option<&'static [Range]> {
        let level = self
            .levels
            .iter()
            .find(|l| l.target_features.iter().all(|f| features::compiled(f)))
            .or(self.levels.last())?;
        let tier = level.tiers.iter().find(|t| {
            t.features
                .iter()
                .all(|f| features::detected(f) == Some(true))
        })?;
        Some(tier.ranges)
    }

    /// The variant that runs an input of regime `regime` on this build and
    /// CPU ([`Table::ranges`]): a range holds the regimes from the previous
    /// range's `below` (included) to its own (excluded). A regime below the
    /// first range's start belongs to the first, one at or beyond the last
    /// `below` and NaN to the last. `None` when no tier applies.
    pub fn choose(&self, regime: f64) -> Option<&'static str> {
        let ranges = self.ranges()?;
        Some(ranges.get(index(ranges, regime))?.variant)
    }
}

/// The ranges a dispatcher runs: all of them when it chooses by a
/// `parameter`; without one, only the last (where NaN, no regime, falls; a
/// table written without a parameter has one range a tier).
pub(super) fn run(parameter: Option<&str>, ranges: &'static [Range]) -> &'static [Range] {
    match parameter {
        Some(_) => ranges,
        None => &ranges[ranges.len().saturating_sub(1)..],
    }
}

/// The index of the range of `ranges` (not empty) that `regime` falls in,
/// as [`Table::choose`] says.
///
/// It counts the boundaries at or below `regime` rather than searching
/// for the first above it: no branch per range, so inputs whose regimes
/// scatter around a boundary (a board's density around its set's) cost no
/// mispredictions.
#[inline(always)]
pub(super) fn index(ranges: &[Range], regime: f64) -> usize {
    let last = ranges.len().saturating_sub(1);
    if regime.is_nan() {
        return last;
    }
    let below = ranges[..last]
        .iter()
        .map(|r| usize::from(regime >= r.below));
    below.sum()
}
