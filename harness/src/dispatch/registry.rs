//! Which variants are dispatchers: so that deciding leaves them out (a
//! dispatcher is never a candidate of the decision it came from) and
//! results files mark their records.
//!
//! A [`Table`](super::Table) notes its variant here when it registers it
//! ([`Table::variant`](super::Table::variant)), which every program does
//! when it starts and checks its workloads: no line in the adapter.

use std::sync::Mutex;

/// `(workload, variant)` of every dispatching variant registered so far.
static DISPATCHING: Mutex<Vec<(&str, &str)>> = Mutex::new(Vec::new());

/// Notes that `variant` of `workload` is a dispatcher.
pub(crate) fn note(workload: &'static str, variant: &'static str) {
    let mut noted = DISPATCHING.lock().unwrap_or_else(|e| e.into_inner());
    if !noted.contains(&(workload, variant)) {
        noted.push((workload, variant));
    }
}

/// Whether `variant` of `workload` is a dispatcher.
pub(crate) fn is_dispatching(workload: &str, variant: &str) -> bool {
    DISPATCHING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .any(|&(w, v)| w == workload && v == variant)
}
