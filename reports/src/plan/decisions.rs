//! The decision map of a workload: which variant [`decide`] chooses where,
//! over every machine in the report, drawn when more than one variant
//! wins somewhere (with a single winner there is nothing to dispatch),
//! and never for an A/B's builds.

use super::{Planned, PlannedChart, slug};
use crate::Source;
use crate::chart::LegendItem;
use crate::chart::decision_map::{DecisionMap, MapCell};
use crate::dispatch::{Decision, Spec, TierDecision, decide, regime_label};
use crate::numbers::sig3;
use crate::palette;
use crate::results::ResultsFile;

/// Most features a row label names before it stops at `+…`.
const NAMED_FEATURES: usize = 3;

/// The decision map of `workload` from the records of `sources`, if more
/// than one variant wins across its cells.
pub(crate) fn decision_map(workload: &str, sources: &[Source]) -> Option<PlannedChart> {
    let files: Vec<&ResultsFile> = sources
        .iter()
        .map(|s| &s.file)
        .filter(|f| f.workload(workload).next().is_some())
        .collect();
    // An A/B measures each variant once per build: two builds, not a
    // choice between variants.
    if files
        .iter()
        .flat_map(|f| f.workload(workload))
        .any(|r| r.paired.is_some())
    {
        return None;
    }
    let spec = Spec::from_records(workload, &files);
    let labelled: Vec<(String, &ResultsFile)> =
        sources.iter().map(|s| (s.label.clone(), &s.file)).collect();
    let decision = decide(&spec, &labelled).ok()?;
    let tiers = || decision.levels.iter().flat_map(|l| &l.tiers);
    let mut winners: Vec<&str> = Vec::new();
    for c in tiers().flat_map(|t| &t.cells) {
        if !winners.contains(&c.chosen.as_str()) {
            winners.push(&c.chosen);
        }
    }
    if winners.len() < 2 {
        return None;
    }
    let index = |v: &str| spec.variants.iter().position(|s| s.name == v).unwrap_or(0);
    winners.sort_by_key(|w| index(w));
    let mut regimes: Vec<Option<f64>> = tiers().flat_map(|t| &t.cells).map(|c| c.regime).collect();
    regimes.sort_by(|a, b| a.unwrap_or(0.0).total_cmp(&b.unwrap_or(0.0)));
    regimes.dedup();
    let parameter = decision.parameter.as_deref();
    let mut cells = Vec::new();
    for (row, tier) in tiers().enumerate() {
        for c in &tier.cells {
            cells.push(MapCell {
                row,
                col: regimes.iter().position(|&r| r == c.regime).unwrap_or(0),
                color: palette::variant(index(&c.chosen)),
                label: c
                    .margin
                    .as_ref()
                    .map_or_else(|| "only".to_owned(), |(_, m)| format!("{}×", sig3(*m))),
            });
        }
    }
    let title = format!("{workload}: which variant wins where");
    let x_title = parameter.unwrap_or("input sets").to_owned();
    Some(PlannedChart {
        stem: format!("decision-{}", slug(workload)),
        title: title.clone(),
        caption: format!(
            "The variant the measurements choose at each {x_title} (columns) on each target-cpu level and CPU feature tier (rows), over every machine measured: within the 95 % intervals the simplest, else the least worst-case loss. Each cell prints the winner's margin, the runner-up's time over its own."
        ),
        figure: Planned::Decision(DecisionMap {
            title,
            subtitle: "cell: the variant chosen; label: its margin over the runner-up".to_owned(),
            x_title,
            rows: row_labels(&decision),
            cols: regimes
                .iter()
                .map(|r| r.map_or_else(|| "all sets".to_owned(), |x| regime_label(parameter, x)))
                .collect(),
            cells,
            legend: winners
                .iter()
                .map(|w| LegendItem {
                    text: (*w).to_owned(),
                    color: palette::variant(index(w)),
                    marker: None,
                    dash: 0,
                })
                .collect(),
        }),
    })
}

/// Each tier's row label: its level and the features it adds over the
/// tier below (`default · +avx2`), `any CPU` for a tier that needs none.
fn row_labels(decision: &Decision) -> Vec<String> {
    let mut out = Vec::new();
    for level in &decision.levels {
        for (i, tier) in level.tiers.iter().enumerate() {
            let below: &[String] = level
                .tiers
                .get(i + 1)
                .map_or(&[], |t: &TierDecision| &t.features);
            let added: Vec<&str> = tier
                .features
                .iter()
                .filter(|f| !below.contains(f))
                .map(String::as_str)
                .collect();
            let features = if added.is_empty() {
                "any CPU".to_owned()
            } else if added.len() > NAMED_FEATURES {
                format!("+{}+…", added[..NAMED_FEATURES].join("+"))
            } else {
                format!("+{}", added.join("+"))
            };
            out.push(format!("{} · {features}", level.target_cpu));
        }
    }
    out
}
