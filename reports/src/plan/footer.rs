//! What a chart's footer says: the machine its figures were measured on
//! (CPU model and cores) and the one-minute load average while they were,
//! from the `machine` of each results file behind the chart.
//!
//! A busy machine makes slow, noisy figures, so the load travels with the
//! chart. Several files name each distinct machine once and give the
//! range of their loads; where the machines do not fit on one line, the
//! footer counts them instead (the page's runs table names them all).

use crate::chart::footer::Footer;
use crate::results::Machine;

/// The footer of a chart drawn from runs on `runs` (one per results file,
/// repeated for files of one machine).
pub(crate) fn footer(runs: &[&Machine]) -> Footer {
    let mut machines: Vec<String> = Vec::new();
    for m in runs {
        let named = describe(m);
        if !machines.contains(&named) {
            machines.push(named);
        }
    }
    let with_load = |head: String| match load(runs) {
        Some(load) => format!("{head} · {load}"),
        None => head,
    };
    let forms = match machines.as_slice() {
        [] => Vec::new(),
        [one] => vec![with_load(format!("machine: {one}"))],
        many => vec![
            with_load(format!("machines: {}", many.join("; "))),
            with_load(format!("{} machines", many.len())),
        ],
    };
    Footer { forms }
}

/// A machine as the footer names it: `AMD EPYC 9454P, 48 cores`.
fn describe(m: &Machine) -> String {
    let model = match m.cpu_model.trim() {
        "" => "unknown CPU",
        model => model,
    };
    match m.cores {
        0 => model.to_owned(),
        1 => format!("{model}, 1 core"),
        n => format!("{model}, {n} cores"),
    }
}

/// The load average of `runs`: one run's at its start and end, several
/// runs' range; `None` where no run could read it.
fn load(runs: &[&Machine]) -> Option<String> {
    if let [one] = runs {
        return match (one.load_start, one.load_end) {
            (Some(start), Some(end)) => Some(format!("load average {start:.2} → {end:.2}")),
            (Some(start), None) => Some(format!("load average {start:.2} at start")),
            (None, Some(end)) => Some(format!("load average {end:.2} at end")),
            (None, None) => None,
        };
    }
    let read: Vec<[Option<f64>; 2]> = runs
        .iter()
        .map(|m| [m.load_start, m.load_end])
        .filter(|ends| ends.iter().any(Option::is_some))
        .collect();
    if read.is_empty() {
        return None;
    }
    let values = read.iter().flatten().flatten().copied();
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let range = match (format!("{lo:.2}"), format!("{hi:.2}")) {
        (lo, hi) if lo == hi => lo,
        (lo, hi) => format!("{lo}–{hi}"),
    };
    let of = if read.len() == runs.len() {
        format!("{} runs", runs.len())
    } else {
        format!("{} of {} runs", read.len(), runs.len())
    };
    Some(format!("load average {range} over {of}"))
}

#[cfg(test)]
mod tests {
    use super::footer;
    use crate::results::Machine;

    fn machine(model: &str, cores: usize, load: (Option<f64>, Option<f64>)) -> Machine {
        Machine {
            cpu_model: model.into(),
            cores,
            load_start: load.0,
            load_end: load.1,
            ..Machine::default()
        }
    }

    #[test]
    fn one_run_names_its_machine_and_its_load_at_start_and_end() {
        let m = machine("AMD EPYC 9454P", 2, (Some(0.5), Some(1.25)));
        assert_eq!(
            footer(&[&m]).forms,
            ["machine: AMD EPYC 9454P, 2 cores · load average 0.50 → 1.25"]
        );
        let m = machine("AMD EPYC 9454P", 1, (None, Some(0.2)));
        assert_eq!(
            footer(&[&m]).forms,
            ["machine: AMD EPYC 9454P, 1 core · load average 0.20 at end"]
        );
    }

    #[test]
    fn a_load_no_run_could_read_is_left_out() {
        let m = machine("", 0, (None, None));
        assert_eq!(footer(&[&m, &m]).forms, ["machine: unknown CPU"]);
    }

    #[test]
    fn several_runs_give_the_range_of_their_loads() {
        let a = machine("Test CPU", 4, (Some(0.3), Some(0.4)));
        let b = machine("Test CPU", 4, (Some(1.9), None));
        let c = machine("Test CPU", 4, (None, None));
        assert_eq!(
            footer(&[&a, &b]).forms,
            ["machine: Test CPU, 4 cores · load average 0.30–1.90 over 2 runs"]
        );
        assert_eq!(
            footer(&[&a, &b, &c]).forms,
            ["machine: Test CPU, 4 cores · load average 0.30–1.90 over 2 of 3 runs"]
        );
    }

    #[test]
    fn several_machines_are_named_or_else_counted() {
        let a = machine("Test CPU", 4, (Some(0.5), Some(0.5)));
        let b = machine("Other CPU", 8, (Some(0.5), Some(0.5)));
        assert_eq!(
            footer(&[&a, &b]).forms,
            [
                "machines: Test CPU, 4 cores; Other CPU, 8 cores · load average 0.50 over 2 runs",
                "2 machines · load average 0.50 over 2 runs",
            ]
        );
        assert!(footer(&[]).forms.is_empty());
    }
}
