//! What holds across the rows: Holm's correction makes each paired time's
//! p-value a verdict, the family's error rate kept however many records
//! are compared, and the rows whose verdict may not hold make one warning.

use super::table::Row;
use reports::compare::{ALPHA, Verdict, holm_rejects};

/// Holm's correction over the paired time rows: those whose p-value
/// survives moved beyond the threshold, in the direction of their change.
pub fn holm(rows: &mut [Row]) {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].metric == "time" && rows[i].p_value.is_some())
        .collect();
    let p: Vec<f64> = tested.iter().filter_map(|&i| rows[i].p_value).collect();
    for (&i, moved) in tested.iter().zip(holm_rejects(&p, ALPHA)) {
        // A move whose interval (widened by the spread between processes)
        // still holds no change is not shown.
        let beyond = rows[i]
            .interval_pct
            .is_none_or(|v| v.low > 0.0 || v.high < 0.0);
        rows[i].verdict = match (moved && beyond, rows[i].change_pct.unwrap_or(0.0) > 0.0) {
            (false, _) => Verdict::NoChange,
            (true, true) => Verdict::Regressed,
            (true, false) => Verdict::Improved,
        };
    }
}

/// The one warning line for the rows with a concern, if any.
pub fn warning(rows: &[Row]) -> Option<String> {
    let named: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let why = r.concern.as_ref()?;
            Some(format!(
                "{} {} {}: {why}",
                r.workload, r.variant, r.input_set
            ))
        })
        .collect();
    reports::disturbance::warning_line(
        &named,
        "time verdict(s)",
        "Give it more --seconds, a quieter machine, or --core N on an idle core.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ab::plan::Planned;

    #[test]
    fn the_warning_is_one_line_naming_every_row_with_a_concern() {
        let p = Planned {
            workload: "w".into(),
            variant: "v".into(),
            set: "s".into(),
            unit: "board".into(),
            plural: None,
        };
        let mut rows = vec![Row::new(&p, "time", "ns/board"); 3];
        rows[1].concern = Some("10 of 20 pairs disturbed".into());
        rows[2].concern = Some("pairs spread ±3 %".into());
        let line = warning(&rows).unwrap();
        assert!(!line.contains('\n'));
        assert!(
            line.contains("2 time verdict(s)") && line.contains("--core"),
            "{line}"
        );
        assert_eq!(warning(&rows[..1]), None);
    }
}
