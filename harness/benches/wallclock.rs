//! Wall-clock benchmarks with criterion, generated from the workload registry.
//!
//! One criterion group per workload and one `BenchmarkId` per (variant,
//! input set), with `Throughput::Elements` so criterion reports elements
//! per second. Every variant is verified against the reference before it is
//! timed; unavailable, skipped or wrong variants are reported and left out.
//! Filter as usual: `cargo bench -p harness --bench wallclock -- components/swar`.

use criterion::{BenchmarkId, Criterion, Throughput};
use harness::batch::{BatchError, BatchRequest};
use std::time::Duration;

fn wallclock(c: &mut Criterion) {
    for w in harness::workloads::all() {
        let mut group = c.benchmark_group(w.name());
        for set in w.measured_sets(&[], false) {
            for v in w.variants() {
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
        .configure_from_args();
    wallclock(&mut c);
    c.final_summary();
}
