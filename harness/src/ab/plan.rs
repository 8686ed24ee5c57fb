//! The records `ab` compares: which (workload, variant, input set) the
//! options and the builds' own lists of workloads make.

use super::build::Build;
use super::options::Options;
use crate::attribution;
use crate::engine::serve::HelloWorkload;
use crate::entry::Suite;
use crate::error::Error;

/// One (workload, variant, input set) to compare.
#[derive(Clone, Debug)]
pub struct Planned {
    /// Workload name.
    pub workload: String,
    /// Variant name.
    pub variant: String,
    /// Input set.
    pub set: String,
    /// The workload's unit, singular.
    pub unit: String,
    /// The unit's plural, where the build says (protocol 2).
    pub plural: Option<String>,
}

/// The records to compare: from A's own list when it has serve mode (else
/// B's, else this program's), the variants and sets asked for, each
/// workload's declared default variant and quick sets otherwise.
pub fn plan(suite: &Suite, options: &Options, a: &Build, b: &Build) -> Result<Vec<Planned>, Error> {
    let hello = a
        .child
        .as_ref()
        .or(b.child.as_ref())
        .map(|(_, h)| h.clone());
    let listed: Vec<HelloWorkload> = match hello {
        Some(h) => h.workloads,
        None => suite.workloads().iter().map(|w| w.hello()).collect(),
    };
    for name in &options.workloads {
        if !listed.iter().any(|w| &w.name == name) {
            let known: Vec<_> = listed.iter().map(|w| w.name.as_str()).collect();
            return Err(Error::usage(format!(
                "unknown workload '{name}' (known: {})",
                known.join(", ")
            )));
        }
    }
    let mut planned = Vec::new();
    for w in listed {
        if !options.workloads.is_empty() && !options.workloads.contains(&w.name) {
            continue;
        }
        let variants = if options.variants.is_empty() {
            vec![w.default_variant]
        } else {
            options.variants.clone()
        };
        let sets = if options.sets.is_empty() {
            w.sets
        } else {
            options.sets.clone()
        };
        for variant in &variants {
            for set in &sets {
                planned.push(Planned {
                    workload: w.name.clone(),
                    variant: variant.clone(),
                    set: set.clone(),
                    unit: w.unit.clone(),
                    plural: w.plural.clone(),
                });
            }
        }
    }
    if planned.is_empty() {
        return Err(Error::usage("ab: nothing to compare"));
    }
    Ok(planned)
}

impl Planned {
    /// A file-name stem for the record.
    pub fn stem(&self) -> String {
        attribution::file_stem(&[&self.workload, &self.variant, &self.set])
    }
}
