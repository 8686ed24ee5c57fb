//! Instructions per cycle: a count's instructions per element over a
//! bench's cycles per element, for one variant on one input set, at one
//! target-cpu, of one build, on one machine.
//!
//! The two figures come from different processes: `count` runs the
//! variant under valgrind, `bench` times it natively and converts its
//! time with the calibrated clock. They describe one code path only when
//! both processes saw the same CPU, and valgrind's hides AVX-512. A
//! variant whose workload declares its features was not counted at all
//! where valgrind lacks them; a dispatcher (which picks among its
//! workload's variants by CPU) would have been counted on another path,
//! so it is left out when the two saw different features; any other
//! variant may pick a path by itself, so its figure is kept and the table
//! names the features the count did not see.

use crate::dataset::{Facet, Source};
use crate::interval::geomean;
use crate::results::{Metric, Record, Status};

/// What the counted process saw of the timed one's CPU.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Seen {
    /// The same features.
    Same,
    /// These features the timed process had and the counted one did not.
    Lacking(Vec<String>),
    /// A file does not say (it predates the record, or merges runs that
    /// saw different ones).
    Unknown,
}

/// One workload's IPC at one target-cpu level, on one machine.
#[derive(Clone, Debug)]
pub(crate) struct IpcTable {
    /// The workload, with the level and machine when the report holds
    /// several.
    pub title: String,
    pub sets: Vec<String>,
    /// Per variant: its IPC on each set, where both figures exist.
    pub rows: Vec<(String, Vec<Option<f64>>)>,
    /// The worst of what the counted processes saw (see [`Seen`]).
    pub seen: Seen,
}

/// One workload's IPC by level: each variant's geometric mean over the
/// sets it has a figure for at every level.
#[derive(Clone, Debug)]
pub(crate) struct IpcLevels {
    pub title: String,
    pub levels: Vec<String>,
    pub rows: Vec<(String, Vec<Option<f64>>)>,
}

/// Every workload's IPC: its tables by level, and its by-level table
/// when it has several levels.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ipc {
    pub tables: Vec<IpcTable>,
    pub levels: Vec<IpcLevels>,
}

/// One paired figure.
struct Point<'a> {
    workload: &'a str,
    level: &'a str,
    variant: &'a str,
    set: &'a str,
    ipc: f64,
    seen: Seen,
}

/// The IPC of every variant and set the sources hold both figures for.
pub(crate) fn ipc(sources: &[Source]) -> Ipc {
    let facets = Facet::all(sources);
    let mut out = Ipc::default();
    for facet in &facets {
        let points = points(&facet.sources);
        let mut workloads: Vec<&str> = Vec::new();
        for p in &points {
            if !workloads.contains(&p.workload) {
                workloads.push(p.workload);
            }
        }
        for workload in workloads {
            let of: Vec<&Point> = points.iter().filter(|p| p.workload == workload).collect();
            let levels = first_seen(of.iter().map(|p| p.level));
            let title = |level: Option<&str>| {
                let level = level.map_or_else(String::new, |l| format!(", {l}"));
                let machine = facet
                    .machine
                    .map_or_else(String::new, |m| format!(" on {m}"));
                format!("{workload}{level}{machine}")
            };
            for &level in &levels {
                let here: Vec<&&Point> = of.iter().filter(|p| p.level == level).collect();
                let sets = first_seen(here.iter().map(|p| p.set));
                let variants = first_seen(here.iter().map(|p| p.variant));
                let rows = variants
                    .iter()
                    .map(|&v| {
                        let cells = sets
                            .iter()
                            .map(|&s| {
                                here.iter()
                                    .find(|p| p.variant == v && p.set == s)
                                    .map(|p| p.ipc)
                            })
                            .collect();
                        (v.to_owned(), cells)
                    })
                    .collect();
                out.tables.push(IpcTable {
                    title: title((levels.len() > 1).then_some(level)),
                    sets: sets.iter().map(|s| (*s).to_owned()).collect(),
                    rows,
                    seen: worst(here.iter().map(|p| &p.seen)),
                });
            }
            if levels.len() > 1 {
                out.levels.push(by_level(title(None), &levels, &of));
            }
        }
    }
    out
}

/// Each variant's geometric-mean IPC at each level, over the sets it has
/// a figure for at every level (like for like).
fn by_level(title: String, levels: &[&str], points: &[&Point]) -> IpcLevels {
    let variants = first_seen(points.iter().map(|p| p.variant));
    let rows = variants
        .iter()
        .map(|&v| {
            let at = |level: &str, set: &str| {
                points
                    .iter()
                    .find(|p| p.variant == v && p.level == level && p.set == set)
                    .map(|p| p.ipc)
            };
            let sets: Vec<&str> =
                first_seen(points.iter().filter(|p| p.variant == v).map(|p| p.set))
                    .into_iter()
                    .filter(|s| levels.iter().all(|l| at(l, s).is_some()))
                    .collect();
            let cells = levels
                .iter()
                .map(|l| geomean(sets.iter().filter_map(|s| at(l, s))))
                .collect();
            (v.to_owned(), cells)
        })
        .collect();
    IpcLevels {
        title,
        levels: levels.iter().map(|l| (*l).to_owned()).collect(),
        rows,
    }
}

/// Every (cycles, instructions) pair of one machine's sources, in the
/// order of the cycles records.
fn points<'a>(sources: &[&'a Source]) -> Vec<Point<'a>> {
    let mut out: Vec<Point<'a>> = Vec::new();
    for timed in sources {
        for cycles in measured(timed, Metric::Cycles) {
            let counted = sources.iter().find_map(|counted| {
                let same_build = counted.file.build == timed.file.build;
                let record = measured(counted, Metric::Instructions).find(|r| {
                    r.workload == cycles.workload
                        && r.variant == cycles.variant
                        && r.input_set == cycles.input_set
                        && r.target_cpu == cycles.target_cpu
                        && element(r) == element(cycles)
                });
                Some((record?, seen(timed, counted))).filter(|_| same_build)
            });
            let Some((instructions, seen)) = counted else {
                continue;
            };
            if cycles.dispatcher && seen != Seen::Same {
                continue;
            }
            let duplicate = out.iter().any(|p| {
                (p.workload, p.level, p.variant, p.set)
                    == (
                        cycles.workload.as_str(),
                        cycles.target_cpu.as_str(),
                        cycles.variant.as_str(),
                        cycles.input_set.as_str(),
                    )
            });
            if !duplicate {
                out.push(Point {
                    workload: &cycles.workload,
                    level: &cycles.target_cpu,
                    variant: &cycles.variant,
                    set: &cycles.input_set,
                    ipc: instructions.median / cycles.median,
                    seen,
                });
            }
        }
    }
    out
}

/// `source`'s measured records of `metric` with a figure above zero.
fn measured(source: &Source, metric: Metric) -> impl Iterator<Item = &Record> {
    source
        .file
        .records
        .iter()
        .filter(move |r| r.metric == metric && r.status == Status::Ok && r.median > 0.0)
}

/// What a record's figure is per: `board` of `cycles/board`.
fn element(r: &Record) -> &str {
    r.unit.rsplit('/').next().unwrap_or_default()
}

/// What the process `counted` ran in saw of the CPU `timed`'s saw.
fn seen(timed: &Source, counted: &Source) -> Seen {
    match (
        &timed.file.machine.detected_features,
        &counted.file.machine.detected_features,
    ) {
        (Some(t), Some(c)) => {
            let lacking: Vec<String> = t.iter().filter(|f| !c.contains(f)).cloned().collect();
            if lacking.is_empty() {
                Seen::Same
            } else {
                Seen::Lacking(lacking)
            }
        }
        _ => Seen::Unknown,
    }
}

/// The least the counted processes of a table saw.
fn worst<'a>(seen: impl Iterator<Item = &'a Seen>) -> Seen {
    let mut worst = Seen::Same;
    for s in seen {
        match (s, &mut worst) {
            (Seen::Same, _) | (_, Seen::Unknown) => {}
            (Seen::Unknown, w) => *w = Seen::Unknown,
            (Seen::Lacking(more), Seen::Lacking(have)) => {
                for f in more {
                    if !have.contains(f) {
                        have.push(f.clone());
                    }
                }
            }
            (Seen::Lacking(more), w) => *w = Seen::Lacking(more.clone()),
        }
    }
    worst
}

/// `items` without repeats, in first-seen order.
fn first_seen<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Build, Machine, ResultsFile};

    /// A record of `metric` for variant `v` on set `s` at `level`.
    fn record(metric: Metric, v: &str, s: &str, level: &str, median: f64) -> Record {
        Record {
            workload: "w".into(),
            variant: v.into(),
            input_set: s.into(),
            target_cpu: level.into(),
            unit: metric.unit("item").expect("a unit"),
            metric,
            median,
            ..Record::default()
        }
    }

    /// A results file of `records` whose processes saw `features`.
    fn source(label: &str, features: Option<&[&str]>, records: Vec<Record>) -> Source {
        let file = ResultsFile {
            machine: Machine {
                name: "m".into(),
                detected_features: features.map(|f| f.iter().map(|s| (*s).to_owned()).collect()),
                ..Machine::default()
            },
            build: Build {
                target_cpu: "native".into(),
                ..Build::default()
            },
            records,
            ..ResultsFile::default()
        };
        Source::new(label, format!("{label}.json"), file)
    }

    const NATIVE: &[&str] = &["avx2", "avx512f"];
    const VALGRIND: &[&str] = &["avx2"];

    #[test]
    fn instructions_over_cycles_for_the_same_variant_set_and_level() {
        let bench = source(
            "bench",
            Some(NATIVE),
            vec![
                record(Metric::Time, "a", "s1", "native", 10.0),
                record(Metric::Cycles, "a", "s1", "native", 40.0),
                record(Metric::Cycles, "a", "s2", "native", 50.0),
                record(Metric::Cycles, "b", "s1", "native", 20.0),
            ],
        );
        let count = source(
            "count",
            Some(NATIVE),
            vec![
                record(Metric::Instructions, "a", "s1", "native", 100.0),
                record(Metric::Instructions, "a", "s2", "native", 50.0),
                // Another set, and another variant's count of none.
                record(Metric::Instructions, "a", "s3", "native", 70.0),
                record(Metric::Instructions, "b", "s1", "native", 0.0),
            ],
        );
        let ipc = ipc(&[bench, count]);
        assert!(ipc.levels.is_empty());
        let [t] = ipc.tables.as_slice() else {
            panic!("one table: {ipc:?}")
        };
        assert_eq!(t.title, "w");
        assert_eq!(t.sets, ["s1", "s2"]);
        assert_eq!(t.rows, [("a".to_owned(), vec![Some(2.5), Some(1.0)])]);
        assert_eq!(t.seen, Seen::Same);
    }

    #[test]
    fn another_build_or_element_pairs_nothing() {
        let bench = source(
            "bench",
            Some(NATIVE),
            vec![
                record(Metric::Cycles, "a", "s1", "native", 40.0),
                Record {
                    unit: "cycles/byte".into(),
                    ..record(Metric::Cycles, "b", "s1", "native", 40.0)
                },
            ],
        );
        let mut count = source(
            "count",
            Some(NATIVE),
            vec![record(Metric::Instructions, "b", "s1", "native", 100.0)],
        );
        assert!(ipc(&[bench, count.clone()]).tables.is_empty());
        count.file.records = vec![record(Metric::Instructions, "a", "s1", "native", 100.0)];
        count.file.build.profile = "bench".into();
        let bench = source(
            "bench",
            Some(NATIVE),
            vec![record(Metric::Cycles, "a", "s1", "native", 40.0)],
        );
        assert!(ipc(&[bench, count]).tables.is_empty());
    }

    #[test]
    fn a_count_that_saw_less_is_named_and_leaves_out_dispatchers() {
        let dispatcher = Record {
            dispatcher: true,
            ..record(Metric::Cycles, "auto", "s1", "native", 10.0)
        };
        let cycles = vec![
            record(Metric::Cycles, "a", "s1", "native", 40.0),
            dispatcher,
        ];
        let instructions = vec![
            record(Metric::Instructions, "a", "s1", "native", 100.0),
            record(Metric::Instructions, "auto", "s1", "native", 30.0),
        ];
        let variants = |bench: Option<&[&str]>, count: Option<&[&str]>| {
            let sources = [
                source("bench", bench, cycles.clone()),
                source("count", count, instructions.clone()),
            ];
            let t = ipc(&sources).tables.remove(0);
            let names: Vec<String> = t.rows.into_iter().map(|(v, _)| v).collect();
            (names, t.seen)
        };
        assert_eq!(
            variants(Some(NATIVE), Some(NATIVE)),
            (vec!["a".to_owned(), "auto".to_owned()], Seen::Same)
        );
        assert_eq!(
            variants(Some(NATIVE), Some(VALGRIND)),
            (
                vec!["a".to_owned()],
                Seen::Lacking(vec!["avx512f".to_owned()])
            )
        );
        assert_eq!(
            variants(Some(NATIVE), None),
            (vec!["a".to_owned()], Seen::Unknown)
        );
    }

    #[test]
    fn by_level_means_only_the_sets_of_every_level() {
        let mut cycles = Vec::new();
        let mut instructions = Vec::new();
        for (level, ipcs) in [("x86-64", [1.0, 4.0, 9.0]), ("x86-64-v3", [2.0, 8.0, 0.0])] {
            for (set, ipc) in ["s1", "s2", "s3"].iter().zip(ipcs) {
                if ipc > 0.0 {
                    cycles.push(record(Metric::Cycles, "a", set, level, 10.0));
                    instructions.push(record(Metric::Instructions, "a", set, level, 10.0 * ipc));
                }
            }
        }
        let ipc = ipc(&[
            source("bench", Some(NATIVE), cycles),
            source("count", Some(NATIVE), instructions),
        ]);
        let titles: Vec<&str> = ipc.tables.iter().map(|t| t.title.as_str()).collect();
        assert_eq!(titles, ["w, x86-64", "w, x86-64-v3"]);
        let [l] = ipc.levels.as_slice() else {
            panic!("one by-level table: {ipc:?}")
        };
        assert_eq!(l.levels, ["x86-64", "x86-64-v3"]);
        // s3 has no figure at v3: the means are over s1 and s2 alone.
        let [(v, cells)] = l.rows.as_slice() else {
            panic!("one row")
        };
        assert_eq!(v, "a");
        let close = |a: Option<f64>, b: f64| (a.expect("a figure") - b).abs() < 1e-9;
        assert!(close(cells[0], 2.0) && close(cells[1], 4.0), "{cells:?}");
    }
}
