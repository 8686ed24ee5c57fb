//! Which cases to count: every selected (workload, variant, input set),
//! verified natively first (as `bench` verifies before timing) and timed
//! once, so a case that would take minutes under callgrind is skipped
//! with its reason instead.

use super::{CountCase, QUICK, unavailable_here};
use crate::dyn_workload::DynWorkload;
use crate::engine::batch::{BatchError, BatchRequest};
use crate::error::Error;
use crate::fault::Excluded;
use crate::fault::beacon::{self, Batch, Step};
use reports::Status;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// What to count.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CountOptions {
    /// Variants to count; empty means all.
    pub variants: Vec<String>,
    /// Input sets; empty means the workload's quick bench sets.
    pub sets: Vec<String>,
    /// Generator seed.
    pub seed: u64,
    /// Cases whose batch takes longer natively are skipped.
    pub max_batch: Duration,
    /// Variants found to crash or hang natively: not counted.
    pub exclude: Vec<Excluded>,
}

/// Each case with its outcome, as a watched child returns them.
pub type Outcomes = Vec<(CountCase, Outcome)>;

/// A case's outcome: `Ok(elements)` when countable, else the record's
/// status and reason.
pub type Outcome = Result<u64, (Status, String)>;

/// A case and, once known, why it is not counted.
pub struct Planned<'a> {
    /// The workload.
    pub workload: &'a dyn DynWorkload,
    /// The case.
    pub case: CountCase,
    /// `Ok(elements)` when countable, else the record's status and reason.
    pub outcome: Outcome,
}

/// Lists the cases and verifies each natively; the outcome says which
/// are countable and how many elements one batch holds.
pub fn plan<'a>(
    workloads: &[&'a dyn DynWorkload],
    options: &CountOptions,
) -> Result<Vec<Planned<'a>>, Error> {
    let mut planned = Vec::new();
    for &w in workloads {
        let variants = w.variants();
        for name in &options.variants {
            if !variants.iter().any(|v| v.name == name) {
                let names: Vec<_> = variants.iter().map(|v| v.name).collect();
                return Err(Error::usage(format!(
                    "unknown variant '{name}' for workload '{}' (known: {})",
                    w.name(),
                    names.join(", ")
                )));
            }
        }
        for set in w.measured_sets(&options.sets, true) {
            for v in variants.iter().filter(|v| {
                options.variants.is_empty() || options.variants.iter().any(|n| n == v.name)
            }) {
                let request = BatchRequest {
                    variant: v.name,
                    set: &set,
                    seed: options.seed,
                    quick: QUICK,
                    verify: true,
                };
                let excluded = options.exclude.iter().find(|e| e.variant == v.name);
                let outcome = if let Some(e) = excluded {
                    Err((e.status, e.reason.clone()))
                } else {
                    match w.prepare_batch(&request) {
                        Err(BatchError::Skipped(_)) if v.unavailable.is_some() => Err((
                            Status::Skipped,
                            unavailable_here(v.unavailable.as_deref().unwrap_or_default()),
                        )),
                        Ok(mut batch) => {
                            let running = beacon::begin(|| {
                                let batch = Batch::Set { set: set.clone() };
                                Step::new(v.name, batch, options.max_batch)
                            });
                            let start = Instant::now();
                            batch.run();
                            let took = start.elapsed();
                            drop(running);
                            if took > options.max_batch {
                                Err((
                                    Status::Skipped,
                                    format!(
                                        "not counted: one batch takes {took:.2?} natively, over \
                                         --max-batch-ms {} (callgrind is ~50× slower)",
                                        options.max_batch.as_millis()
                                    ),
                                ))
                            } else {
                                Ok(batch.elements.expect("verified batches count elements"))
                            }
                        }
                        Err(BatchError::Skipped(reason)) => Err((Status::Skipped, reason)),
                        Err(BatchError::Wrong(reason)) => Err((Status::Error, reason)),
                        Err(BatchError::Invalid(e)) => return Err(e),
                    }
                };
                planned.push(Planned {
                    workload: w,
                    case: CountCase {
                        workload: w.name().to_owned(),
                        variant: v.name.to_owned(),
                        set: set.clone(),
                    },
                    outcome,
                });
            }
        }
    }
    Ok(planned)
}
