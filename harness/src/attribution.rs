//! Where a counted record changed: the functions (and, when one function
//! holds the change, the source lines) whose counts moved between two
//! profiles of the same record, with a differential flame graph.
//!
//! `count` keeps each record's callgrind profile beside its results file
//! ([`Record::profile`]); `ab`, `compare` and `history bisect` hand the two
//! sides of a changed record here. The reading, ranking and drawing are
//! [`reports::profile`]'s; this module finds the files, names the SVGs and
//! says in a sentence why there is no table when there cannot be one.

use reports::compare::Format;
use reports::profile::{Delta, Flame, Profile};
use reports::{Metric, Record, Status};
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The flame graphs' root: the region `count` measures (its callgrind
/// entry point), so that `main` and the harness above it are left out.
const ROOT: &str = "counting::counted_region";

/// Rows of the per-function table shown under a verdict (the rest summed
/// in one more row).
pub const TOP: usize = 8;

/// One side of a counted record: the directory its results file is in
/// (profile paths are relative to it) and the record.
#[derive(Clone, Copy, Debug)]
pub struct Counted<'a> {
    /// The results file's directory.
    pub dir: &'a Path,
    /// The record, with its `profile`.
    pub record: &'a Record,
}

impl Counted<'_> {
    fn profile(&self) -> Result<Profile, String> {
        let rel = self.record.profile.as_deref().ok_or_else(|| {
            if self.record.status == Status::Ok {
                "its count kept no profile (counted with --no-profiles, or by a build from before profiles were kept)".to_owned()
            } else {
                format!(
                    "it was not counted: {}",
                    self.record.reason.as_deref().unwrap_or("no reason given")
                )
            }
        })?;
        let path = self.dir.join(rel);
        Profile::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Where one record changed, or why that cannot be said.
#[derive(Clone, Debug, Serialize)]
pub struct Attribution {
    /// What the table ranks by (instructions, or a cache simulation's
    /// misses).
    pub metric: Metric,
    /// The per-function table; `None` with a `note` saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Delta>,
    /// The differential flame graphs: B's widths coloured by the change,
    /// then what shrank or vanished (A's widths).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flame_graphs: Vec<PathBuf>,
    /// A sentence for the reader: why there is no table, or what the
    /// table does not show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Attribution {
    /// No table, for the reason given.
    pub fn note(metric: Metric, note: impl Into<String>) -> Attribution {
        Attribution {
            metric,
            table: None,
            flame_graphs: Vec::new(),
            note: Some(note.into()),
        }
    }

    /// Ranks the functions of `a` and `b` (the same record, counted by
    /// both) by the change in `metric`, and draws the differential flame
    /// graphs as `<flames>.svg` and `<flames>.vanished.svg` when given.
    /// Source lines are named from the root of the tree each build was
    /// made from: an `ab` export, or one of `roots` (the checkout).
    pub fn between(
        a: Counted<'_>,
        b: Counted<'_>,
        metric: Metric,
        flames: Option<&Path>,
        roots: &[&Path],
    ) -> Attribution {
        let profiles = a.profile().and_then(|pa| Ok((pa, b.profile()?)));
        let (pa, pb) = match profiles {
            Ok(profiles) => profiles,
            Err(why) => return Attribution::note(metric, format!("no attribution: {why}")),
        };
        let elements = |c: Counted<'_>| c.record.elements_per_sample.max(1);
        let sides = [elements(a), elements(b)];
        let table = match Delta::between(&pa, &pb, metric, sides, TOP, roots) {
            Ok(table) => table,
            Err(why) => return Attribution::note(metric, format!("no attribution: {why}")),
        };
        let mut attribution = Attribution {
            metric,
            table: Some(table),
            flame_graphs: Vec::new(),
            note: None,
        };
        if let Some(stem) = flames {
            let title = format!(
                "{} {} {}: {}",
                b.record.workload,
                b.record.variant,
                b.record.input_set,
                metric.as_str()
            );
            let flame = Flame {
                metric,
                root: Some(ROOT),
                title: &title,
            };
            let drawn =
                reports::profile::differential_svgs(&pa, &pb, elements(a), elements(b), &flame)
                    .map_err(|e| e.to_string())
                    .and_then(|(grown, vanished)| {
                        // Appended, not `with_extension`: a stem holds
                        // dots (`density_0.5`).
                        let named =
                            |suffix: &str| PathBuf::from(format!("{}{suffix}", stem.display()));
                        let paths = [named(".svg"), named(".vanished.svg")];
                        for (path, svg) in paths.iter().zip([grown, vanished]) {
                            if let Some(dir) = path.parent() {
                                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
                            }
                            std::fs::write(path, svg)
                                .map_err(|e| format!("{}: {e}", path.display()))?;
                        }
                        Ok(paths.to_vec())
                    });
            match drawn {
                Ok(paths) => attribution.flame_graphs = paths,
                Err(why) => attribution.note = Some(format!("no flame graph: {why}")),
            }
        }
        attribution
    }

    /// The table and the flame graphs' paths, indented under a verdict.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(table) = &self.table {
            for line in table.render(Format::Text).lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        for path in &self.flame_graphs {
            let _ = writeln!(out, "    flame graph: {}", path.display());
        }
        if let Some(note) = &self.note {
            let _ = writeln!(out, "    {note}");
        }
        out
    }

    /// The table in Markdown, then the flame graphs' paths.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        if let Some(table) = &self.table {
            let _ = writeln!(out, "{}", table.render(Format::Markdown));
        }
        for path in &self.flame_graphs {
            let _ = writeln!(out, "- flame graph: `{}`", path.display());
        }
        if let Some(note) = &self.note {
            let _ = writeln!(out, "- {note}");
        }
        out
    }
}

/// A file-name stem of `parts` joined by `-`, with the characters a
/// record's names may hold and a path may not (`/`, `:`, ` `) as `_`.
pub fn file_stem(parts: &[&str]) -> String {
    parts.join("-").replace(['/', ':', ' '], "_")
}

/// Where `b` changed from `a` in `metric` (the same record, each counted
/// in a results file in `dirs`), the flame graphs in `beside`, named for
/// the record; `roots` are the checkouts a build may have been made in
/// (see [`Attribution::between`]).
pub fn changed(
    a: &Record,
    b: &Record,
    metric: Metric,
    dirs: [&Path; 2],
    beside: &Path,
    roots: &[&Path],
) -> Attribution {
    let stem = file_stem(&[
        &b.workload,
        &b.variant,
        &b.input_set,
        &b.target_cpu,
        metric.as_str(),
    ]);
    Attribution::between(
        Counted {
            dir: dirs[0],
            record: a,
        },
        Counted {
            dir: dirs[1],
            record: b,
        },
        metric,
        Some(&beside.join(stem)),
        roots,
    )
}

/// Where each counted record that moved beyond its threshold in a
/// comparison of two results files changed (records of which neither side
/// kept a profile are left out): the compared row's name and its
/// attribution, flame graphs in `beside`.
pub fn of_comparison(
    rows: &[reports::compare::Row<'_>],
    dirs: [&Path; 2],
    beside: &Path,
) -> Vec<(String, Attribution)> {
    use reports::compare::Verdict;
    rows.iter()
        .filter(|r| r.new.metric.callgrind_events().is_some())
        .filter(|r| matches!(r.verdict, Verdict::Regressed | Verdict::Improved))
        .filter(|r| r.base.profile.is_some() || r.new.profile.is_some())
        .map(|r| {
            let metric = r.new.metric;
            let name = format!(
                "{} {} {} {}: {}",
                r.new.workload,
                r.new.variant,
                r.new.input_set,
                metric.as_str(),
                r.verdict.label()
            );
            // No checkout: a results file does not say where its program
            // was built (`ab`'s exports name themselves).
            (name, changed(r.base, r.new, metric, dirs, beside, &[]))
        })
        .collect()
}

/// The sentence for a time change that instructions do not explain, its
/// hint naming `program`.
pub fn time_without_instructions(program: &str, instructions_pct: Option<f64>) -> String {
    let counted = instructions_pct.map_or_else(
        || "instructions were not compared".to_owned(),
        |pct| format!("instructions moved {pct:+.2} %, within the threshold"),
    );
    format!(
        "time moved and {counted}: the cause is not in the instruction stream (memory, \
         branches, code layout); `{program} count --cache` (or `ab --cache`) ranks the \
         functions by their D1 and LL miss deltas"
    )
}

/// The sentence for a record valgrind could not run (`reason` is the
/// count's own).
pub fn not_countable(reason: &str) -> String {
    format!(
        "no attribution possible: {reason}; without a profile of both builds there is nothing to rank"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counted record whose profile is one of `reports`' real samples.
    fn counted(profile: Option<&str>) -> Record {
        Record {
            workload: "components".into(),
            variant: "swar".into(),
            input_set: "density:0.5".into(),
            metric: Metric::Instructions,
            elements_per_sample: 2048,
            profile: profile.map(str::to_owned),
            ..Record::default()
        }
    }

    #[test]
    fn two_profiles_give_a_table_and_flame_graphs_and_a_missing_one_a_reason() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/tests/data/callgrind");
        let a = counted(Some("components-swar-density_0.5.callgrind"));
        let b = counted(Some("components-swar-density_0.3.callgrind"));
        let side = |record| Counted { dir: &data, record };
        let out = std::env::temp_dir().join(format!("bitbench-where-{}", std::process::id()));
        let flames = out.join("components-swar-density_0.5");
        let found =
            Attribution::between(side(&a), side(&b), Metric::Instructions, Some(&flames), &[]);
        let table = found.table.as_ref().expect("a table");
        assert!(!table.rows.is_empty() && found.note.is_none(), "{found:?}");
        assert_eq!(found.flame_graphs.len(), 2);
        assert!(found.flame_graphs.iter().all(|p| p.is_file()));
        assert!(found.flame_graphs[0].ends_with("components-swar-density_0.5.svg"));
        assert!(found.text().contains("flame graph: "));
        assert!(
            found.markdown().contains("| function"),
            "{}",
            found.markdown()
        );
        // The cache simulation's misses are not in a plain count.
        let misses = Attribution::between(side(&a), side(&b), Metric::D1Misses, None, &[]);
        assert!(
            misses.table.is_none() && misses.note.is_some(),
            "{misses:?}"
        );

        let none = counted(None);
        let why = Attribution::between(side(&a), side(&none), Metric::Instructions, None, &[]);
        assert!(why.note.unwrap().contains("kept no profile"));
        let skipped = Record {
            status: Status::Skipped,
            reason: Some("not countable: valgrind has no AVX-512".into()),
            ..counted(None)
        };
        let why = Attribution::between(side(&skipped), side(&b), Metric::Instructions, None, &[]);
        assert!(why.note.unwrap().contains("valgrind has no AVX-512"));
        std::fs::remove_dir_all(out).ok();
    }
}
