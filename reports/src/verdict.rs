//! The verdict on one record compared across two runs (`compare`, `ab`),
//! apart from the comparison itself so that a results file can keep the
//! verdict `ab` reached beside its paired records.

use serde::{Deserialize, Serialize};

/// The outcome for one shared record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", content = "reason", rename_all = "snake_case")]
pub enum Verdict {
    /// Worse beyond the threshold.
    Regressed,
    /// Better beyond the threshold.
    Improved,
    /// Not shown to move beyond the threshold.
    NoChange,
    /// The evidence settles neither way: the interval straddles the
    /// threshold (for the stated reason). Never a failure of the gate.
    Inconclusive(String),
    /// A measured record became an error (wrong answer), a crash or a
    /// hang: gated like a regression.
    Broke(String),
    /// The base failed (crashed, hung) where the new build does not: said
    /// apart, and never a failure of the gate.
    Fixed(String),
    /// The records cannot be judged, for the stated reason.
    NotComparable(String),
}

impl Verdict {
    /// Whether this verdict fails the gate.
    pub fn fails(&self) -> bool {
        matches!(self, Verdict::Regressed | Verdict::Broke(_))
    }

    /// The verdict as a table cell.
    pub fn label(&self) -> String {
        match self {
            Verdict::Regressed => "REGRESSED".to_owned(),
            Verdict::Improved => "improved".to_owned(),
            Verdict::NoChange => "no change".to_owned(),
            Verdict::Inconclusive(why) => format!("inconclusive: {why}"),
            Verdict::Broke(why) => format!("BROKE: {why}"),
            Verdict::Fixed(why) => format!("fixed: {why}"),
            Verdict::NotComparable(why) => format!("not comparable: {why}"),
        }
    }
}
