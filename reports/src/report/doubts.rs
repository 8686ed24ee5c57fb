//! The time records whose figures may not hold (a busy or noisy machine),
//! which the summary counts and both pages list before anything is quoted.

use crate::dataset::Source;
use crate::disturbance::{Limits, concern};
use crate::results::{Metric, Record};

/// A time record that may not hold: the label of its file, the record,
/// and why.
pub(crate) struct Doubt<'a> {
    pub source: &'a str,
    pub record: &'a Record,
    pub why: String,
}

/// Why a time record's figure may not hold under `limits` (see
/// [`crate::disturbance::concern`]), if it may not.
pub(super) fn time_concern(r: &Record, limits: Limits) -> Option<String> {
    (r.metric == Metric::Time)
        .then(|| concern(r, limits).map(|c| c.why))
        .flatten()
}

/// Every time record of `sources` that may not hold under `limits`, in
/// file order.
pub(super) fn doubts(sources: &[Source], limits: Limits) -> Vec<Doubt<'_>> {
    sources
        .iter()
        .flat_map(|s| s.file.records.iter().map(move |r| (s.label.as_str(), r)))
        .filter_map(|(source, record)| {
            let why = time_concern(record, limits)?;
            Some(Doubt {
                source,
                record,
                why,
            })
        })
        .collect()
}
