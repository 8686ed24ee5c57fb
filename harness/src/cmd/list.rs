//! `bitbench list`: every (workload, variant) and whether it runs here.

use crate::entry::Suite;
use crate::error::Error;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write as _;

/// One row of `list --json`; other tools script against these fields.
#[derive(Serialize)]
struct Entry {
    workload: &'static str,
    variant: &'static str,
    description: &'static str,
    /// The workload's declared default: what `solve` runs without `--variant`.
    default: bool,
    available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// `bitbench list`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Print a JSON array of {workload, variant, description, default, available, reason}.
    #[arg(long)]
    json: bool,
    /// Print the CPU features this process detects at run time instead,
    /// one per line: what a variant that dispatches by itself sees here
    /// (under valgrind, without AVX-512).
    #[arg(long, conflicts_with = "json")]
    features: bool,
}

/// Prints the registry as a table or, with `--json`, a JSON array.
///
/// The text is written in one go and a closed pipe (`bitbench list | head`)
/// ends the output quietly instead of panicking like `println!` would.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let text = if args.features {
        crate::features::detected_names()
            .iter()
            .map(|f| format!("{f}\n"))
            .collect()
    } else {
        render(suite, args.json)
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(())
}

fn render(suite: &Suite, json: bool) -> String {
    let entries: Vec<Entry> = suite
        .workloads()
        .iter()
        .flat_map(|w| {
            w.variants().into_iter().map(|v| Entry {
                workload: w.name(),
                variant: v.name,
                description: v.description,
                default: v.name == w.default_variant(),
                available: v.unavailable.is_none(),
                reason: v.unavailable,
            })
        })
        .collect();
    if json {
        return serde_json::to_string_pretty(&entries).expect("entries serialise") + "\n";
    }
    let mut out = String::new();
    for w in suite.workloads() {
        let _ = writeln!(
            out,
            "{} — {} (unit: {})",
            w.name(),
            w.description(),
            w.unit()
        );
        for e in entries.iter().filter(|e| e.workload == w.name()) {
            let mut status = match &e.reason {
                None => String::new(),
                Some(r) => format!("  [unavailable: {r}]"),
            };
            if e.default {
                status += "  [default]";
            }
            let _ = writeln!(out, "  {:<18} {}{status}", e.variant, e.description);
        }
        out += "  input sets:\n";
        for (pattern, description) in w.input_sets().iter().flat_map(|s| s.help()) {
            let _ = writeln!(out, "    {pattern:<18} {description}");
        }
        out += "\n";
    }
    out
}
