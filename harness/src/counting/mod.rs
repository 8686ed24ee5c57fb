//! Instruction counts through gungraun, generated from the registry.
//!
//! A [`CountPlan`] lists one [`CountCase`] per (workload, variant, input
//! set). It becomes a gungraun binary-benchmark group: each case runs
//! `bitbench count --run-case ...` under callgrind, and gungraun's entry
//! point restricts counting to [`counted_region`] — one pass over a batch
//! prepared beforehand — so generating inputs and building solvers never
//! count. `bitbench count` and `cargo bench --bench instructions` share
//! this module; the former parses gungraun's JSON summaries into records.
//!
//! By concern, one file each: `plan` verifies the cases natively, `probe`
//! asks valgrind what it can run, `tools` checks the installed tools,
//! `gungraun` is the harness glue, `summary` turns gungraun's output into
//! records.

mod gungraun;
mod plan;
mod summary;
mod tools;
mod under_valgrind;

pub use gungraun::{CACHES, bench_main, gungraun_entry};
pub use plan::{CountOptions, Outcome, Outcomes, Planned, plan};
pub use summary::{Cache, Summary, metrics, parse_summaries, profiles, records};
pub use tools::{GUNGRAUN_VERSION, check_tools, install_hint, install_tools};
pub use under_valgrind::{
    mark_unrunnable, not_countable, unavailable_here, valgrind_availability, valgrind_features,
};

use crate::dyn_workload::DynWorkload;
use crate::engine::batch::{BatchError, BatchRequest, PreparedBatch};
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

/// Environment variable carrying the plan (JSON) to the gungraun harness
/// that `bitbench count` starts as a child process of itself.
pub const PLAN_ENV: &str = "BITBENCH_COUNT_PLAN";

/// Instruction counts are exact, so every count uses the quick batch size.
pub(crate) const QUICK: bool = true;

/// Cases whose batch takes longer than this natively are not counted by
/// default: callgrind runs code about 50 times slower.
pub const DEFAULT_MAX_BATCH: Duration = Duration::from_millis(250);

/// One (workload, variant, input set) to count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountCase {
    /// Workload name.
    pub workload: String,
    /// Variant name.
    pub variant: String,
    /// Input set (expanded).
    pub set: String,
}

impl CountCase {
    /// gungraun's binary-benchmark id: one per (workload, variant).
    pub fn benchmark_id(&self) -> String {
        gungraun_id(&format!("{}__{}", self.workload, self.variant))
    }

    /// gungraun's bench id: one per (workload, set), so `compare_by_id`
    /// lines up the variants of a workload on the same inputs.
    pub fn bench_id(&self) -> String {
        gungraun_id(&format!("{}__{}", self.workload, self.set))
    }
}

/// Maps a name onto gungraun's id alphabet (`[A-Za-z_][A-Za-z0-9_]*`).
fn gungraun_id(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        id.insert(0, '_');
    }
    id
}

/// What the gungraun harness runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CountPlan {
    /// The `bitbench` executable each case runs.
    pub bitbench: PathBuf,
    /// Generator seed.
    pub seed: u64,
    /// The cases, each countable under valgrind.
    pub cases: Vec<CountCase>,
    /// Simulate caches too, with the fixed sizes of [`CACHES`]: D1 and LL
    /// misses and estimated cycles besides instructions, at 1.4 to 1.7
    /// times the run time (`bitbench count --cache`).
    pub cache_sim: bool,
}

impl CountPlan {
    /// Fails when two cases would get the same gungraun ids.
    pub fn check_ids(&self) -> Result<(), String> {
        let mut seen = HashMap::new();
        for case in &self.cases {
            if let Some(other) = seen.insert((case.benchmark_id(), case.bench_id()), case) {
                return Err(format!(
                    "{}/{}/{} and {}/{}/{} map to the same gungraun id",
                    other.workload, other.variant, other.set, case.workload, case.variant, case.set
                ));
            }
        }
        Ok(())
    }
}

/// Only this function's instructions are counted (gungraun's entry point).
#[inline(never)]
pub fn counted_region(batch: &mut PreparedBatch) {
    batch.run();
}

/// Runs one case inside valgrind: prepare (uncounted), then one counted
/// pass. Errors are one line for gungraun's log.
pub fn run_case(w: &dyn DynWorkload, variant: &str, set: &str, seed: u64) -> Result<(), Error> {
    let workload = w.name();
    let mut batch = w
        .prepare_batch(&BatchRequest {
            variant,
            set,
            seed,
            quick: QUICK,
            verify: false,
        })
        .map_err(|e| match e {
            BatchError::Skipped(r) | BatchError::Wrong(r) => {
                Error::usage(format!("{workload}/{variant} on {set}: {r}"))
            }
            BatchError::Invalid(e) => e,
        })?;
    counted_region(std::hint::black_box(&mut batch));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_fit_gungraun_and_stay_distinct() {
        let case = CountCase {
            workload: "components-groups4".into(),
            variant: "row-table".into(),
            set: "density:0.5".into(),
        };
        assert_eq!(case.benchmark_id(), "components_groups4__row_table");
        assert_eq!(case.bench_id(), "components_groups4__density_0_5");
        assert_eq!(gungraun_id("9x"), "_9x");
        let clash = CountCase {
            set: "density_0.5".into(),
            ..case.clone()
        };
        let plan = CountPlan {
            bitbench: "bitbench".into(),
            seed: 1,
            cases: vec![case, clash],
            cache_sim: false,
        };
        assert!(plan.check_ids().unwrap_err().contains("same gungraun id"));
    }
}
