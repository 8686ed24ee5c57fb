//! Where a time regression came from: the instructions' change when they
//! moved too, else a sentence saying they do not explain it and, with the
//! cache simulation, the D1 misses' table. Regressed records not counted
//! yet are counted for it.

use super::counts::Counter;
use super::plan::Planned;
use super::records::labelled;
use super::table::Row;
use crate::attribution::{self, Attribution};
use reports::compare::Verdict;
use reports::{Metric, Record, Status};

/// Says where each time regression came from: the instruction row's
/// table when instructions moved too; else, since the instructions did
/// not explain it, that sentence and (with `--cache`) the D1 misses'
/// table. Records not counted yet are counted now, in both builds, and
/// judged against the instructions' `threshold`.
pub fn attribute_time(
    rows: &mut [Row],
    planned: &[Planned],
    counter: &Counter<'_>,
    (tools, threshold): (Option<&str>, f64),
    records: &mut Vec<Record>,
) {
    let same = |r: &Row, p: &Planned| {
        r.workload == p.workload && r.variant == p.variant && r.input_set == p.set
    };
    let slower = |r: &Row| r.metric == "time" && r.verdict == Verdict::Regressed;
    let regressed: Vec<&Planned> = planned
        .iter()
        .filter(|p| rows.iter().any(|r| same(r, p) && slower(r)))
        .collect();
    if let Some(reason) = tools {
        for row in rows.iter_mut().filter(|r| slower(r)) {
            let note = attribution::not_countable(reason);
            row.attribution = Some(Attribution::note(Metric::Instructions, note));
        }
        return;
    }
    let judged = |rows: &[Row], p: &Planned| {
        rows.iter()
            .find(|r| same(r, p) && r.metric == "instructions")
            .map(|r| (r.change_pct, r.verdict.clone(), r.attribution.clone()))
    };
    let uncounted: Vec<&Planned> = regressed
        .iter()
        .copied()
        .filter(|p| judged(rows, p).is_none())
        .collect();
    for (_, counted) in counter.count(&uncounted) {
        if let Ok([fa, fb]) = counted {
            labelled(records, &fa, counter.sides[0]);
            labelled(records, &fb, counter.sides[1]);
        }
    }
    for p in regressed {
        // Both builds' records of `p` in `metric`, as counted above or by
        // the instructions' judgement.
        let pair = |metric| {
            let side = |label: &str| {
                records.iter().find(|r| {
                    r.metric == metric
                        && (&r.workload, &r.variant, &r.input_set)
                            == (&p.workload, &p.variant, &p.set)
                        && r.source.as_deref().is_some_and(|s| s.starts_with(label))
                })
            };
            Some((side("A ")?, side("B ")?))
        };
        let unexplained = |pct: Option<f64>| {
            let note = attribution::time_without_instructions(&counter.program, pct);
            match pair(Metric::D1Misses) {
                Some((a, b)) if counter.cache => Attribution {
                    note: Some(note),
                    ..counter.attribute(a, b, Metric::D1Misses)
                },
                _ => Attribution::note(Metric::Instructions, note),
            }
        };
        let attribution = match (judged(rows, p), pair(Metric::Instructions)) {
            (Some((_, Verdict::Regressed | Verdict::Improved, Some(moved))), _) => moved,
            (_, Some((a, _))) if a.status != Status::Ok => Attribution::note(
                Metric::Instructions,
                attribution::not_countable(a.reason.as_deref().unwrap_or("not counted")),
            ),
            (Some((pct, ..)), _) => unexplained(pct),
            (None, Some((a, b))) => {
                let pct = (b.median / a.median - 1.0) * 100.0;
                if pct.abs() > threshold {
                    counter.attribute(a, b, Metric::Instructions)
                } else {
                    unexplained(Some(pct))
                }
            }
            (None, None) => Attribution::note(
                Metric::Instructions,
                "no attribution: counting the record in both builds failed",
            ),
        };
        for row in rows.iter_mut().filter(|r| same(r, p) && slower(r)) {
            row.attribution = Some(attribution.clone());
        }
    }
}
