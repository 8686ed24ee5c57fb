//! Dispatch at run time from a table of measured decisions: which variant
//! runs an input, by the CPU's features and the input's regime.
//!
//! `bitbench dispatch` writes the table as Rust source (a `const`
//! [`Table`] and a `choose` function) from results files; the adapter
//! registers it as one more variant, and the harness then checks, measures
//! and draws it like any other. The table keeps apart what the build
//! decided at compile time (a [`Level`]'s target features, from a
//! target-cpu level) and what the CPU says at run time (a [`Tier`]'s
//! features), so a variant whose features this CPU lacks is never chosen.
//!
//! Why a variant of its own rather than a choice the user makes: the best
//! variant often depends on the input (a short buffer against a long one)
//! and on the CPU, and the measurements say where. Run as a variant, the
//! dispatcher is checked against the oracle like the others (a
//! disagreement names the variant it chose) and timed with the cost of
//! choosing inside its time, so the report shows what dispatching gains
//! over the best fixed variant, and what it costs.
//!
//! The adapter registers a table beside its fixed variants, never as the
//! oracle or the default:
//!
//! ```ignore
//! // in `variants()`
//! v.push(dispatch::TABLE.variant());
//! // in `solver(variant)`
//! if variant == dispatch::TABLE.name {
//!     return dispatch::TABLE.solver(self);
//! }
//! ```
//!
//! [`Table::ranges`] picks the tier once for this build and CPU;
//! [`Table::choose`] reads the variant of one regime; [`Table::solver`]
//! builds the solver that runs each input's variant. The solver computes
//! the regime ([`Workload::regime`](crate::Workload::regime)) of a sample
//! of each batch (all of a small one) and runs a batch whose sample lies
//! in one range as one call to that variant; a mixed batch is split into
//! runs of one variant, or, where the runs are short, gathered by variant
//! so each still gets its inputs in one call.
//!
//! Why a sample and not every input: reading every input's regime costs
//! about 0.4 ns an input (popcount's buffer lengths), a quarter of the time
//! of an 8-byte buffer, where a dispatcher must cost next to nothing. The
//! price is that an input between the samples of a large batch, in another
//! range than they are, runs on the batch's variant: the same answer at
//! that variant's speed.

mod choose;
mod chooser;
mod dispatcher;
mod prepared;
mod solver;
mod split;
#[cfg(test)]
pub(crate) mod tests;
mod variant;

/// A dispatcher's decisions: per target-cpu level, per feature tier, the
/// variant for each range of the regime.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Table {
    /// The dispatching variant's registry name, e.g. `dispatch`.
    pub name: &'static str,
    /// The workload it dispatches, as registered.
    pub workload: &'static str,
    /// The input-set parameter it chooses by
    /// ([`Workload::regime_parameter`](crate::Workload::regime_parameter));
    /// `None`: by CPU features only.
    pub parameter: Option<&'static str>,
    /// The levels, the most demanding first: the first whose target
    /// features this build was compiled with applies.
    pub levels: &'static [Level],
}

/// The decisions measured with one target-cpu level's build.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The `-C target-cpu` level measured (`default`, `x86-64-v3`, ...).
    pub target_cpu: &'static str,
    /// The target features that level compiles in (`cfg!(target_feature)`):
    /// the level applies to a build that has all of them.
    pub target_features: &'static [&'static str],
    /// The tiers, the most demanding first: the first whose features this
    /// CPU has applies.
    pub tiers: &'static [Tier],
}

/// The decisions for a CPU with a set of features, detected at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tier {
    /// The features a CPU needs for this tier (all of them).
    pub features: &'static [&'static str],
    /// The variant for each range of the regime, in increasing order.
    pub ranges: &'static [Range],
}

/// The variant for the regimes below `below` (and at or above the previous
/// range's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// The range's end, exclusive; `f64::INFINITY` for the last.
    pub below: f64,
    /// The variant that runs there.
    pub variant: &'static str,
}

mod registry;

pub(crate) use registry::is_dispatching;
