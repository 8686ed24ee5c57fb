//! Whether a run of variants passes, from the records it wrote.
//!
//! Every command that runs variants (`bench`, the main job, `matrix`,
//! `count`'s verification, `history run`) fails on a finding, whatever
//! else it did: a wrong answer (status `error`), a crash or a hang. A run
//! that passed a wrong answer with exit 0 would pass it in CI too, so the
//! rule lives in one place and reads the records, which every finding
//! reaches, rather than each command's own bookkeeping. The command still
//! writes everything first; the failure is its last line, naming the
//! records so that the reader need not search the table for them.
//! A record skipped for a reason (a cost model, a missing CPU feature, a
//! measuring tool that reported nothing) is no finding.

use crate::error::Error;
use reports::{Record, Status};

/// The findings among `records` in one line, by kind, each naming its
/// workload, variant and input sets (`wrong answer: bits/table on p:0.2,
/// p:0.5; crashed: bits/loop on p:0.8`); `None` when there are none.
pub fn summary(records: &[Record]) -> Option<String> {
    let mut kinds = Vec::new();
    for (status, words) in [
        (Status::Error, "wrong answer"),
        (Status::Crashed, "crashed"),
        (Status::Hung, "hung"),
    ] {
        // (workload/variant, its sets), in the order the records came.
        let mut named: Vec<(String, Vec<&str>)> = Vec::new();
        for r in records.iter().filter(|r| r.status == status) {
            let who = format!("{}/{}", r.workload, r.variant);
            match named.iter_mut().find(|(w, _)| *w == who) {
                Some((_, sets)) if sets.contains(&r.input_set.as_str()) => {}
                Some((_, sets)) => sets.push(&r.input_set),
                None => named.push((who, vec![&r.input_set])),
            }
        }
        if !named.is_empty() {
            let names: Vec<String> = named
                .iter()
                .map(|(who, sets)| format!("{who} on {}", sets.join(", ")))
                .collect();
            kinds.push(format!("{words}: {}", names.join("; ")));
        }
    }
    (!kinds.is_empty()).then(|| kinds.join("; "))
}

/// `Err(Failed)` naming the findings among `records`, for `command`.
pub fn check(command: &str, records: &[Record]) -> Result<(), Error> {
    match summary(records) {
        None => Ok(()),
        Some(findings) => Err(Error::failed(format!(
            "{command}: {findings} (the results file records them)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(variant: &str, set: &str, status: Status) -> Record {
        Record {
            workload: "bits".into(),
            variant: variant.into(),
            input_set: set.into(),
            status,
            ..Record::default()
        }
    }

    #[test]
    fn findings_are_named_by_kind_and_skips_are_not_findings() {
        let mut records = vec![
            record("popcnt", "p:0.2", Status::Ok),
            record("table", "p:0.2", Status::Error),
            record("table", "p:0.5", Status::Error),
            record("loop", "p:0.8", Status::Crashed),
            record("bytes", "p:0.8", Status::Skipped),
        ];
        // Another metric of a wrong record: its set is named once.
        records.push(record("table", "p:0.5", Status::Error));
        assert_eq!(
            summary(&records).as_deref(),
            Some("wrong answer: bits/table on p:0.2, p:0.5; crashed: bits/loop on p:0.8")
        );
        let err = check("bench", &records).unwrap_err();
        assert!(matches!(err, Error::Failed(_)), "{err:?}");
        assert!(err.message().starts_with("bench: wrong answer: bits/table"));

        let clean = [
            record("popcnt", "p:0.2", Status::Ok),
            record("bytes", "p:0.8", Status::Skipped),
        ];
        assert_eq!(summary(&clean), None);
        assert_eq!(check("bench", &clean), Ok(()));
    }
}
