//! Instruction counts (and, with the cache simulation, misses): each
//! workload counted once per build with `count --out`, compared exactly,
//! and a count that moved beyond its threshold ranked by function.

use super::oneshot;
use super::options::Options;
use super::plan::Planned;
use super::records::labelled;
use super::table::Row;
use crate::attribution::{self, Attribution};
use crate::entry::Origin;
use crate::error::Error;
use crate::revision::{self, Side};
use reports::compare::{Verdict, compare};
use reports::{Metric, Record, ResultsFile};
use std::path::{Path, PathBuf};

/// Why instructions cannot be counted here, if they cannot: what `ab`,
/// `matrix` and `history` say before they go on without counts.
pub fn count_tools() -> Option<String> {
    #[cfg(feature = "count")]
    return crate::counting::check_tools().err();
    #[cfg(not(feature = "count"))]
    Some("this program was built without bitbench's `count` feature".to_owned())
}

/// One workload's planned records and both builds' counts of them.
type Counts<'p> = (Vec<&'p Planned>, Result<[ResultsFile; 2], Error>);

/// Counts records in both builds (`count --out`, one run per workload
/// and build) and says where the changed ones changed.
pub struct Counter<'a> {
    /// Seed of the generated inputs.
    pub seed: u64,
    /// A and B.
    pub sides: [&'a Side; 2],
    /// Where the builds' results files go.
    pub files: &'a Path,
    /// With the cache simulation.
    pub cache: bool,
    /// Where the flame graphs go.
    pub beside: &'a Path,
    /// The program, as the hints naming its commands call it.
    pub program: String,
    /// The program's checkout, where a build made in place (not in an
    /// export, which names itself) has its sources: attribution names
    /// files from it. `None` outside a git repository.
    pub checkout: Option<PathBuf>,
}

impl<'a> Counter<'a> {
    /// The counter of `origin`'s builds `sides`, with `options`' seed, the
    /// cache simulation when asked for or when `counted` has one of its
    /// metrics, and `(files, beside)` for the results files and the flame
    /// graphs.
    pub fn new(
        origin: &Origin,
        options: &Options,
        sides: [&'a Side; 2],
        (files, beside): (&'a Path, &'a Path),
        counted: &[Metric],
    ) -> Counter<'a> {
        let manifest = Path::new(origin.manifest_dir);
        let checkout = revision::git(manifest, &["rev-parse", "--show-toplevel"]);
        Counter {
            seed: options.seed,
            sides,
            files,
            cache: options.cache
                || counted
                    .iter()
                    .any(|m| m.descriptor().produced.needs_cache_sim()),
            beside,
            program: crate::repro::program(origin.binary),
            checkout: checkout.ok().map(PathBuf::from),
        }
    }

    /// Both builds' counts of `planned`, per workload: A's and B's results
    /// files (their profiles relative to `files`), or why not.
    pub fn count<'p>(&self, planned: &[&'p Planned]) -> Vec<Counts<'p>> {
        let mut workloads: Vec<&str> = planned.iter().map(|p| p.workload.as_str()).collect();
        workloads.dedup();
        workloads
            .into_iter()
            .map(|workload| {
                let mine: Vec<&Planned> = planned
                    .iter()
                    .copied()
                    .filter(|p| p.workload == workload)
                    .collect();
                let mut variants: Vec<String> = mine.iter().map(|p| p.variant.clone()).collect();
                let mut sets: Vec<String> = mine.iter().map(|p| p.set.clone()).collect();
                variants.sort();
                variants.dedup();
                sets.sort();
                sets.dedup();
                let run = |side: &Side| {
                    let out = self
                        .files
                        .join(format!("count-{workload}-{}.json", side.label));
                    eprintln!("ab: counting instructions of {workload} in {}", side.label);
                    let command: &[&str] = if self.cache {
                        &["count", "--cache"]
                    } else {
                        &["count"]
                    };
                    oneshot::measure(
                        &side.exe, command, workload, &variants, &sets, self.seed, &out,
                    )
                };
                let counted = run(self.sides[0]).and_then(|fa| Ok([fa, run(self.sides[1])?]));
                (mine, counted)
            })
            .collect()
    }

    /// Both builds' counts of the planned records, compared exactly on
    /// `metrics`; a row that moved beyond its threshold says where.
    pub fn judge(
        &self,
        planned: &[Planned],
        metrics: &[Metric],
        threshold: &dyn Fn(Metric) -> f64,
        records: &mut Vec<Record>,
    ) -> Vec<Row> {
        let mut rows = Vec::new();
        let all: Vec<&Planned> = planned.iter().collect();
        for (mine, counted) in self.count(&all) {
            let [fa, fb] = match counted {
                Ok(files) => files,
                Err(e) => {
                    for p in mine {
                        for &metric in metrics {
                            let mut row = Row::new(p, metric.as_str(), "");
                            row.verdict = Verdict::NotComparable(e.to_string());
                            rows.push(row);
                        }
                    }
                    continue;
                }
            };
            for &metric in metrics {
                let compared = compare(&fa, &fb, &[metric], Some(threshold(metric)));
                for r in compared.rows.iter().filter(|r| {
                    mine.iter()
                        .any(|p| p.variant == r.new.variant && p.set == r.new.input_set)
                }) {
                    let mut row = Row::from_compared(r, metric.as_str());
                    if matches!(row.verdict, Verdict::Regressed | Verdict::Improved) {
                        row.attribution = Some(self.attribute(r.base, r.new, metric));
                    }
                    rows.push(row);
                }
            }
            labelled(records, &fa, self.sides[0]);
            labelled(records, &fb, self.sides[1]);
        }
        rows
    }

    /// Where `b` changed from `a` in `metric`, its flame graphs beside the
    /// results file.
    pub fn attribute(&self, a: &Record, b: &Record, metric: Metric) -> Attribution {
        let checkout = self.checkout.as_deref();
        let roots = checkout.as_slice();
        attribution::changed(a, b, metric, [self.files; 2], self.beside, roots)
    }
}
