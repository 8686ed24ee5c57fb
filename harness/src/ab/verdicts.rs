//! What holds across the rows: the rows whose verdict may not hold make
//! one warning. (The family's error rate is kept by the level of every
//! interval, `stats::level`, fixed before the first record is timed.)

use super::table::Row;

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
