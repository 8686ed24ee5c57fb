//! Decisions from measurements: which variant to run, by CPU features and
//! by the input's regime, read from one or more results files.
//!
//! `bitbench dispatch` prints these decisions as a table and writes them as
//! Rust source; `report` draws them as a decision map; `dispatch --check`
//! compares a written table with what newer results would decide. All
//! three start from [`decide`]. The rules:
//!
//! - A variant is chosen only where its advantage is beyond its interval:
//!   among the candidates whose 95 % intervals overlap the fastest's, the
//!   simplest wins (fewest required features, then the earliest listed).
//! - A variant the workload's cost model rules out for a regime
//!   ([`Spec::ruled_out`]) is never chosen there, and neither is one that
//!   gave a wrong answer in any file.
//! - Across machines (and, without a regime parameter, across input sets),
//!   the variant with the smallest worst-case loss against each one's best
//!   wins; the machines whose own best differs beyond the intervals are
//!   named. Every machine that can run a tier weighs in on it: a variant
//!   one of them did not measure is left out there, never the machine.
//! - Between two measured regimes with different winners, the boundary
//!   lies where the two winners' times cross: their log time ratio,
//!   interpolated linearly in the log of the parameter, is zero there (the
//!   geometric mean of the two points when it does not cross, the change
//!   being a tie broken by simplicity).
//!
//! [`decide`] applies them, [`shifts`] compares a decision with an older
//! table's, [`table_text`] prints one; [`Spec::from_records`] makes a spec
//! from the records alone, for the report's decision map.

mod boundary;
mod cell;
mod decide;
mod measured;
mod shifts;
mod spec;
mod table;
mod tiers;

#[cfg(test)]
mod tests;

pub use decide::decide;
pub use shifts::shifts;
pub(crate) use table::regime_label;
pub use table::table_text;

use std::collections::BTreeMap;

/// What [`decide`] needs to know about the workload, beyond the records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    /// The workload's registry name.
    pub workload: String,
    /// The input-set parameter the regime is (`bytes`, `density`); `None`:
    /// decide by CPU features only, over every input set.
    pub parameter: Option<String>,
    /// Every variant that may be chosen, in the workload's list order, with
    /// the CPU features it needs (detected at run time). A dispatching
    /// variant is left out, or it would choose itself.
    pub variants: Vec<VariantSpec>,
    /// Variants the workload's cost model (`skip`, `impractical`) rules out
    /// on an input set: never chosen at that set's regime.
    pub ruled_out: Vec<RuledOut>,
    /// The target features each target-cpu level compiles in (`default`:
    /// none), for the levels found in the files.
    pub level_features: BTreeMap<String, Vec<String>>,
}

/// One variant that may be chosen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VariantSpec {
    /// Registry name.
    pub name: String,
    /// The CPU features it needs, by the names of `is_x86_feature_detected!`.
    pub features: Vec<String>,
}

/// A variant the cost model refuses on an input set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuledOut {
    /// The variant.
    pub variant: String,
    /// The input set, as records name it.
    pub input_set: String,
    /// The cost model's reason.
    pub reason: String,
}

/// A measured variant's figure in one scenario (a machine's time on the
/// sets at one regime).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Median time per element.
    pub median: f64,
    /// The 95 % interval of the median; the median alone where the record
    /// has none.
    pub low: f64,
    /// See `low`.
    pub high: f64,
}

/// One candidate in a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Registry name.
    pub variant: String,
    /// Its worst-case loss against each scenario's fastest, as a fraction
    /// (0.25: 25 % slower than the best somewhere).
    pub worst_loss: f64,
    /// Whether its intervals overlap the chosen variant's in every
    /// scenario: choosing it instead would be no change beyond the
    /// intervals.
    pub tied: bool,
    /// Its figure in each of the cell's scenarios, in nanoseconds per
    /// element, in the order of [`Cell::scenarios`].
    pub figures: Vec<Figure>,
}

/// The decision at one measured regime (or, without a parameter, over all
/// sets) for one tier.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The parameter's value; `None` without a parameter.
    pub regime: Option<f64>,
    /// The input sets measured there.
    pub sets: Vec<String>,
    /// The scenarios the choice weighed, `(machine, input set)`: every
    /// machine whose records show it can run the tier, each with a figure
    /// of every candidate.
    pub scenarios: Vec<(String, String)>,
    /// The variant chosen.
    pub chosen: String,
    /// Its worst-case loss against the per-scenario best (0 when it is the
    /// fastest everywhere).
    pub loss: f64,
    /// The margin it wins by: the runner-up's time over its own, as a
    /// ratio (1.25: the next best is 25 % slower), with the runner-up's
    /// name; `None` when it is the only candidate.
    pub margin: Option<(String, f64)>,
    /// The loss here of the tier's best single fixed variant.
    pub fixed_loss: f64,
    /// Every candidate measured here, in the workload's list order.
    pub candidates: Vec<Candidate>,
    /// Machines whose own best is another variant, beyond the intervals:
    /// `(machine, its best)`.
    pub disagree: Vec<(String, String)>,
    /// Variants of the tier measured here but left out of the choice,
    /// because a machine that takes part did not measure them:
    /// `(variant, those machines)`.
    pub unweighed: Vec<(String, Vec<String>)>,
}

impl Cell {
    /// The candidate named `variant`, if it is one here.
    pub fn candidate(&self, variant: &str) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.variant == variant)
    }

    /// How much slower `variant` is than `over` here: the geometric mean
    /// over the scenarios of their median times' ratio (1.25: 25 %
    /// slower); `None` unless both are candidates.
    pub fn ratio(&self, variant: &str, over: &str) -> Option<f64> {
        let (a, b) = (self.candidate(variant)?, self.candidate(over)?);
        let ratios = a.figures.iter().zip(&b.figures);
        crate::interval::geomean(ratios.map(|(a, b)| a.median / b.median))
    }
}

/// The decisions for CPUs with a set of runtime features.
#[derive(Clone, Debug, PartialEq)]
pub struct TierDecision {
    /// The features a CPU needs for this tier (empty: any CPU).
    pub features: Vec<String>,
    /// One cell per measured regime, in increasing order.
    pub cells: Vec<Cell>,
    /// The variant per range: `(below, variant)`, increasing, the last
    /// `below` infinite.
    pub ranges: Vec<(f64, String)>,
    /// The best single fixed variant of this tier (least worst-case loss
    /// over every cell) and that loss.
    pub fixed: (String, f64),
}

/// The decisions measured with one target-cpu level's build.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelDecision {
    /// The target-cpu level (`default`, `x86-64-v3`, ...).
    pub target_cpu: String,
    /// The target features it compiles in.
    pub target_features: Vec<String>,
    /// Tiers, the most demanding first; the last needs no feature beyond
    /// what every CPU of the level has.
    pub tiers: Vec<TierDecision>,
}

/// Where a decision's figures came from.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceInfo {
    /// The file's label (its path as given).
    pub label: String,
    /// The machine's name.
    pub machine: String,
    /// Its CPU model.
    pub cpu_model: String,
    /// When the run started.
    pub date: String,
}

impl SourceInfo {
    /// The machine as a phrase: its name, and its CPU model where the name
    /// does not already say it (a default name is the host and the model).
    pub fn machine_phrase(&self) -> String {
        if self.machine.contains(&self.cpu_model) {
            format!("machine \"{}\"", self.machine)
        } else {
            format!("machine \"{}\" ({})", self.machine, self.cpu_model)
        }
    }
}

/// A workload's decisions.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The workload.
    pub workload: String,
    /// The regime parameter, if any.
    pub parameter: Option<String>,
    /// Levels, the most demanding first.
    pub levels: Vec<LevelDecision>,
    /// The files decided from.
    pub sources: Vec<SourceInfo>,
}

/// A place where newer results would decide differently, beyond the
/// intervals (see [`shifts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Shift {
    /// The target-cpu level.
    pub target_cpu: String,
    /// The tier's features (empty: any CPU).
    pub features: Vec<String>,
    /// The regime; `None` without a parameter.
    pub regime: Option<f64>,
    /// The variant the old table runs there.
    pub old: String,
    /// The variant the results now choose.
    pub new: String,
    /// How much slower the old variant now is than the new one (1.2: 20 %).
    pub margin: f64,
}
