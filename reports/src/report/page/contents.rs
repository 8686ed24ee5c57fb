//! What both pages show, and the words they share: the lines naming a
//! run's machine and build, the level tables' sentences and cells, and the
//! warning that opens a page whose records may not hold. Each page wraps
//! them in its own markup.

use crate::dataset::Source;
use crate::disturbance::Limits;
use crate::numbers;
use crate::plan::{LevelCell, LevelTable, ns};
use crate::report::doubts::Doubt;
use crate::report::ipc::{Ipc, Seen};
use crate::report::options::ReportOptions;
use crate::report::summary::SummaryRow;
use crate::report::written::{FigureTable, Report};
use crate::results::Record;
use std::fmt::Write;

/// Everything the two pages show.
pub(crate) struct Contents<'a> {
    pub sources: &'a [Source],
    pub report: &'a Report,
    pub summary: &'a [SummaryRow],
    pub levels: &'a [LevelTable],
    pub ipc: &'a Ipc,
    pub not_measured: &'a [(String, &'a Record)],
    /// The time records that may not hold.
    pub doubts: &'a [Doubt<'a>],
    /// How uncertain a time record may be before the pages mark it.
    pub limits: Limits,
    pub options: &'a ReportOptions,
}

/// The mark of a record (or a workload's row) that may not hold.
pub(super) const MARK: &str = "⚠";

/// The heading of the list of records that may not hold.
pub(super) const DOUBTS: &str = "Records that may not hold";

/// Most not-measured records listed individually on a page.
pub(super) const MAX_LISTED: usize = 60;

/// What the flame graphs section says its graphs show.
pub(super) const FLAMEGRAPHS: &str = "Where each counted record spends its instructions, \
     from its callgrind profile of one batch: a frame is as wide as the \
     instructions of its function and what it calls from there; recursion \
     shows as one frame.";

/// The line that introduces a chart's growth laws.
pub(super) const LAWS: &str = "Growth laws of the time per input (fitted to a + b·g(n); how a law is chosen and how far to trust it: bitbench's docs/report.md, *How cost grows*):";

/// The line that introduces a chart's table of figures.
pub(super) fn figures_sentence(t: &FigureTable) -> String {
    format!(
        "Figures: {}, median (95 % interval, min–max where too few samples; none where not drawn); rows: {}; columns: {}.",
        t.quantity, t.rows_name, t.columns_name
    )
}

/// The machine of a run; named only when the report holds several.
pub(super) fn machine_line(s: &Source, named: bool) -> String {
    let m = &s.file.machine;
    let name = if named {
        format!("{}: ", m.name)
    } else {
        String::new()
    };
    format!(
        "{name}{} ({} cores), {}, {}",
        if m.cpu_model.is_empty() {
            "unknown CPU"
        } else {
            &m.cpu_model
        },
        m.cores,
        if m.os.is_empty() { "unknown OS" } else { &m.os },
        if m.rustc.is_empty() {
            "unknown rustc"
        } else {
            &m.rustc
        }
    )
}

/// The build of a run: its target-cpu, profile and features, and the
/// environment its kernels ran with.
pub(super) fn build_line(s: &Source) -> String {
    let b = &s.file.build;
    let mut line = format!(
        "target-cpu {}, profile {}",
        if b.target_cpu.is_empty() {
            "default"
        } else {
            &b.target_cpu
        },
        if b.profile.is_empty() {
            "unknown"
        } else {
            &b.profile
        }
    );
    if !b.features.is_empty() {
        let _ = write!(line, ", features {}", b.features.join(","));
    }
    let environment = crate::environment::describe(s.file.environment.as_ref());
    let _ = write!(line, "; environment: {environment}");
    line
}

/// The commit a run measured, `unknown` when it was not recorded.
pub(super) fn commit(s: &Source) -> &str {
    s.file.machine.git_commit.as_deref().unwrap_or("unknown")
}

/// The sentence naming each level's speed-up over the baseline, e.g.
/// `Over x86-64: x86-64-v3 1.93× (4 variants), native 6.50× (4 variants).`
pub(super) fn level_sentence(t: &LevelTable) -> String {
    let parts: Vec<String> = t
        .groups
        .iter()
        .zip(&t.overall)
        .filter(|(g, _)| **g != t.baseline)
        .map(|(g, o)| match o {
            Some((m, n)) => format!(
                "{g} {m:.2}× ({n} variant{})",
                if *n == 1 { "" } else { "s" }
            ),
            None => format!("{g} not measured"),
        })
        .collect();
    format!(
        "Speed-up over {} (geometric mean over variants of each variant's speed-up, itself over the input sets it ran at every level): {}.",
        t.baseline,
        parts.join(", ")
    )
}

/// A level-table cell: the time per element and its speed-up.
pub(super) fn level_cell(cell: &Option<LevelCell>) -> String {
    match cell {
        Some((ns, Some(s))) => format!("{} ({s:.2}×)", numbers::time(*ns)),
        Some((ns, None)) => numbers::time(*ns),
        None => "-".to_owned(),
    }
}

/// The heading of the instructions-per-cycle tables.
pub(super) const IPC: &str = "Instructions per cycle";

/// What the instructions-per-cycle section shows.
pub(super) const IPC_INTRO: &str = "Instructions per element (counted under valgrind by `count`) over cycles per element (timed by `bench`, with the core clock calibrated between its samples), for the same variant, input set, target-cpu and build on one machine.";

/// What the by-level instructions-per-cycle table shows.
pub(super) const IPC_LEVELS: &str = "By target-cpu level: each variant's geometric mean over the input sets it has a figure for at every level.";

/// The sentence under an IPC table when the counted processes saw less
/// of the CPU than the timed ones; `None` when they saw the same.
pub(super) fn seen_sentence(seen: &Seen) -> Option<String> {
    match seen {
        Seen::Same => None,
        Seen::Lacking(features) => Some(format!(
            "The counted processes did not see {} (valgrind hides them): a variant that picks its code path by CPU feature may have been counted on another path than it was timed on; dispatchers are left out.",
            features.join(", ")
        )),
        Seen::Unknown => Some("A results file does not say which CPU features the processes of its figures saw (it predates the record, or merges runs that saw different ones): a variant that picks its code path by CPU feature may have been counted on another path than it was timed on; dispatchers are left out.".to_owned()),
    }
}

/// An IPC cell: two decimals, or `-`.
pub(super) fn ipc_cell(ipc: &Option<f64>) -> String {
    ipc.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

/// The paragraph that opens a page whose results hold `n` time records
/// that may not hold under `limits`, saying what marks them and where
/// `list` (a link to the list in the page's markup) lists them; `None`
/// when there are none. Fixed text and numbers only, so it needs no
/// escaping.
pub(super) fn doubt_paragraph(n: usize, limits: Limits, list: &str) -> Option<String> {
    let (s, were, their, them) = match n {
        0 => return None,
        1 => ("", "was", "its", "it"),
        _ => ("s", "were", "their", "them"),
    };
    Some(format!(
        "{MARK} {n} time record{s} {were} measured on a busy or noisy machine ({:.0} % or more of the samples disturbed, or a 95 % interval wider than ±{} %): the figure{s} may not hold. The summary marks {their} workload{s} {MARK}, and {list} lists {them}.",
        limits.share * 100.0,
        limits.resolution_pct
    ))
}

/// A summary row's workload, marked when some of its records may not hold.
pub(super) fn workload_cell(r: &SummaryRow) -> String {
    if r.doubtful == 0 {
        r.workload.clone()
    } else {
        format!("{} {MARK}", r.workload)
    }
}

/// A doubtful record's median, as tables print times.
pub(super) fn doubt_median(d: &Doubt<'_>) -> String {
    ns(d.record).map_or_else(|| "-".to_owned(), numbers::time)
}
