//! The two pages of a report: `index.html` for browsers and CI artifacts,
//! `report.md` for pasting into write-ups. Both show the same charts,
//! linked relatively, with the runs' machines and commands, and both say
//! first which time records may not hold: a figure measured on a busy
//! machine must not be quoted as if it were not.

use crate::dataset::Source;
use crate::disturbance::Limits;
use crate::numbers;
use crate::plan::{LevelCell, LevelTable, ns};
use crate::report::{Doubt, Report, ReportOptions, SummaryRow};
use crate::results::Record;
use std::fmt::Write;

/// Everything the two pages show.
pub(crate) struct Contents<'a> {
    pub sources: &'a [Source],
    pub report: &'a Report,
    pub summary: &'a [SummaryRow],
    pub levels: &'a [LevelTable],
    pub not_measured: &'a [(String, &'a Record)],
    /// The time records that may not hold.
    pub doubts: &'a [Doubt<'a>],
    pub options: &'a ReportOptions,
}

/// The mark of a record (or a workload's row) that may not hold.
const MARK: &str = "⚠";

/// The heading of the list of records that may not hold, and its
/// anchor on the HTML page.
const DOUBTS: &str = "Records that may not hold";
const DOUBTS_ID: &str = "may-not-hold";

/// Most not-measured records listed individually on a page.
const MAX_LISTED: usize = 60;

/// What the flame graphs section says its graphs show.
const FLAMEGRAPHS: &str = "Where each counted record spends its instructions, \
     from its callgrind profile of one batch: a frame is as wide as the \
     instructions of its function and what it calls from there; recursion \
     shows as one frame.";

pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Markdown table cell: no pipes or newlines.
pub(crate) fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The machine of a run; named only when the report holds several.
fn machine_line(s: &Source, named: bool) -> String {
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

fn build_line(s: &Source) -> String {
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
    line
}

fn commit(s: &Source) -> &str {
    s.file.machine.git_commit.as_deref().unwrap_or("unknown")
}

/// The sentence naming each level's speed-up over the baseline, e.g.
/// `Over x86-64: x86-64-v3 1.93× (4 variants), native 6.50× (4 variants).`
fn level_sentence(t: &LevelTable) -> String {
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
fn level_cell(cell: &Option<LevelCell>) -> String {
    match cell {
        Some((ns, Some(s))) => format!("{} ({s:.2}×)", numbers::time(*ns)),
        Some((ns, None)) => numbers::time(*ns),
        None => "-".to_owned(),
    }
}

/// The paragraph that opens a page whose results hold `n` time records
/// that may not hold under `limits`, saying what marks them and where
/// `list` (a link to the list in the page's markup) lists them; `None`
/// when there are none. Fixed text and numbers only, so it needs no
/// escaping.
fn doubt_paragraph(n: usize, limits: Limits, list: &str) -> Option<String> {
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
fn workload_cell(r: &SummaryRow) -> String {
    if r.doubtful == 0 {
        r.workload.clone()
    } else {
        format!("{} {MARK}", r.workload)
    }
}

/// A doubtful record's median, as tables print times.
fn doubt_median(d: &Doubt<'_>) -> String {
    ns(d.record).map_or_else(|| "-".to_owned(), numbers::time)
}

/// The list of records that may not hold, as an HTML section.
fn doubts_html(doubts: &[Doubt<'_>]) -> String {
    let mut h = format!(
        "<h2 id=\"{DOUBTS_ID}\">{DOUBTS}</h2>\n<table>\n<tr><th></th><th>results</th><th>workload</th><th>variant</th><th>input set</th><th>target-cpu</th><th>median</th><th>why</th></tr>\n"
    );
    for d in doubts.iter().take(MAX_LISTED) {
        let r = d.record;
        let _ = writeln!(
            h,
            "<tr><td>{MARK}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            esc(d.source),
            esc(&r.workload),
            esc(&r.variant),
            esc(&r.input_set),
            esc(&r.target_cpu),
            esc(&doubt_median(d)),
            esc(&d.why)
        );
    }
    h.push_str("</table>\n");
    if let Some(left) = doubts.len().checked_sub(MAX_LISTED).filter(|&n| n > 0) {
        let _ = writeln!(h, "<p>… and {left} more records that may not hold.</p>");
    }
    h
}

/// The list of records that may not hold, as a Markdown section.
fn doubts_markdown(doubts: &[Doubt<'_>]) -> String {
    let mut m = format!(
        "\n## {DOUBTS}\n\n| | results | workload | variant | input set | target-cpu | median | why |\n|---|---|---|---|---|---|--:|---|\n",
    );
    for d in doubts.iter().take(MAX_LISTED) {
        let r = d.record;
        let _ = writeln!(
            m,
            "| {MARK} | {} | {} | `{}` | `{}` | {} | {} | {} |",
            cell(d.source),
            cell(&r.workload),
            cell(&r.variant),
            cell(&r.input_set),
            cell(&r.target_cpu),
            doubt_median(d),
            cell(&d.why)
        );
    }
    if let Some(left) = doubts.len().checked_sub(MAX_LISTED).filter(|&n| n > 0) {
        let _ = writeln!(m, "\n… and {left} more records that may not hold.");
    }
    m
}

/// `index.html`.
pub(crate) fn html(c: &Contents<'_>) -> String {
    let Contents {
        sources,
        report,
        summary,
        levels,
        not_measured,
        doubts,
        options,
    } = *c;
    let named = summary.iter().any(|r| r.machine.is_some());
    let mut h = String::new();
    h.push_str(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>bitbench report</title>\n<style>\n\
         body { font-family: \"DejaVu Sans\", Verdana, sans-serif; margin: 2em auto; max-width: 1500px; padding: 0 1em; color: #222; }\n\
         table { border-collapse: collapse; margin: 0.5em 0 1.5em; }\n\
         th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }\n\
         td.num { text-align: right; }\n\
         code { background: #f4f4f4; padding: 0 0.2em; }\n\
         figure { margin: 1.5em 0; }\n\
         figure img { max-width: 100%; height: auto; border: 1px solid #eee; }\n\
         figcaption { color: #444; margin-top: 0.3em; }\n\
         </style>\n</head>\n<body>\n<h1>bitbench report</h1>\n",
    );
    let _ = writeln!(
        h,
        "<p>Generated by <code>{}</code>.</p>",
        esc(&options.command)
    );
    let list = format!("<a href=\"#{DOUBTS_ID}\">{DOUBTS}</a>");
    if let Some(p) = doubt_paragraph(doubts.len(), options.purpose.limits(), &list) {
        let _ = writeln!(h, "<p>{p}</p>");
    }
    h.push_str("<h2>Runs</h2>\n<table>\n<tr><th>results</th><th>date</th><th>git commit</th><th>command</th><th>machine</th><th>build</th></tr>\n");
    for s in sources {
        let f = &s.file;
        let _ = writeln!(
            h,
            "<tr><td>{}<br><small>{}</small></td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td>{}<br><small>flags: {}</small></td><td>{}</td></tr>",
            esc(&s.label),
            esc(&s.path.display().to_string()),
            esc(&f.date),
            esc(commit(s)),
            esc(&f.command),
            esc(&machine_line(s, named)),
            esc(&f.machine.cpu_flags.join(" ")),
            esc(&build_line(s)),
        );
    }
    h.push_str("</table>\n<h2>Summary</h2>\n");
    if named {
        h.push_str("<p>Which variant wins where: each workload's fastest variant on each machine, from that machine's runs alone.</p>\n");
    }
    let _ = writeln!(
        h,
        "<table>\n<tr><th>workload</th>{}<th>variants</th><th>fastest (least total time; geometric-mean speedup over the oracle)</th><th>errors</th><th>crashed</th><th>hung</th><th>skipped</th></tr>",
        if named { "<th>machine</th>" } else { "" }
    );
    for r in summary {
        let machine = r
            .machine
            .as_ref()
            .map_or_else(String::new, |m| format!("<td>{}</td>", esc(m)));
        let _ = writeln!(
            h,
            "<tr><td>{}</td>{machine}<td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(&workload_cell(r)),
            r.variants,
            esc(&r.fastest_text()),
            r.errors,
            r.crashed,
            r.hung,
            r.skipped
        );
    }
    h.push_str("</table>\n");
    if !doubts.is_empty() {
        h.push_str(&doubts_html(doubts));
    }
    if !levels.is_empty() {
        h.push_str("<h2>Target-cpu levels</h2>\n<p>Time per element at each level (geometric mean over the input sets the variant ran at every level) and its speed-up over the same variant at the baseline level (x86-64 where measured).</p>\n");
    }
    for t in levels {
        let _ = writeln!(
            h,
            "<h3>{}</h3>\n<p>{}</p>\n<table>\n<tr><th>variant</th>{}</tr>",
            esc(&t.workload),
            esc(&level_sentence(t)),
            t.groups
                .iter()
                .map(|g| format!("<th>{}</th>", esc(g)))
                .collect::<String>()
        );
        for (v, row) in &t.rows {
            let cells: String = row
                .iter()
                .map(|c| format!("<td class=\"num\">{}</td>", esc(&level_cell(c))))
                .collect();
            let _ = writeln!(h, "<tr><td>{}</td>{cells}</tr>", esc(v));
        }
        h.push_str("</table>\n");
    }
    let mut workloads: Vec<&str> = Vec::new();
    for c in &report.charts {
        if !workloads.contains(&c.workload.as_str()) {
            workloads.push(&c.workload);
        }
    }
    let links: Vec<String> = workloads
        .iter()
        .map(|w| format!("<a href=\"#{0}\">{0}</a>", esc(w)))
        .collect();
    let _ = writeln!(h, "<p>Charts: {}</p>", links.join(" · "));
    let mut current = None;
    for c in &report.charts {
        if current != Some(&c.workload) {
            let _ = writeln!(h, "<h2 id=\"{0}\">{0}</h2>", esc(&c.workload));
            current = Some(&c.workload);
        }
        let _ = writeln!(
            h,
            "<figure>\n<a href=\"{svg}\"><img src=\"{svg}\" alt=\"{title}\" width=\"{w}\" height=\"{hh}\"></a>\n\
             <figcaption>{caption} <a href=\"{png}\">PNG</a> · <a href=\"{svg}\">SVG</a></figcaption>\n</figure>",
            svg = esc(&c.svg),
            png = esc(&c.png),
            title = esc(&c.title),
            caption = esc(&c.caption),
            w = c.size.0,
            hh = c.size.1,
        );
    }
    if !report.flamegraphs.is_empty() {
        let _ = writeln!(
            h,
            "<h2 id=\"flame-graphs\">Flame graphs</h2>\n<p>{FLAMEGRAPHS}</p>\n<ul>"
        );
        for f in &report.flamegraphs {
            let _ = writeln!(
                h,
                "<li><a href=\"{}\">{}</a></li>",
                esc(&f.svg),
                esc(&f.label)
            );
        }
        h.push_str("</ul>\n");
    }
    if !report.skipped.is_empty() || !not_measured.is_empty() {
        h.push_str("<h2>Not shown</h2>\n<ul>\n");
        for s in &report.skipped {
            let _ = writeln!(h, "<li>{}</li>", esc(s));
        }
        h.push_str("</ul>\n");
    }
    if !not_measured.is_empty() {
        h.push_str("<table>\n<tr><th>results</th><th>workload</th><th>variant</th><th>input set</th><th>target-cpu</th><th>metric</th><th>status</th><th>reason</th></tr>\n");
        for (label, r) in not_measured.iter().take(MAX_LISTED) {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(label),
                esc(&r.workload),
                esc(&r.variant),
                esc(&r.input_set),
                esc(&r.target_cpu),
                r.metric,
                r.status,
                esc(r.reason.as_deref().unwrap_or(""))
            );
        }
        h.push_str("</table>\n");
        if not_measured.len() > MAX_LISTED {
            let _ = writeln!(
                h,
                "<p>… and {} more records not measured.</p>",
                not_measured.len() - MAX_LISTED
            );
        }
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// `report.md`.
pub(crate) fn markdown(c: &Contents<'_>) -> String {
    let Contents {
        sources,
        report,
        summary,
        levels,
        not_measured,
        doubts,
        options,
    } = *c;
    let named = summary.iter().any(|r| r.machine.is_some());
    let mut m = String::from("# bitbench report\n\n");
    let _ = writeln!(m, "Generated by `{}`.\n", options.command);
    let list = format!("[{DOUBTS}](#{})", DOUBTS.to_lowercase().replace(' ', "-"));
    if let Some(p) = doubt_paragraph(doubts.len(), options.purpose.limits(), &list) {
        let _ = writeln!(m, "{p}\n");
    }
    m.push_str("## Runs\n\n| results | date | git commit | command | machine | build |\n|---|---|---|---|---|---|\n");
    for s in sources {
        let _ = writeln!(
            m,
            "| {} | {} | `{}` | `{}` | {} | {} |",
            cell(&s.label),
            cell(&s.file.date),
            cell(commit(s)),
            cell(&s.file.command),
            cell(&machine_line(s, named)),
            cell(&build_line(s))
        );
    }
    m.push_str("\n## Summary\n\n");
    if named {
        m.push_str("Which variant wins where: each workload's fastest variant on each machine, from that machine's runs alone.\n\n");
    }
    let _ = writeln!(
        m,
        "| workload | {}variants | fastest (least total time; geometric-mean speedup over the oracle) | errors | crashed | hung | skipped |\n|---|{}--:|---|--:|--:|--:|--:|",
        if named { "machine | " } else { "" },
        if named { "---|" } else { "" }
    );
    for r in summary {
        let machine = r
            .machine
            .as_ref()
            .map_or_else(String::new, |m| format!(" {} |", cell(m)));
        let _ = writeln!(
            m,
            "| {} |{machine} {} | {} | {} | {} | {} | {} |",
            cell(&workload_cell(r)),
            r.variants,
            cell(&r.fastest_text()),
            r.errors,
            r.crashed,
            r.hung,
            r.skipped
        );
    }
    if !doubts.is_empty() {
        m.push_str(&doubts_markdown(doubts));
    }
    if !levels.is_empty() {
        m.push_str("\n## Target-cpu levels\n\nTime per element at each level (geometric mean over the input sets the variant ran at every level) and its speed-up over the same variant at the baseline level (`x86-64` where measured).\n");
    }
    for t in levels {
        let _ = writeln!(
            m,
            "\n### {}\n\n{}\n\n| variant | {} |\n|---|{}",
            t.workload,
            level_sentence(t),
            t.groups
                .iter()
                .map(|g| cell(g))
                .collect::<Vec<_>>()
                .join(" | "),
            "--:|".repeat(t.groups.len())
        );
        for (v, row) in &t.rows {
            let cells: Vec<String> = row.iter().map(level_cell).collect();
            let _ = writeln!(m, "| {} | {} |", cell(v), cells.join(" | "));
        }
    }
    let mut current = None;
    for c in &report.charts {
        if current != Some(&c.workload) {
            let _ = writeln!(m, "\n## {}", c.workload);
            current = Some(&c.workload);
        }
        let _ = writeln!(
            m,
            "\n![{}]({})\n\n{} ([SVG]({}))",
            c.title, c.png, c.caption, c.svg
        );
    }
    if !report.flamegraphs.is_empty() {
        let _ = writeln!(m, "\n## Flame graphs\n\n{FLAMEGRAPHS}\n");
        for f in &report.flamegraphs {
            let _ = writeln!(m, "- [{}]({})", f.label.replace(['[', ']'], ""), f.svg);
        }
    }
    if !report.skipped.is_empty() || !not_measured.is_empty() {
        m.push_str("\n## Not shown\n\n");
        for s in &report.skipped {
            let _ = writeln!(m, "- {s}");
        }
        for (label, r) in not_measured.iter().take(MAX_LISTED) {
            let _ = writeln!(
                m,
                "- {label}: {} `{}` on `{}` ({}, {}): {}",
                r.workload,
                r.variant,
                r.input_set,
                r.target_cpu,
                r.metric,
                r.status_reason()
            );
        }
        if not_measured.len() > MAX_LISTED {
            let _ = writeln!(
                m,
                "- … and {} more records not measured",
                not_measured.len() - MAX_LISTED
            );
        }
    }
    m
}
