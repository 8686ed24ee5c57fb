//! The growth laws `bench` prints under a size sweep's tables: one line per
//! variant, fitted as the report fits them ([`reports::growth`]), so the
//! terminal and the report never disagree.

use crate::dyn_workload::DynWorkload;
use crate::outln;
use reports::Record;
use reports::growth::of_records;

/// Under the tables of `w`'s `records`, for each parameter its sets sweep
/// alone that is a size, a line per variant with its law; nothing where
/// no sweep is a size or too few sizes were measured.
pub fn print(w: &dyn DynWorkload, records: &[Record]) {
    // The records carry their parameters once annotated.
    let mut records = records.to_vec();
    w.annotate(&mut records);
    let mut params: Vec<&str> = Vec::new();
    for r in &records {
        if let [p] = r.parameters.as_slice()
            && !params.contains(&p.name.as_str())
        {
            params.push(&p.name);
        }
    }
    for param in params {
        let mut lines = Vec::new();
        for v in w.variants() {
            let of: Vec<&Record> = records.iter().filter(|r| r.variant == v.name).collect();
            if let Some(sweep) = of_records(&of, param) {
                lines.push(format!("  {}: {}", v.name, sweep.law.line()));
            }
        }
        if !lines.is_empty() {
            outln!(
                "\n{}: growth of the time per input with {param} (a + b·g(n); see docs/report.md, How cost grows)",
                w.name()
            );
            for line in lines {
                outln!("{line}");
            }
        }
    }
}
