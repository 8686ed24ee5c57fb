//! `bitbench dispatch`: results files become a dispatcher.
//!
//! From one or more results files (a bench, the levels of a `matrix`,
//! several machines) it decides per workload which variant to run, by the
//! CPU features detected at run time and the input's regime
//! ([`Workload::regime`](crate::Workload::regime)), prints the decision
//! table and, with `--out`, writes it as a Rust module the adapter
//! registers as one more variant. `--check` reads such a module back and
//! exits 1 where the results would now decide otherwise beyond their
//! intervals. The rules are [`reports::dispatch`]'s; this module gathers
//! what only the program knows: each variant's features, the cost model's
//! refusals, the target features of each level.

mod source;

use crate::dyn_workload::DynWorkload;
use crate::entry::Suite;
use crate::error::Error;
use crate::{out, outln};
use reports::ResultsFile;
use reports::dispatch::{self, Decision, RuledOut, Spec, VariantSpec};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// `bitbench dispatch`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Results files to decide from: a bench, a matrix, runs of several
    /// machines (each file names its machine).
    #[arg(required = true, value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// The workload to decide for; needed with --out when the files hold
    /// several. Default: every workload in the files.
    #[arg(long)]
    workload: Option<String>,
    /// Write the decision as a Rust module (a `const TABLE` and `choose`)
    /// the adapter registers as a variant.
    #[arg(long, value_name = "FILE.rs", conflicts_with = "check")]
    out: Option<PathBuf>,
    /// The dispatching variant's name in the written module.
    #[arg(long, default_value = "dispatch", value_name = "NAME")]
    name: String,
    /// Read the table of a module written by --out and exit 1 where these
    /// results would choose another variant beyond the intervals.
    #[arg(long, value_name = "FILE.rs")]
    check: Option<PathBuf>,
}

/// Runs `bitbench dispatch`.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let mut files = Vec::new();
    for path in &args.results {
        files.push((path.display().to_string(), ResultsFile::read(path)?));
    }
    let files: Vec<(String, &ResultsFile)> = files.iter().map(|(l, f)| (l.clone(), f)).collect();
    if let Some(path) = &args.check {
        return check(suite, &files, path);
    }
    let workloads = match &args.workload {
        Some(name) => vec![suite.find(name)?],
        None => in_files(suite, &files),
    };
    if workloads.is_empty() {
        return Err(Error::usage(format!(
            "no workload of {} has time records in {}",
            suite.origin().binary,
            labels(&files)
        )));
    }
    if args.out.is_some() && workloads.len() > 1 {
        let names: Vec<&str> = workloads.iter().map(|w| w.name()).collect();
        return Err(Error::usage(format!(
            "--out writes one workload's dispatcher and the files hold {}: name one with --workload",
            names.join(", ")
        )));
    }
    for (i, w) in workloads.iter().enumerate() {
        let decision = decide(*w, &files)?;
        if i > 0 {
            outln!();
        }
        out!("{}", dispatch::table_text(&decision));
        if let Some(path) = &args.out {
            let command: Vec<String> = std::env::args().collect();
            let header = source::Header {
                command: &command_line(suite, &command),
                date: &crate::machine::now().0,
                program: suite.origin().binary,
            };
            let text = source::write(&decision, &args.name, &header);
            std::fs::write(path, text).map_err(|e| {
                Error::usage(format!("--out {}: cannot write: {e}", path.display()))
            })?;
            outln!("dispatcher: {}", path.display());
        }
    }
    Ok(())
}

/// `dispatch --check`: what the module at `path` runs against what the
/// files decide now.
fn check(suite: &Suite, files: &[(String, &ResultsFile)], path: &PathBuf) -> Result<(), Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("--check {}: {e}", path.display())))?;
    let table = source::read(&text)
        .map_err(|e| Error::usage(format!("--check {}: {e}", path.display())))?;
    let w = suite.find(&table.workload)?;
    let decision = decide(w, files)?;
    let shifts = dispatch::shifts(&decision, |level, features, regime| {
        table.runs(level, features, regime)
    });
    let cells: usize = decision
        .levels
        .iter()
        .flat_map(|l| &l.tiers)
        .map(|t| t.cells.len())
        .sum();
    if shifts.is_empty() {
        outln!(
            "{}: holds: {} would choose as it does in all {cells} measured cell(s), within the intervals",
            path.display(),
            labels(files)
        );
        return Ok(());
    }
    for s in &shifts {
        let regime = match (s.regime, decision.parameter.as_deref()) {
            (Some(value), Some(parameter)) => format!("{parameter} {value}"),
            _ => "every input".to_owned(),
        };
        let tier = if s.features.is_empty() {
            "any CPU".to_owned()
        } else {
            s.features.join("+")
        };
        let margin = if s.margin.is_finite() {
            format!("{:.2}× slower", s.margin)
        } else {
            "no longer a candidate".to_owned()
        };
        outln!(
            "{}: target-cpu {}, {tier}, {regime}: runs {}, now {} ({} is {margin})",
            path.display(),
            s.target_cpu,
            s.old,
            s.new,
            s.old
        );
    }
    Err(Error::failed(format!(
        "{}: {} decision(s) changed beyond the intervals; regenerate it with `{} dispatch RESULTS… --out {}`",
        path.display(),
        shifts.len(),
        suite.origin().binary,
        path.display()
    )))
}

/// The workloads of `suite` that have time records in `files`, in the
/// suite's order.
fn in_files<'a>(suite: &Suite<'a>, files: &[(String, &ResultsFile)]) -> Vec<&'a dyn DynWorkload> {
    suite
        .workloads()
        .iter()
        .copied()
        .filter(|w| {
            files.iter().any(|(_, f)| {
                f.workload(w.name())
                    .any(|r| r.metric == reports::Metric::Time)
            })
        })
        .collect()
}

/// Decides for `w` from `files`.
fn decide(w: &dyn DynWorkload, files: &[(String, &ResultsFile)]) -> Result<Decision, Error> {
    let variants: Vec<VariantSpec> = w
        .variants()
        .into_iter()
        .filter(|v| !crate::dispatch::is_dispatching(w.name(), v.name))
        .map(|v| VariantSpec {
            name: v.name.to_owned(),
            features: v.features.iter().map(|f| (*f).to_owned()).collect(),
        })
        .collect();
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let mut sets: Vec<&str> = Vec::new();
    let mut level_features = BTreeMap::new();
    for (_, file) in files {
        for r in file.workload(w.name()) {
            if !sets.contains(&r.input_set.as_str()) {
                sets.push(&r.input_set);
            }
            level_features
                .entry(r.target_cpu.clone())
                .or_insert_with(|| target_features(&r.target_cpu, file));
        }
    }
    let mut ruled_out = Vec::new();
    for set in sets {
        for (variant, reason) in w.ruled_out(set, &names) {
            ruled_out.push(RuledOut {
                variant,
                input_set: set.to_owned(),
                reason,
            });
        }
    }
    let spec = Spec {
        workload: w.name().to_owned(),
        parameter: w.regime_parameter().map(str::to_owned),
        variants,
        ruled_out,
        level_features,
    };
    dispatch::decide(&spec, files).map_err(Error::usage)
}

/// The target features a build at `level` compiles in: the psABI level's,
/// or for `native` the measuring machine's own (as its file lists them).
fn target_features(level: &str, file: &ResultsFile) -> Vec<String> {
    match level {
        "native" => file.machine.cpu_flags.clone(),
        level => crate::levels::required_features(level)
            .into_iter()
            .map(str::to_owned)
            .collect(),
    }
}

/// The files' labels, joined.
fn labels(files: &[(String, &ResultsFile)]) -> String {
    files
        .iter()
        .map(|(l, _)| l.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The command line as the program's name and its arguments, to name in
/// the written module.
fn command_line(suite: &Suite, args: &[String]) -> String {
    std::iter::once(suite.origin().binary)
        .chain(args.iter().skip(1).map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(all(test, feature = "suite"))]
mod tests {
    use super::*;
    use crate::builtin::cephalopod::CEPHALOPOD;
    use crate::builtin::components::ALL;
    use reports::interval::Interval;
    use reports::{Machine, Metric, Parameter, Record};

    /// A results file of `workload`'s time records, each `(variant, set,
    /// median, interval)`, the set's density its parameter where it has one.
    fn file(workload: &str, records: &[(&str, &str, f64, (f64, f64))]) -> ResultsFile {
        let mut file = ResultsFile::new(
            "2026-11-28T00:00:00Z".into(),
            "bench".into(),
            Machine {
                name: "lab".into(),
                cpu_model: "a CPU".into(),
                ..Machine::default()
            },
            reports::Build::default(),
        );
        for &(variant, set, median, (low, high)) in records {
            let parameters = set
                .strip_prefix("density:")
                .map(|p| Parameter {
                    name: "density".into(),
                    value: p.parse().unwrap(),
                    meaning: None,
                })
                .into_iter()
                .collect();
            file.records.push(Record {
                workload: workload.into(),
                variant: variant.into(),
                input_set: set.into(),
                target_cpu: "default".into(),
                metric: Metric::Time,
                unit: "ns/x".into(),
                median,
                samples: 10,
                elements_per_sample: 1,
                parameters,
                interval: Some(Interval { low, high }),
                ..Record::default()
            });
        }
        file
    }

    #[test]
    fn a_variant_the_cost_model_refuses_on_a_set_is_never_chosen_there() {
        // naive looks fastest everywhere, but cephalopod's cost model
        // refuses it on official:12.
        let measured = file(
            "cephalopod",
            &[
                ("naive", "official:12", 1.0, (0.9, 1.1)),
                ("memo", "official:12", 5.0, (4.9, 5.1)),
                ("front", "official:12", 3.0, (2.9, 3.1)),
            ],
        );
        let d = decide(&CEPHALOPOD, &[("f.json".to_owned(), &measured)]).unwrap();
        let tier = d.levels[0].tiers.last().unwrap();
        assert_eq!(tier.cells[0].chosen, "front");
        assert!(
            tier.cells[0]
                .candidates
                .iter()
                .all(|c| c.variant != "naive"),
            "{tier:?}"
        );
    }

    #[test]
    fn features_come_from_the_registry_and_tiers_keep_them_apart() {
        let info = crate::Workload::variants(&ALL);
        let avx2 = info.iter().find(|v| v.name == "avx2").unwrap();
        assert!(!avx2.features.is_empty());
        // avx2 wins beyond the intervals at 0.75 and ties at 0.25.
        let measured = file(
            "components",
            &[
                ("swar", "density:0.25", 10.0, (9.5, 10.5)),
                ("avx2", "density:0.25", 9.8, (9.4, 10.2)),
                ("swar", "density:0.75", 30.0, (29.0, 31.0)),
                ("avx2", "density:0.75", 20.0, (19.5, 20.5)),
            ],
        );
        let d = decide(&ALL, &[("f.json".to_owned(), &measured)]).unwrap();
        let tiers = &d.levels[0].tiers;
        let top = &tiers[0];
        assert!(
            avx2.features
                .iter()
                .all(|f| top.features.contains(&f.to_string()))
        );
        let chosen: Vec<&str> = top.cells.iter().map(|c| c.chosen.as_str()).collect();
        assert_eq!(chosen, ["swar", "avx2"]);
        let any = tiers.last().unwrap();
        assert!(any.features.is_empty());
        assert!(any.cells.iter().all(|c| c.chosen == "swar"), "{any:?}");
    }
}
