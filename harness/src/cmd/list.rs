//! `bitbench list`: every (workload, variant) and whether it runs here.

use crate::workloads;
use serde::Serialize;

/// One row of `list --json`; other tools script against these fields.
#[derive(Serialize)]
struct Entry {
    workload: &'static str,
    variant: &'static str,
    description: &'static str,
    available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// Prints the registry as a table or, with `json`, a JSON array.
pub fn run(json: bool) {
    let entries: Vec<Entry> = workloads::all()
        .iter()
        .flat_map(|w| {
            w.variants().into_iter().map(|v| Entry {
                workload: w.name(),
                variant: v.name,
                description: v.description,
                available: v.unavailable.is_none(),
                reason: v.unavailable,
            })
        })
        .collect();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&entries).expect("entries serialise")
        );
        return;
    }
    for w in workloads::all() {
        println!("{} — {} (unit: {})", w.name(), w.description(), w.unit());
        for e in entries.iter().filter(|e| e.workload == w.name()) {
            let status = match &e.reason {
                None => String::new(),
                Some(r) => format!("  [unavailable: {r}]"),
            };
            println!("  {:<18} {}{status}", e.variant, e.description);
        }
        println!("  input sets:");
        for s in w.input_sets() {
            println!("    {:<18} {}", s.pattern, s.description);
        }
        println!();
    }
}
