//! What each build allocates: its serve child counts one untimed pass
//! over the batch when it loads it, as `bench` counts one after
//! verification, and the two builds' figures are judged exactly, as
//! `compare` judges them, so any increase beyond the threshold is a
//! regression. Nothing is timed: the figures come with the answers.

use super::answers::Batch;
use super::plan::Planned;
use super::table::Row;
use crate::allocations::Counted;
use crate::engine::bench::allocated;
use crate::revision::Side;
use reports::compare::{self, Verdict};
use reports::{Metric, Record, Status};

/// Rows of `metrics` (those `ab` counts as a batch loads) for `p`,
/// judged on `batch`'s two counts, whose records go to `records`; a
/// build that did not count makes each row "not comparable".
pub fn judge(
    p: &Planned,
    batch: &Batch,
    sides: [&Side; 2],
    metrics: &[Metric],
    threshold: &dyn Fn(Metric) -> f64,
    records: &mut Vec<Record>,
) -> Vec<Row> {
    let [Some(a), Some(b)] = batch.allocations else {
        let who = match batch.allocations {
            [None, None] => "neither build",
            [None, _] => "A",
            _ => "B",
        };
        return metrics
            .iter()
            .map(|m| {
                let mut row = Row::new(p, m.as_str(), "");
                row.verdict = Verdict::NotComparable(format!(
                    "not counted: {who} did not count allocations (a program built before \
                     they were counted, one not through `bitbench::main!`, or one whose own \
                     allocator does not count)"
                ));
                row
            })
            .collect();
    };
    let [of_a, of_b] =
        [(a, sides[0]), (b, sides[1])].map(|(c, side)| side_records(p, batch, c, side));
    let mut rows = Vec::new();
    for &metric in metrics {
        let find = |of: &[Record]| of.iter().find(|r| r.metric == metric).cloned();
        let (Some(ra), Some(rb)) = (find(&of_a), find(&of_b)) else {
            continue;
        };
        rows.push(Row::from_compared(
            &compare::judge(&ra, &rb, threshold(metric)),
            metric.as_str(),
        ));
        records.extend([ra, rb]);
    }
    rows
}

/// One build's allocation records of `p` on `batch`, labelled with `side`.
fn side_records(p: &Planned, batch: &Batch, counted: Counted, side: &Side) -> Vec<Record> {
    allocated::of(counted, batch.elements, |metric| Record {
        workload: p.workload.clone(),
        variant: p.variant.clone(),
        input_set: p.set.clone(),
        target_cpu: crate::machine::target_cpu().to_owned(),
        metric,
        unit: metric.unit(&p.unit).unwrap_or_default(),
        status: Status::Ok,
        source: Some(format!("{} {}", side.label, side.name)),
        unit_plural: p.plural.clone(),
        ..Record::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned() -> Planned {
        Planned {
            workload: "w".into(),
            variant: "v".into(),
            set: "s".into(),
            unit: "item".into(),
            plural: None,
        }
    }

    fn side(label: &'static str) -> Side {
        Side {
            label,
            name: label.to_lowercase(),
            exe: "x".into(),
        }
    }

    fn batch(allocations: [Option<Counted>; 2]) -> Batch {
        Batch {
            lines: Vec::new(),
            inputs: 4,
            elements: 4,
            allocations,
            ghz: [None; 2],
        }
    }

    const ALL: [Metric; 3] = [
        Metric::Allocations,
        Metric::AllocatedBytes,
        Metric::PeakBytes,
    ];

    #[test]
    fn one_more_allocation_a_batch_is_a_regression_and_the_rest_stays() {
        let a = Counted {
            allocations: 4,
            bytes: 128,
            peak: 64,
        };
        let b = Counted {
            allocations: 5,
            ..a
        };
        let (a_side, b_side) = (side("A"), side("B"));
        let mut records = Vec::new();
        let rows = judge(
            &planned(),
            &batch([Some(a), Some(b)]),
            [&a_side, &b_side],
            &ALL,
            &|_| 1.0,
            &mut records,
        );
        let verdicts: Vec<(&str, &Verdict)> = rows
            .iter()
            .map(|r| (r.metric.as_str(), &r.verdict))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("allocations", &Verdict::Regressed),
                ("allocated_bytes", &Verdict::NoChange),
                ("peak_bytes", &Verdict::NoChange),
            ]
        );
        // Per element: 4 inputs of one element each; the peak per pass.
        assert_eq!((rows[0].a, rows[0].b), (Some(1.0), Some(1.25)));
        assert_eq!((rows[2].a, rows[2].b), (Some(64.0), Some(64.0)));
        assert_eq!(rows[0].unit, "allocations/item");
        assert_eq!(records.len(), 6);
        assert_eq!(records[1].source.as_deref(), Some("B b"));
    }

    #[test]
    fn a_build_that_did_not_count_is_named() {
        let (a_side, b_side) = (side("A"), side("B"));
        let mut records = Vec::new();
        let rows = judge(
            &planned(),
            &batch([None, Some(Counted::default())]),
            [&a_side, &b_side],
            &ALL[..1],
            &|_| 1.0,
            &mut records,
        );
        let [row] = rows.as_slice() else {
            panic!("one row: {rows:?}")
        };
        let Verdict::NotComparable(why) = &row.verdict else {
            panic!("{:?}", row.verdict)
        };
        assert!(why.starts_with("not counted: A did not count"), "{why}");
        assert!(records.is_empty());
    }
}
