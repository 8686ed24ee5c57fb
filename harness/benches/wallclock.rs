//! Wall-clock benchmarks with criterion, generated from the workload registry.
//!
//! One criterion group per workload and one `BenchmarkId` per (variant,
//! input set), with `Throughput::Elements` so criterion reports elements
//! per second. Every variant is verified against the reference before it is
//! timed; unavailable, skipped or wrong variants are reported and left out.
//! Filter as usual: `cargo bench -p harness --bench wallclock -- components/swar`.
//!
//! Preparing a batch means generating and verifying its inputs, which takes
//! longer than a short filtered run, so the filter is applied before a
//! batch is prepared, not only before it is timed. criterion's own plots
//! are off: `bitbench report` draws the charts.

use bitbench::batch::{BatchError, BatchRequest};
use criterion::{BenchmarkId, Criterion, Throughput};
use regex::Regex;
use std::time::Duration;

/// criterion's benchmark filter, read from the same arguments criterion
/// reads (`[FILTER] [--exact] [--ignored]`), so that batches outside it are
/// never prepared.
enum Filter {
    All,
    Regex(Regex),
    Exact(String),
    Nothing,
}

impl Filter {
    /// criterion's options that take a value (the value is not a filter).
    const VALUED: &[&str] = &[
        "-c",
        "--color",
        "-s",
        "--save-baseline",
        "-b",
        "--baseline",
        "--baseline-lenient",
        "--format",
        "--profile-time",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--plotting-backend",
        "--output-format",
    ];

    fn from_args() -> Filter {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut pattern = None;
        let mut skip_value = false;
        for arg in &args {
            if std::mem::take(&mut skip_value) {
                continue;
            }
            if arg.starts_with('-') {
                skip_value = Self::VALUED.contains(&arg.as_str());
            } else if pattern.is_none() {
                pattern = Some(arg.clone());
            }
        }
        let flag = |name: &str| args.iter().any(|a| a == name);
        match pattern {
            _ if flag("--ignored") => Filter::Nothing,
            Some(p) if flag("--exact") => Filter::Exact(p),
            // An invalid pattern is left for criterion to report.
            Some(p) => Regex::new(&p).map_or(Filter::All, Filter::Regex),
            None => Filter::All,
        }
    }

    fn matches(&self, id: &str) -> bool {
        match self {
            Filter::All => true,
            Filter::Regex(re) => re.is_match(id),
            Filter::Exact(exact) => id == exact,
            Filter::Nothing => false,
        }
    }
}

fn wallclock(c: &mut Criterion, filter: &Filter) {
    for w in bitbench::builtin::WORKLOADS {
        let mut group = c.benchmark_group(w.name());
        for set in w.measured_sets(&[], false) {
            for v in w.variants() {
                if !filter.matches(&format!("{}/{}/{set}", w.name(), v.name)) {
                    continue;
                }
                let request = BatchRequest {
                    variant: v.name,
                    set: &set,
                    seed: 1,
                    quick: false,
                    verify: true,
                };
                let mut batch = match w.prepare_batch(&request) {
                    Ok(batch) => batch,
                    Err(BatchError::Skipped(reason) | BatchError::Wrong(reason)) => {
                        eprintln!("{}/{}/{set}: not measured: {reason}", w.name(), v.name);
                        continue;
                    }
                    Err(BatchError::Invalid(e)) => panic!("{}: {e}", w.name()),
                };
                let elements = batch.elements.expect("verified batches count elements");
                group.throughput(Throughput::Elements(elements));
                group.bench_function(BenchmarkId::new(v.name, &set), |b| b.iter(|| batch.run()));
            }
        }
        group.finish();
    }
}

fn main() {
    // Short defaults: the registry has many (variant, set) pairs; criterion's
    // command-line options still override them.
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
        .without_plots()
        .configure_from_args();
    wallclock(&mut c, &Filter::from_args());
    c.final_summary();
}
