//! gungraun's JSON summaries, one a line, turned into instruction counts
//! per (benchmark, bench) id and then into results records.

use super::CountCase;
use crate::erased::DynWorkload;
use reports::{Metric, Record, Status};

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
    let instructions = callgrind
        .and_then(|d| d["total"]["metrics"]["Ir"]["values"]["new"].as_u64())
        .ok_or_else(|| format!("{name} {bench}: no callgrind Ir in the summary"))?;
    let threads = callgrind
        .and_then(|d| d["parts"].as_array())
        .map_or(1, |parts| parts.len().max(1));
    Ok(Summary {
        benchmark,
        bench,
        instructions,
        threads,
    })
}

/// Builds the records of a count: one per planned case, counted or not.
pub fn record(
    w: &dyn DynWorkload,
    case: &CountCase,
    target_cpu: &str,
    outcome: Result<(u64, u64), (Status, String)>,
) -> Record {
    let base = Record {
        workload: case.workload.clone(),
        variant: case.variant.clone(),
        input_set: case.set.clone(),
        target_cpu: target_cpu.to_owned(),
        metric: Metric::Instructions,
        unit: format!("instructions/{}", w.unit_singular()),
        ..Record::default()
    };
    match outcome {
        Ok((instructions, elements)) => {
            let per = instructions as f64 / elements as f64;
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
            }
        );
        let no_ir = line.replace("\"Ir\"", "\"Xr\"");
        assert!(
            parse_summaries(&no_ir)
                .unwrap_err()
                .contains("no callgrind Ir")
        );
    }
}
