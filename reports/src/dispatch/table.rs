//! [`table_text`]: a decision as a terminal reads it, aligned in plain
//! text so that it also reads in a Markdown code block.

use super::{Cell, Decision, TierDecision};
use crate::numbers::sig3;
use std::fmt::Write;

/// The decision table: a header naming the workload, its parameter and
/// the files; per level and tier, one row per measured regime (the
/// variant chosen, its worst-case loss against each scenario's best, its
/// margin over the runner-up, the loss there of the tier's best single
/// fixed variant, and the machines whose own best differs beyond the
/// intervals); the tier's ranges on one line; the variants left out
/// because a machine did not measure them; and its dispatcher's
/// worst-case loss beside the fixed variant's.
pub fn table_text(decision: &Decision) -> String {
    let d = decision;
    let by = d
        .parameter
        .as_ref()
        .map_or_else(String::new, |p| format!(" and {p}"));
    let mut out = format!(
        "{}: which variant to run, by CPU features{by}\n",
        d.workload
    );
    for s in &d.sources {
        let _ = writeln!(
            out,
            "  from {} · {} · {}",
            s.label,
            s.machine_phrase(),
            s.date
        );
    }
    for level in &d.levels {
        let compiled = match level.target_features.as_slice() {
            [] => String::new(),
            f => format!(" (compiles in {})", f.join(", ")),
        };
        let _ = writeln!(out, "\ntarget-cpu {}{compiled}", level.target_cpu);
        for tier in &level.tiers {
            let _ = write!(out, "{}", tier_text(d.parameter.as_deref(), tier));
        }
    }
    out
}

/// One tier's block: heading, aligned rows, ranges and summary.
fn tier_text(parameter: Option<&str>, tier: &TierDecision) -> String {
    let mut out = match tier.features.as_slice() {
        [] => "  any CPU\n".to_owned(),
        f => format!("  CPUs with {}\n", f.join(", ")),
    };
    let fixed = format!("fixed: {}", tier.fixed.0);
    let mut rows: Vec<[String; 6]> = vec![[
        parameter.unwrap_or("inputs").to_owned(),
        "chosen".into(),
        "loss".into(),
        "margin".into(),
        fixed,
        "disagree".into(),
    ]];
    rows.extend(tier.cells.iter().map(|c| row(parameter, c)));
    let mut widths = [0usize; 6];
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for r in &rows {
        let mut line = "    ".to_owned();
        for (i, (cell, w)) in r.iter().zip(widths).enumerate() {
            let pad = " ".repeat(w - cell.chars().count());
            if matches!(i, 2 | 4) {
                let _ = write!(line, "{pad}{cell}  ");
            } else {
                let _ = write!(line, "{cell}{pad}  ");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "    ranges: {}", ranges_text(parameter, &tier.ranges));
    for (machines, variants) in unweighed(tier) {
        let _ = writeln!(
            out,
            "    not weighed: {} (not measured on {})",
            variants.join(", "),
            machines.join(", ")
        );
    }
    let worst = tier.cells.iter().map(|c| c.loss).fold(0.0, f64::max);
    let _ = writeln!(
        out,
        "    dispatcher worst case {} · best fixed variant ({}) worst case {}",
        percent(worst),
        tier.fixed.0,
        percent(tier.fixed.1)
    );
    out
}

/// The variants some cell of `tier` left out because a machine did not
/// measure them, grouped by those machines, in order of appearance.
fn unweighed(tier: &TierDecision) -> Vec<(Vec<String>, Vec<String>)> {
    let mut missing: Vec<(&str, Vec<String>)> = Vec::new();
    for (variant, machines) in tier.cells.iter().flat_map(|c| &c.unweighed) {
        let at = match missing.iter().position(|(v, _)| v == variant) {
            Some(at) => at,
            None => {
                missing.push((variant, Vec::new()));
                missing.len() - 1
            }
        };
        for m in machines {
            if !missing[at].1.contains(m) {
                missing[at].1.push(m.clone());
            }
        }
    }
    let mut groups: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for (variant, machines) in missing {
        match groups.iter_mut().find(|(m, _)| *m == machines) {
            Some((_, variants)) => variants.push(variant.to_owned()),
            None => groups.push((machines, vec![variant.to_owned()])),
        }
    }
    groups
}

/// A cell's row.
fn row(parameter: Option<&str>, c: &Cell) -> [String; 6] {
    let regime = c
        .regime
        .map_or_else(|| "all sets".to_owned(), |x| regime_label(parameter, x));
    let margin = c.margin.as_ref().map_or_else(
        || "only candidate".to_owned(),
        |(other, m)| format!("{}× over {other}", sig3(*m)),
    );
    let disagree: Vec<String> = c
        .disagree
        .iter()
        .map(|(who, best)| format!("{who}: {best}"))
        .collect();
    [
        regime,
        c.chosen.clone(),
        percent(c.loss),
        margin,
        percent(c.fixed_loss),
        disagree.join(", "),
    ]
}

/// `[.., 48 B) popcnt · [48 B, 3.07 KiB) avx2-lookup · [3.07 KiB, ..) …`;
/// `all inputs: popcnt` without a parameter.
fn ranges_text(parameter: Option<&str>, ranges: &[(f64, String)]) -> String {
    if parameter.is_none() {
        let names: Vec<&str> = ranges.iter().map(|r| r.1.as_str()).collect();
        return format!("all inputs: {}", names.join(" · "));
    }
    let mut from = "..".to_owned();
    let mut parts = Vec::new();
    for (below, variant) in ranges {
        let to = if below.is_finite() {
            regime_label(parameter, *below)
        } else {
            "..".to_owned()
        };
        parts.push(format!("[{from}, {to}) {variant}"));
        from = to;
    }
    parts.join(" · ")
}

/// A loss as a percentage: `0 %`, `+3.1 %`, `+250 %`; `–` where the
/// variant was not measured.
fn percent(loss: f64) -> String {
    let p = loss * 100.0;
    if !p.is_finite() {
        "–".to_owned()
    } else if p < 0.05 {
        "0 %".to_owned()
    } else if p < 100.0 {
        format!("+{p:.1} %")
    } else {
        format!("+{p:.0} %")
    }
}

/// A regime as tables and charts print it: a size in bytes in binary
/// units (`8 B`, `3.07 KiB`, `1 MiB`) when the parameter is `bytes`, any
/// other value as short as it reads (`0.125`, `48`, `1500`).
pub(crate) fn regime_label(parameter: Option<&str>, value: f64) -> String {
    if parameter != Some("bytes") {
        return short(value);
    }
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let (mut x, mut unit) = (value, 0);
    while x.abs() >= 1024.0 && unit < UNITS.len() - 1 {
        x /= 1024.0;
        unit += 1;
    }
    format!("{} {}", short(x), UNITS[unit])
}

/// Three significant digits without trailing zeros, whole numbers from
/// 1000 up.
fn short(v: f64) -> String {
    if v.abs() >= 1000.0 {
        return format!("{v:.0}");
    }
    let s = sig3(v);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}
