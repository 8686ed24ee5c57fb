//! A [`Spec`] from records alone, for a report that has no workload to ask.

use super::{Spec, VariantSpec};
use crate::results::{Metric, ResultsFile};

impl Spec {
    /// The spec the records of `workload` in `files` tell: its variants in
    /// order of first appearance (the oracle the records name first), each
    /// with the features its records declare ([`Record::features`]); the
    /// regime parameter when the workload's time records name exactly one
    /// parameter among them all; no target features per level, and
    /// nothing ruled out. A dispatcher's records are left out.
    ///
    /// [`Record::features`]: crate::results::Record::features
    pub fn from_records(workload: &str, files: &[&ResultsFile]) -> Spec {
        let mut variants: Vec<VariantSpec> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        let records = || files.iter().flat_map(|f| f.workload(workload));
        // A variant is a dispatcher when any of its records says so (a
        // setup record may not).
        let dispatchers: Vec<&str> = records()
            .filter(|r| r.dispatcher)
            .map(|r| r.variant.as_str())
            .collect();
        for r in records().filter(|r| !dispatchers.contains(&r.variant.as_str())) {
            if let Some(o) = r
                .oracle
                .as_deref()
                .filter(|o| !variants.iter().any(|v| v.name == *o))
            {
                variants.insert(
                    0,
                    VariantSpec {
                        name: o.to_owned(),
                        features: Vec::new(),
                    },
                );
            }
            match variants.iter_mut().find(|v| v.name == r.variant) {
                Some(v) if v.features.is_empty() => v.features.clone_from(&r.features),
                Some(_) => {}
                None => variants.push(VariantSpec {
                    name: r.variant.clone(),
                    features: r.features.clone(),
                }),
            }
            if r.metric == Metric::Time {
                for p in &r.parameters {
                    if !names.contains(&p.name.as_str()) {
                        names.push(&p.name);
                    }
                }
            }
        }
        Spec {
            workload: workload.to_owned(),
            parameter: match names[..] {
                [one] => Some(one.to_owned()),
                _ => None,
            },
            variants,
            ..Spec::default()
        }
    }
}
