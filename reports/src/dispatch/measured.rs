//! The figures a decision weighs: a workload's ok time records, per
//! target-cpu level, per scenario (a machine's input set), per variant.
//!
//! Everything the rules rest on is gathered here once, in nanoseconds, so
//! that the other parts compare plain numbers: variants that gave a wrong
//! answer, crashed or hung anywhere are left out, and so are sets without
//! the regime parameter.

use super::{Figure, SourceInfo, Spec};
use crate::results::{Metric, Record, ResultsFile, Status};
use crate::scale::parse_time_unit;
use std::collections::{BTreeMap, BTreeSet};

/// A machine's input set at one level, and its regime.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Scenario {
    pub machine: String,
    pub set: String,
    /// The parameter's value on the set; `None` without a parameter.
    pub regime: Option<f64>,
}

/// One level's figures.
#[derive(Debug)]
pub(super) struct Measured {
    pub target_cpu: String,
    /// In first-seen order.
    pub scenarios: Vec<Scenario>,
    /// Per scenario (aligned with `scenarios`), each variant's figure.
    pub figures: Vec<BTreeMap<String, Figure>>,
}

impl Measured {
    /// Whether `variant` has a figure anywhere at this level.
    pub fn has(&self, variant: &str) -> bool {
        self.figures.iter().any(|f| f.contains_key(variant))
    }

    /// The distinct regimes, increasing (`[None]` without a parameter).
    pub fn regimes(&self) -> Vec<Option<f64>> {
        let mut values: Vec<Option<f64>> = self.scenarios.iter().map(|s| s.regime).collect();
        values.sort_by(|a, b| a.unwrap_or(0.0).total_cmp(&b.unwrap_or(0.0)));
        values.dedup();
        values
    }
}

/// What [`gather`] finds.
#[derive(Debug)]
pub(super) struct Gathered {
    /// One per target-cpu level, in first-seen order.
    pub levels: Vec<Measured>,
    /// The files with time records of the workload.
    pub sources: Vec<SourceInfo>,
}

/// The spec's workload's figures in `files` (label, file). A (machine,
/// set, variant) measured at one level in several files counts as the
/// last file has it.
pub(super) fn gather(spec: &Spec, files: &[(String, &ResultsFile)]) -> Result<Gathered, String> {
    let w = &spec.workload;
    let timed = |r: &&Record| r.workload == *w && r.metric == Metric::Time;
    let failed: BTreeSet<&str> = files
        .iter()
        .flat_map(|(_, f)| f.workload(w))
        .filter(|r| r.status.finding())
        .map(|r| r.variant.as_str())
        .collect();
    let listed = |v: &str| spec.variants.iter().any(|s| s.name == v);
    let mut levels: Vec<Measured> = Vec::new();
    let mut sources = Vec::new();
    let mut any_time = false;
    let mut any_listed = false;
    for (label, file) in files {
        let machine = machine_name(file);
        let mut used = false;
        for r in file.records.iter().filter(timed) {
            any_time = true;
            used = true;
            if !listed(&r.variant) || r.status != Status::Ok {
                continue;
            }
            any_listed = true;
            let regime = match &spec.parameter {
                Some(p) => match r.parameters.iter().find(|q| q.name == *p) {
                    Some(q) => Some(q.value),
                    None => continue,
                },
                None => None,
            };
            if failed.contains(r.variant.as_str()) {
                continue;
            }
            let level = match levels.iter().position(|l| l.target_cpu == r.target_cpu) {
                Some(i) => &mut levels[i],
                None => {
                    levels.push(Measured {
                        target_cpu: r.target_cpu.clone(),
                        scenarios: Vec::new(),
                        figures: Vec::new(),
                    });
                    levels.last_mut().expect("just pushed")
                }
            };
            let scenario = Scenario {
                machine: machine.clone(),
                set: r.input_set.clone(),
                regime,
            };
            let s = match level.scenarios.iter().position(|s| *s == scenario) {
                Some(s) => s,
                None => {
                    level.scenarios.push(scenario);
                    level.figures.push(BTreeMap::new());
                    level.scenarios.len() - 1
                }
            };
            level.figures[s].insert(r.variant.clone(), figure(r));
        }
        if used {
            sources.push(SourceInfo {
                label: label.clone(),
                machine,
                cpu_model: file.machine.cpu_model.clone(),
                date: file.date.clone(),
            });
        }
    }
    if !any_time {
        return Err(format!("no results file has time records of `{w}`"));
    }
    if !any_listed {
        let names: Vec<&str> = spec.variants.iter().map(|v| v.name.as_str()).collect();
        return Err(format!(
            "no ok time records of `{w}` for its variants ({})",
            names.join(", ")
        ));
    }
    if levels.is_empty() {
        let why = match &spec.parameter {
            Some(p) => format!(", or none on an input set with parameter `{p}`"),
            None => String::new(),
        };
        return Err(format!(
            "every variant of `{w}` with time records gave a wrong answer, crashed or hung{why}"
        ));
    }
    Ok(Gathered { levels, sources })
}

/// The machine's name; its CPU model in files that name none.
fn machine_name(file: &ResultsFile) -> String {
    match file.machine.name.trim() {
        "" => file.machine.cpu_model.clone(),
        name => name.to_owned(),
    }
}

/// A record's median and interval in nanoseconds (the unit's factor: 1
/// where the unit is not a time per element).
fn figure(r: &Record) -> Figure {
    let ns = parse_time_unit(&r.unit).map_or(1.0, |(factor, _)| factor);
    let (low, high) = r.interval.map_or((r.median, r.median), |i| (i.low, i.high));
    Figure {
        median: r.median * ns,
        low: low * ns,
        high: high * ns,
    }
}
