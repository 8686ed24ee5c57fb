//! gungraun's output: its JSON summaries, one a line, turned into
//! instruction counts per (benchmark, bench) id and then into results
//! records, and the callgrind profiles it leaves in its home directory.

use super::CountCase;
use crate::dyn_workload::DynWorkload;
use reports::metric::Produced;
use reports::{Metric, Record, Status};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What callgrind's cache simulation adds to a summary (totals over the
/// counted region).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cache {
    /// First-level data cache misses, reads and writes (`D1mr + D1mw`).
    pub d1_misses: u64,
    /// Last-level misses, instructions and data (`ILmr + DLmr + DLmw`).
    pub ll_misses: u64,
    /// gungraun's `EstimatedCycles`: L1 hits + 5 × LL hits + 35 × RAM
    /// hits, that is `Ir + Dr + Dw + 4 × L1 misses + 30 × LL misses`.
    pub estimated_cycles: u64,
}

/// One parsed gungraun summary: the ids and the instruction count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The binary-benchmark id ([`CountCase::benchmark_id`]).
    pub benchmark: String,
    /// The bench id ([`CountCase::bench_id`]).
    pub bench: String,
    /// Callgrind's `Ir` over the counted region.
    pub instructions: u64,
    /// Threads the case ran on: the entry point counts only the thread
    /// that called [`counted_region`](super::counted_region), so more than one means workers'
    /// instructions are missing from `instructions`.
    pub threads: usize,
    /// The cache simulation's figures, when it ran.
    pub cache: Option<Cache>,
}

/// Parses gungraun's `--output-format=json` stdout: one summary a line.
pub fn parse_summaries(stdout: &str) -> Result<Vec<Summary>, String> {
    stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .map(parse_summary)
        .collect()
}

fn parse_summary(line: &str) -> Result<Summary, String> {
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("gungraun summary is not JSON: {e}"))?;
    let text = |k: &str| v[k].as_str().map(str::to_owned);
    let name = format!("{}", v["module_path"]);
    let benchmark = text("function_name").ok_or_else(|| format!("{name}: no function_name"))?;
    let bench = text("id").ok_or_else(|| format!("{name}: no id"))?;
    let callgrind = v["profiles"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["tool"] == "Callgrind")
        .map(|p| &p["data"]);
    let metric = |key: &str| {
        callgrind
            .and_then(|d| d["total"]["metrics"][key]["values"]["new"].as_f64())
            .map(|v| v.round() as u64)
    };
    let instructions =
        metric("Ir").ok_or_else(|| format!("{name} {bench}: no callgrind Ir in the summary"))?;
    let cache = (|| {
        Some(Cache {
            d1_misses: metric("D1mr")? + metric("D1mw")?,
            ll_misses: metric("ILmr")? + metric("DLmr")? + metric("DLmw")?,
            estimated_cycles: metric("EstimatedCycles")?,
        })
    })();
    let threads = callgrind
        .and_then(|d| d["parts"].as_array())
        .map_or(1, |parts| parts.len().max(1));
    Ok(Summary {
        benchmark,
        bench,
        instructions,
        threads,
        cache,
    })
}

/// The callgrind profile of each (benchmark, bench) id under gungraun's
/// home: gungraun names them `callgrind.<benchmark>.<bench>.out` (the ids
/// hold no dots). A case that ran on several threads leaves one file per
/// thread (`.out.#<pid>-<n>`) and is not counted, so those are not wanted.
pub fn profiles(home: &Path) -> HashMap<(String, String), PathBuf> {
    let mut found = HashMap::new();
    let mut dirs = vec![home.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let ids = name
                .strip_prefix("callgrind.")
                .and_then(|n| n.strip_suffix(".out"))
                .and_then(|n| n.split_once('.'));
            if let Some((benchmark, bench)) = ids {
                found.insert((benchmark.to_owned(), bench.to_owned()), path);
            }
        }
    }
    found
}

/// The metrics a count records: those counted under callgrind, less
/// those that need its cache simulation unless `cache_sim`.
pub fn metrics(cache_sim: bool) -> Vec<Metric> {
    reports::metric::DESCRIPTORS
        .iter()
        .filter(|d| {
            matches!(d.produced, Produced::Callgrind(_))
                && (cache_sim || !d.produced.needs_cache_sim())
        })
        .map(|d| d.metric)
        .collect()
}

/// Builds the records of one planned case, counted or not: one per
/// metric of [`metrics`]. `outcome` is the summary and the elements one
/// batch holds.
pub fn records(
    w: &dyn DynWorkload,
    case: &CountCase,
    target_cpu: &str,
    cache_sim: bool,
    outcome: Result<(&Summary, u64), (Status, String)>,
) -> Vec<Record> {
    metrics(cache_sim)
        .into_iter()
        .map(|metric| {
            let base = Record {
                workload: case.workload.clone(),
                variant: case.variant.clone(),
                input_set: case.set.clone(),
                target_cpu: target_cpu.to_owned(),
                metric,
                unit: metric
                    .unit(w.unit_singular())
                    .expect("a callgrind metric has a unit of its own"),
                ..Record::default()
            };
            let total = outcome
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|(s, elements)| {
                    let value = match metric {
                        Metric::Instructions => Some(s.instructions),
                        Metric::D1Misses => s.cache.map(|c| c.d1_misses),
                        Metric::LlMisses => s.cache.map(|c| c.ll_misses),
                        _ => s.cache.map(|c| c.estimated_cycles),
                    };
                    value.map(|v| (v, *elements)).ok_or_else(|| {
                        (
                            Status::Skipped,
                            "not counted: gungraun reported no cache figures for this case"
                                .to_owned(),
                        )
                    })
                });
            match total {
                Ok((total, elements)) => {
                    let per = total as f64 / elements as f64;
                    Record {
                        median: per,
                        min: per,
                        max: per,
                        samples: 1,
                        elements_per_sample: elements,
                        ..base
                    }
                }
                Err((status, reason)) => Record {
                    status,
                    reason: Some(reason),
                    ..base
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_found_by_gungraun_ids_and_thread_files_left() {
        let home = std::env::temp_dir().join(format!("bitbench-profiles-{}", std::process::id()));
        let dir = home.join("bitbench/counting/gungraun/harness/counts/a__b.a__c");
        std::fs::create_dir_all(&dir).unwrap();
        for name in [
            "callgrind.a__b.a__c.out",
            "callgrind.a__b.a__c.log",
            "callgrind.a__b.a__d.out.#12-01",
        ] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let found = profiles(&home);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[&("a__b".to_owned(), "a__c".to_owned())],
            dir.join("callgrind.a__b.a__c.out")
        );
        std::fs::remove_dir_all(home).unwrap();
    }

    #[test]
    fn summaries_yield_the_callgrind_ir_of_each_bench() {
        // The shape of gungraun 0.20's `--output-format=json` lines, trimmed.
        let line = r#"{"function_name":"components__swar","id":"components__density_0_5",
            "module_path":"harness::counting::harness::counts::components__swar",
            "profiles":[{"tool":"Callgrind","data":{"parts":[{}],"total":{"metrics":{
            "Ir":{"values":{"new":1135105}},"Dr":{"values":{"new":61230}}},
            "regressions":[]}}}]}"#
            .replace('\n', "");
        let stdout = format!("{line}\n{line}\n");
        let summaries = parse_summaries(&stdout).unwrap();
        assert_eq!(summaries.len(), 2);
        assert_eq!(
            summaries[0],
            Summary {
                benchmark: "components__swar".into(),
                bench: "components__density_0_5".into(),
                instructions: 1_135_105,
                threads: 1,
                cache: None,
            }
        );
        // With the cache simulation, its figures come too.
        let cached = line.replace(
            r#""Dr":{"values":{"new":61230}}"#,
            r#""D1mr":{"values":{"new":100}},"D1mw":{"values":{"new":20}},
            "ILmr":{"values":{"new":3}},"DLmr":{"values":{"new":4}},"DLmw":{"values":{"new":5}},
            "EstimatedCycles":{"values":{"new":1150000.0}}"#
                .replace('\n', "")
                .as_str(),
        );
        let s = &parse_summaries(&cached).unwrap()[0];
        assert_eq!(
            s.cache,
            Some(Cache {
                d1_misses: 120,
                ll_misses: 12,
                estimated_cycles: 1_150_000,
            })
        );
        let no_ir = line.replace("\"Ir\"", "\"Xr\"");
        assert!(
            parse_summaries(&no_ir)
                .unwrap_err()
                .contains("no callgrind Ir")
        );
    }
}
