//! A time record read in cycles: each sample times the core's clock as
//! calibrated beside it ([`crate::cycles`]), so a record's cycles per
//! element keep its rounds and its interval, and a clock that moved
//! between rounds moves no figure.

use crate::cycles::Calibrations;
use reports::{Clock, Metric, Record, Status};

/// Where the kernel says which clocksource its clock reads.
const CLOCKSOURCE: &str = "/sys/devices/system/clocksource/clocksource0/current_clocksource";

/// The `cycles` record of `time`, whose round `r` was calibrated as
/// `clocks[r]` says; `summarise` makes a record of per-element figures by
/// round. A round not calibrated is left out; skipped, with the reason,
/// where none was.
pub fn record(
    time: &Record,
    clocks: &[Result<Calibrations, String>],
    summarise: impl Fn(&[Vec<f64>]) -> Record,
) -> Record {
    let element = time.unit.strip_prefix("ns/").unwrap_or(&time.unit);
    let unit = Metric::Cycles.unit(element).unwrap_or_default();
    let skipped = |why: &str| Record {
        workload: time.workload.clone(),
        variant: time.variant.clone(),
        input_set: time.input_set.clone(),
        target_cpu: time.target_cpu.clone(),
        metric: Metric::Cycles,
        unit: unit.clone(),
        unit_plural: time.unit_plural.clone(),
        parameters: time.parameters.clone(),
        status: Status::Skipped,
        reason: Some(format!("not calibrated: {why}")),
        ..Record::default()
    };
    let mut rounds = Vec::with_capacity(clocks.len());
    let mut all = Vec::new();
    let mut refused = "no calibration beside the samples";
    for (ns, clock) in time.rounds.iter().zip(clocks) {
        let clock = match clock {
            Ok(clock) => clock,
            // A round whose every calibration was refused (the chains
            // disagreed throughout) is left out of the cycles.
            Err(why) => {
                refused = why;
                continue;
            }
        };
        let cycles: Option<Vec<f64>> = ns
            .iter()
            .enumerate()
            .map(|(i, ns)| clock.at(i).map(|ghz| ns * ghz))
            .collect();
        let Some(cycles) = cycles else {
            return skipped("no calibration beside the samples");
        };
        rounds.push(cycles);
        all.extend(clock.taken.iter().map(|t| t.1));
    }
    all.sort_by(f64::total_cmp);
    let (Some(&low), Some(&high)) = (all.first(), all.last()) else {
        return skipped(refused);
    };
    Record {
        metric: Metric::Cycles,
        unit,
        clock: Some(Clock {
            median_ghz: all[all.len() / 2],
            low_ghz: low,
            high_ghz: high,
            clocksource: std::fs::read_to_string(CLOCKSOURCE)
                .ok()
                .map(|s| s.trim().to_owned()),
        }),
        ..summarise(&rounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(rounds: Vec<Vec<f64>>) -> Record {
        Record {
            unit: "ns/board".into(),
            rounds,
            ..Record::default()
        }
    }

    fn summarise(rounds: &[Vec<f64>]) -> Record {
        Record {
            rounds: rounds.to_vec(),
            ..Record::default()
        }
    }

    #[test]
    fn each_sample_is_read_at_its_own_clock() {
        // A clock that moved from 3 to 4 GHz between two rounds: the same
        // 2 ns read 6 and 8 cycles.
        let clocks = [
            Ok(Calibrations {
                taken: vec![(0, 3.0), (2, 3.0)],
            }),
            Ok(Calibrations {
                taken: vec![(0, 4.0), (2, 4.0)],
            }),
        ];
        let r = record(
            &time(vec![vec![2.0, 2.0], vec![2.0, 2.0]]),
            &clocks,
            summarise,
        );
        assert_eq!(r.metric, Metric::Cycles);
        assert_eq!(r.unit, "cycles/board");
        assert_eq!(r.rounds, vec![vec![6.0, 6.0], vec![8.0, 8.0]]);
        let clock = r.clock.unwrap();
        assert_eq!((clock.low_ghz, clock.high_ghz), (3.0, 4.0));
    }

    #[test]
    fn rounds_not_calibrated_are_left_out_and_none_skips_the_record() {
        let refused = || Err("the add chain read 2 GHz and the imul chain 0.7".to_owned());
        let r = record(&time(vec![vec![2.0]]), &[refused()], summarise);
        assert_eq!(r.status, Status::Skipped);
        assert!(
            r.reason
                .unwrap()
                .starts_with("not calibrated: the add chain")
        );
        assert!(r.rounds.is_empty());
        let calibrated = Ok(Calibrations {
            taken: vec![(0, 3.0)],
        });
        let rounds = vec![vec![2.0], vec![5.0]];
        let r = record(&time(rounds), &[refused(), calibrated], summarise);
        assert_eq!(r.status, Status::Ok);
        assert_eq!(r.rounds, vec![vec![15.0]]);
    }
}
