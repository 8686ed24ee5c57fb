//! Preparation seen from every engine: a variant's own input form is made
//! outside the timed runs, its cost is a record of its own, and its
//! answers are checked against the oracle's on the shared inputs.
//!
//! Speed is never asserted: calls are counted instead. Each preparation
//! of the batch prepares every input once, so the count says whether the
//! timed runs, however many there were, prepared anything.

use crate::engine::batch::{self, BatchError, BatchRequest};
use crate::engine::bench::{self, BenchOptions};
use crate::engine::check::{self, CheckOptions};
use crate::sets::{InputSet, Member};
use crate::workload::{Solve, VariantInfo, Workload, prepared};
use reports::{Metric, Status};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Words written in decimal; the answer is their number of set bits.
/// `parse` reads the text on every run; `prepared` parses it beforehand;
/// `off-by-one` parses it beforehand, wrongly.
#[derive(Default)]
struct Decimal {
    /// Inputs prepared, by every variant.
    prepared: Arc<AtomicU64>,
    /// Inputs solved from a prepared form.
    solved: Arc<AtomicU64>,
}

impl Decimal {
    fn parse(text: &str) -> u64 {
        text.parse().expect("decimal")
    }
}

impl Workload for Decimal {
    type Input = String;
    type Output = u32;
    fn name(&self) -> &'static str {
        "decimal"
    }
    fn description(&self) -> &'static str {
        "set bits of a decimal word"
    }
    fn unit(&self) -> &'static str {
        "words"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        ["parse", "prepared", "off-by-one"]
            .map(|n| VariantInfo::new(n, "toy", &[]))
            .to_vec()
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<String, u32>>> {
        let (prepared_count, solved) = (self.prepared.clone(), self.solved.clone());
        let wrong = u64::from(variant == "off-by-one");
        let prepare = move |text: &String| {
            prepared_count.fetch_add(1, Ordering::Relaxed);
            Decimal::parse(text) + wrong
        };
        let count = move |n: &u64| {
            solved.fetch_add(1, Ordering::Relaxed);
            n.count_ones()
        };
        match variant {
            "parse" => Some(Box::new(|t: &String| Decimal::parse(t).count_ones())),
            "prepared" | "off-by-one" => Some(prepared(prepare, count)),
            _ => None,
        }
    }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::new("words", "odd words")]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["words".into()]
    }
    fn bench_batch(&self, _quick: bool) -> usize {
        64
    }
    fn generate(&self, _set: &Member, seed: u64, n: usize) -> Result<Vec<String>, String> {
        // Odd, so that one more is always a different count.
        Ok((0..n as u64)
            .map(|i| ((seed + i).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1).to_string())
            .collect())
    }
    fn parse_input(&self, text: &str) -> Result<String, String> {
        Ok(text.to_owned())
    }
    fn format_input(&self, input: &String) -> String {
        input.clone()
    }
    fn format_output(&self, output: &u32) -> String {
        output.to_string()
    }
}

fn options(variants: &[&str]) -> BenchOptions {
    BenchOptions {
        variants: variants.iter().map(|v| (*v).to_owned()).collect(),
        quick: true,
        rounds: Some(1),
        ..BenchOptions::default()
    }
}

#[test]
fn bench_prepares_outside_the_timed_runs_and_reports_the_cost() {
    let w = Decimal::default();
    let records = bench::run(&w, &options(&["parse", "prepared"])).unwrap();
    let find = |variant: &str, metric: Metric| {
        records
            .iter()
            .find(|r| r.variant == variant && r.metric == metric)
    };
    let time = find("prepared", Metric::Time).expect("a time record");
    assert_eq!(time.status, Status::Ok, "{time:?}");
    let preparation = find("prepared", Metric::Prepare).expect("a prepare record");
    assert_eq!(preparation.unit, time.unit, "per element, like its time");
    assert!(preparation.median > 0.0 && preparation.samples >= 3);
    assert_eq!(preparation.elements_per_sample, 64);
    assert!(
        find("parse", Metric::Prepare).is_none(),
        "a variant without a form of its own has no preparation"
    );
    // Every input prepared once per timed preparation, none in the runs.
    let batch = 64 * u64::from(preparation.samples);
    assert_eq!(w.prepared.load(Ordering::Relaxed), batch);
    assert!(
        w.solved.load(Ordering::Relaxed) > 10 * batch,
        "the timed runs solved many batches from the one preparation"
    );
}

#[test]
fn a_wrong_prepared_variant_is_caught_by_bench_and_check() {
    let w = Decimal::default();
    let records = bench::run(&w, &options(&["parse", "off-by-one"])).unwrap();
    let time = records
        .iter()
        .find(|r| r.variant == "off-by-one" && r.metric == Metric::Time)
        .unwrap();
    assert_eq!(time.status, Status::Error);
    assert!(
        time.reason.as_deref().unwrap().starts_with("wrong answer"),
        "{time:?}"
    );

    let report = check::run(&w, &CheckOptions::new(200, 1)).unwrap();
    assert_eq!(report.failures.len(), 1, "{report:?}");
    let failure = &report.failures[0];
    assert_eq!(failure.variant, "off-by-one");
    assert!(
        Decimal::parse(&failure.input).count_ones().to_string() == failure.expected,
        "the oracle's answer on the shared input: {failure:?}"
    );
}

#[test]
fn a_batch_for_outside_tools_is_prepared_once_before_its_runs() {
    let w = Decimal::default();
    let request = BatchRequest {
        variant: "prepared",
        set: "words",
        seed: 1,
        quick: true,
        verify: true,
    };
    let mut batch = batch::prepare(&w, &request).unwrap_or_else(|e| panic!("{e:?}"));
    let before = w.prepared.load(Ordering::Relaxed);
    assert_eq!(before, 64);
    for _ in 0..5 {
        batch.run();
    }
    assert_eq!(w.prepared.load(Ordering::Relaxed), before);
    let wrong = BatchRequest {
        variant: "off-by-one",
        ..request
    };
    assert!(matches!(
        batch::prepare(&w, &wrong),
        Err(BatchError::Wrong(_))
    ));
}
