//! One record compared alone, as `history bisect` asks of each step:
//! answers, then paired time, judged as `ab` judges its rows.

use super::answers::{Compared, answers};
use super::build::Build;
use super::options::EXTEND;
use super::pairs;
use super::plan::Planned;
use super::table::Row;
use super::time::time;
use crate::error::Error;
use crate::revision::Side;
use reports::compare::Verdict;
use std::path::Path;
use std::time::Duration;

/// One record's time in two builds with serve mode, paired as `ab` pairs
/// them (after comparing their answers; only those unless `timed`): `ab`'s
/// row for it, judged alone.
/// `record` is (workload, variant, input set); `Err` (usage) when a build
/// has no serve mode or does not know the record.
pub fn paired_time(
    sides: [Side; 2],
    record: [&str; 3],
    seed: u64,
    budget: Duration,
    threshold: f64,
    files: &Path,
    timed: bool,
) -> Result<Row, Error> {
    let [workload, variant, set] = record;
    let [a, b] = sides;
    let timeout = crate::fault::DEFAULT_TIMEOUT;
    let (mut a, mut b) = (Build::start(a, timeout), Build::start(b, timeout));
    let mut unit = None;
    let mut plural = None;
    for build in [&a, &b] {
        let Some((_, hello)) = &build.child else {
            return Err(Error::usage(format!(
                "{} has no serve mode, which paired time needs",
                build.side.name
            )));
        };
        let known = hello.workloads.iter().find(|w| w.name == workload);
        unit = known.map(|w| w.unit.clone());
        plural = known.and_then(|w| w.plural.clone());
    }
    let p = Planned {
        workload: workload.to_owned(),
        variant: variant.to_owned(),
        set: set.to_owned(),
        unit: unit.ok_or_else(|| Error::usage(format!("unknown workload '{workload}'")))?,
        plural,
    };
    let row = match answers(None, &p, seed, &mut a, &mut b, files) {
        Err(Verdict::NotComparable(why)) => return Err(Error::usage(why)),
        Err(verdict) | Ok(Compared::Differ(verdict, _)) => {
            let mut row = Row::new(&p, "answers", "");
            row.verdict = verdict;
            return Ok(row);
        }
        Ok(Compared::Agree(_)) if !timed => {
            let mut row = Row::new(&p, "answers", "");
            row.verdict = Verdict::NoChange;
            return Ok(row);
        }
        Ok(Compared::Agree(batch)) => {
            let budget = pairs::Budget {
                base: budget,
                cap: budget * EXTEND,
                threshold_pct: threshold,
                records: 1,
            };
            let core = crate::cores::least_busy(crate::cores::LOOK);
            time(
                &p,
                batch,
                [&mut a, &mut b],
                (budget, core),
                files,
                &mut Vec::new(),
            )?
        }
    };
    Ok(row)
}
