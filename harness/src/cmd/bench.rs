//! `bitbench bench`: verify, time, print the table, write the results file.

use crate::dyn_workload::DynWorkload;
use crate::engine::bench::BenchOptions;
use crate::entry::Suite;
use crate::error::Error;
use crate::fault::TimeoutArg;
use crate::machine::{self, MachineArg};
use crate::outln;
use reports::disturbance::Purpose;
use reports::numbers::{bytes, count, ratio, sig3};
use reports::{Metric, Record, ResultsFile, Status, interval};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `bitbench bench`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Workloads to measure; default: all.
    workloads: Vec<String>,
    /// Variants to measure; default: all.
    #[arg(long, num_args = 1..)]
    variant: Vec<String>,
    /// Input sets to measure (see `{program} list`); default: the workload's.
    #[arg(long, num_args = 1..)]
    inputs: Vec<String>,
    /// Fewer and shorter samples, smaller input sets.
    #[arg(long)]
    quick: bool,
    /// Seed of the generated inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Results file; default: results/bench-TIMESTAMP.json.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Measuring rounds: every (variant, set) is measured once per
    /// round, rounds apart in time, so intervals include the noise
    /// between runs; default: 2 with --quick, else 3.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: Option<u32>,
    /// Variant the printed speedups are over (measured too, needs one
    /// workload); default: the oracle.
    #[arg(long, value_name = "VARIANT")]
    baseline: Option<String>,
    #[command(flatten)]
    timeout: TimeoutArg,
    /// The core to measure on; default: the one least busy when each
    /// workload starts. Either way a sample whose thread lost CPU time
    /// to something else is taken again (see docs/busy-machines.md).
    #[arg(long, value_name = "N")]
    core: Option<usize>,
    #[command(flatten)]
    machine: MachineArg,
    #[command(flatten)]
    pub(crate) env: crate::measuring_env::KeepEnv,
}

/// Checks the arguments before any measuring, then [`measure`]s and
/// fails (`Err(Failed)`) naming every record with a wrong answer, a
/// crash or a hang ([`crate::verdict`]), the results written.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    let machine = args.machine.resolve()?;
    if let Some(core) = args.core {
        crate::cores::check(core).map_err(Error::usage)?;
    }
    let selected = suite.select(&args.workloads)?;
    for (flag, used) in [
        ("--variant", !args.variant.is_empty()),
        ("--baseline", args.baseline.is_some()),
    ] {
        if used && selected.len() > 1 {
            return Err(Error::usage(format!(
                "{flag} needs exactly one workload (variant names differ between workloads)"
            )));
        }
    }
    let mut variants = args.variant;
    if let Some(base) = &args.baseline {
        check_baseline(selected[0], base)?;
        if !variants.is_empty() && !variants.contains(base) {
            variants.push(base.clone());
        }
    }
    let options = BenchOptions {
        variants,
        sets: args.inputs,
        quick: args.quick,
        seed: args.seed,
        rounds: args.rounds,
        exclude: Vec::new(),
        core: args.core,
    };
    let (_, results) = measure(
        &selected,
        &options,
        args.timeout.per_batch(),
        args.out.as_deref(),
        args.baseline.as_deref(),
        &machine,
        &crate::repro::program(suite.origin().binary),
    )?;
    crate::verdict::check("bench", &results.records)
}

/// Benchmarks the workloads, each batch of a kernel stopped `timeout`
/// past its allowance, and writes one results file (default:
/// `results/bench-TIMESTAMP.json`), its machine named `machine`; returns
/// its path and contents, whatever the variants did. The printed speedups
/// are over `baseline`, or each workload's oracle. A variant that answers
/// wrong gets an error record and is never timed. Each workload runs in a
/// watched child ([`crate::fault`]): a variant that crashes or hangs gets
/// a record saying so, and its finding is printed with a repro line
/// naming `program`.
pub fn measure(
    workloads: &[&dyn DynWorkload],
    options: &BenchOptions,
    timeout: Duration,
    out: Option<&Path>,
    baseline: Option<&str>,
    machine: &str,
    program: &str,
) -> Result<(PathBuf, ResultsFile), Error> {
    let (date, stamp) = machine::now();
    let path = out.map_or_else(
        || PathBuf::from(format!("results/bench-{stamp}.json")),
        Path::to_owned,
    );
    ensure_writable(&path)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut results = machine::results_file(
        date,
        command,
        machine::machine(machine),
        machine::build(),
        crate::fault::isolating(),
    );
    for w in workloads {
        let (records, findings) = crate::isolated::bench(*w, options, timeout, program)?;
        print_table(*w, &records, baseline);
        for finding in &findings {
            finding.print();
        }
        if !findings.is_empty() {
            outln!();
        }
        let setup = crate::setup::measure(*w, &records, options);
        crate::setup::print(*w, &setup);
        results.records.extend(records);
        results.records.extend(setup);
    }
    results.machine.load_end = machine::load_average();
    results.write(&path)?;
    outln!("results: {}", path.display());
    if let Some(line) = busy_warning(&results.records, options.quick) {
        eprintln!("bench: {line}");
    }
    Ok((path, results))
}

/// The one warning line when records may not hold: many samples
/// disturbed, or an interval too wide for what the figures are for: a
/// `quick` run's speedup table ranks variants, a full run is filed to be
/// gated against (see [`Purpose`]).
pub fn busy_warning(records: &[Record], quick: bool) -> Option<String> {
    reports::disturbance::warning(
        records,
        Purpose::of_bench(quick).limits(),
        "Measure on a quieter machine, on an idle core (--core N), or with more --rounds.",
    )
}

/// Fails early, before any measuring, when `--baseline` names no variant of
/// `w` that runs here.
fn check_baseline(w: &dyn DynWorkload, baseline: &str) -> Result<(), Error> {
    let variants = w.variants();
    match variants.iter().find(|v| v.name == baseline) {
        Some(v) => match &v.unavailable {
            Some(reason) => Err(Error::usage(format!(
                "--baseline {baseline}: unavailable on this machine: {reason}"
            ))),
            None => Ok(()),
        },
        None => {
            let names: Vec<_> = variants.iter().map(|v| v.name).collect();
            Err(Error::usage(format!(
                "--baseline {baseline}: not a variant of '{}' (known: {})",
                w.name(),
                names.join(", ")
            )))
        }
    }
}

/// Fails early, before minutes of measuring, when `path` cannot be written.
fn ensure_writable(path: &Path) -> Result<(), Error> {
    let fail =
        |e: std::io::Error| Error::usage(format!("--out {}: cannot write: {e}", path.display()));
    if path.is_dir() {
        return Err(Error::usage(format!(
            "--out {}: is a directory, expected a file name",
            path.display()
        )));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let mut probe = path.as_os_str().to_owned();
    probe.push(".probe");
    std::fs::File::create(&probe).map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

/// Prints time per element (median ± MAD) and speedup over `baseline` (by
/// default the oracle), one row per input set and one column per variant,
/// then a row per total ([`DynWorkload::totals`]) whose member sets were
/// all measured; then the counters and the records that are no timing.
pub fn print_table(w: &dyn DynWorkload, records: &[Record], baseline: Option<&str>) {
    let all: Vec<&Record> = records.iter().collect();
    let (variants, mut sets) = crate::grid::axes(w, &all);
    let totals: Vec<(String, Vec<String>)> = w
        .totals()
        .into_iter()
        .filter(|(_, members)| members.iter().all(|m| sets.contains(&m.as_str())))
        .collect();
    let summed: Vec<Record> = totals
        .iter()
        .flat_map(|(name, members)| {
            variants
                .iter()
                .filter_map(|v| total(records, v, name, members))
        })
        .collect();
    sets.extend(totals.iter().map(|(name, _)| name.as_str()));
    let grids = Grids {
        w,
        records,
        summed: &summed,
        totals: &totals,
        variants: &variants,
        sets: &sets,
    };
    grids.print_times();
    grids.print_speedups(baseline);
    print_cycles(w, records, &sets);
    print_preparation(w, records, &sets);
    print_allocations(w, records, &variants, &sets);
    print_counters(w, records, &variants, &sets);
    crate::growth::print(w, records);
    print_problems(records);
    outln!();
}

/// What the time and speedup grids of one workload are drawn from.
struct Grids<'a> {
    w: &'a dyn DynWorkload,
    records: &'a [Record],
    /// The totals' records, summed from their members'.
    summed: &'a [Record],
    /// Each total and its member sets.
    totals: &'a [(String, Vec<String>)],
    variants: &'a [&'static str],
    /// The input sets, then the totals.
    sets: &'a [&'a str],
}

impl Grids<'_> {
    /// The time record of a cell, a total's included.
    fn time(&self, variant: &str, set: &str) -> Option<&Record> {
        time_record(self.records.iter().chain(self.summed), variant, set)
    }

    /// A cell's median time, when it was measured.
    fn ok_time(&self, variant: &str, set: &str) -> Option<f64> {
        self.time(variant, set)
            .filter(|r| r.status == Status::Ok)
            .map(|r| r.median)
    }

    /// Time per element, median and 95 % interval; what a record that is
    /// no timing was.
    fn print_times(&self) {
        let unit = self
            .records
            .iter()
            .find(|r| r.metric == Metric::Time)
            .map_or("ns", |r| r.unit.as_str());
        let title = format!(
            "{}: time per element ({unit}, median and 95% interval)",
            self.w.name()
        );
        let element = self.w.unit_singular();
        crate::grid::print_grid(&title, self.sets, self.variants, 16, |v, set| {
            match self.time(v, set) {
                Some(r) if r.status == Status::Ok && self.summed.contains(r) => {
                    crate::grid::time(r.median, element)
                }
                Some(r) if r.status == Status::Ok => crate::grid::with_interval(r, element),
                Some(r) if r.status == Status::Error => "WRONG".to_owned(),
                Some(r) if r.status == Status::Crashed => "CRASHED".to_owned(),
                Some(r) if r.status == Status::Hung => "HUNG".to_owned(),
                Some(_) => "skipped".to_owned(),
                None => "-".to_owned(),
            }
        });
    }

    /// Speedups over `baseline`, or the oracle (else the reference
    /// `reports` picks), with their bootstrapped 95 % intervals; a hint
    /// under them when the baseline misses rows.
    fn print_speedups(&self, baseline: Option<&str>) {
        let name = self.w.name();
        let (base, title) = match baseline {
            Some(base) => (base, format!("{name}: speedup over {base} (95% interval)")),
            None => {
                let oracle = Some(self.w.oracle());
                let Some(reference) =
                    reports::speedup_reference(oracle, self.variants, self.sets, |v, set| {
                        self.ok_time(v, set)
                    })
                else {
                    return;
                };
                let title = format!("{name}: speedup over {reference}; 95% interval");
                (reference.variant, title)
            }
        };
        crate::grid::print_grid(&title, self.sets, self.variants, 16, |v, set| {
            match (self.ok_time(base, set), self.ok_time(v, set)) {
                (Some(b), Some(t)) if t > 0.0 && v == base => format!("{}×", ratio(b / t)),
                (Some(b), Some(t)) if t > 0.0 => match self.speedup_interval(base, v, set) {
                    Some(i) => format!("{}× ({}–{})", ratio(b / t), ratio(i.low), ratio(i.high)),
                    None => format!("{}×", ratio(b / t)),
                },
                _ => "-".to_owned(),
            }
        });
        let time = |v: &str, set: &str| self.time(v, set);
        if let Some(hint) = baseline_hint(base, self.variants, self.sets, &time) {
            outln!("{hint}");
        }
    }

    /// The 95 % interval of `variant`'s speedup over `base` on `set`,
    /// bootstrapped from their rounds (a total's from its members').
    fn speedup_interval(&self, base: &str, variant: &str, set: &str) -> Option<interval::Interval> {
        let seed = interval::seed_of(&[self.w.name(), base, variant, set]);
        let members = self
            .totals
            .iter()
            .find(|(name, _)| name == set)
            .map_or_else(|| vec![set.to_owned()], |(_, m)| m.clone());
        let rounds = |variant: &str| -> Option<Vec<&[Vec<f64>]>> {
            members
                .iter()
                .map(|m| time_record(self.records, variant, m).map(|r| r.rounds.as_slice()))
                .collect()
        };
        let (b, t) = rounds(base).zip(rounds(variant))?;
        interval::sum_ratio_interval(&b, &t, seed)
    }
}

/// The times in core cycles, with the clock that converted them; one
/// line where the clock could not be calibrated.
fn print_cycles(w: &dyn DynWorkload, records: &[Record], sets: &[&str]) {
    let cycles: Vec<&Record> = records
        .iter()
        .filter(|r| r.metric == Metric::Cycles)
        .collect();
    if let Some(r) = cycles.iter().find(|r| r.status != Status::Ok) {
        let why = r.reason.as_deref().unwrap_or("not calibrated");
        outln!("\n{}: cycles {why}", w.name());
        return;
    }
    let clocks = cycles.iter().filter_map(|r| r.clock.as_ref());
    let (Some(low), Some(high)) = (
        clocks.clone().map(|c| c.low_ghz).reduce(f64::min),
        clocks.map(|c| c.high_ghz).reduce(f64::max),
    ) else {
        return;
    };
    let variants: Vec<&str> = crate::grid::axes(w, &cycles).0;
    let element = w.unit_singular();
    let title = format!(
        "{}: cycles per {element} (median; the clock calibrated between samples, {:.2}–{:.2} GHz)",
        w.name(),
        low,
        high
    );
    crate::grid::print_grid(&title, sets, &variants, 10, |v, set| {
        cycles
            .iter()
            .find(|r| r.variant == v && r.input_set == set)
            .map_or_else(|| "-".to_owned(), |r| sig3(r.median))
    });
}

/// What the variants that prepare their own input form spent on it, per
/// element and outside the timed runs, beside their time.
fn print_preparation(w: &dyn DynWorkload, records: &[Record], sets: &[&str]) {
    let prepared: Vec<&Record> = records
        .iter()
        .filter(|r| r.metric == Metric::Prepare)
        .collect();
    let Some(first) = prepared.first() else {
        return;
    };
    let mut variants: Vec<&str> = Vec::new();
    for r in &prepared {
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
    }
    let title = format!(
        "{}: preparation per element, outside the timed runs ({}, median of each batch's; min–max)",
        w.name(),
        first.unit
    );
    let element = w.unit_singular();
    crate::grid::print_grid(&title, sets, &variants, 16, |v, set| {
        prepared
            .iter()
            .find(|r| r.variant == v && r.input_set == set)
            .map_or_else(
                || "-".to_owned(),
                |r| crate::grid::with_interval(r, element),
            )
    });
}

/// What each variant allocated on its untimed pass (`engine/bench/allocated.rs`):
/// allocations and bytes per element, and the peak bytes live in the
/// pass; one line where none allocated.
fn print_allocations(w: &dyn DynWorkload, records: &[Record], variants: &[&str], sets: &[&str]) {
    let of = |metric: Metric, v: &str, set: &str| {
        records
            .iter()
            .find(|r| r.metric == metric && r.variant == v && r.input_set == set)
            .map(|r| r.median)
    };
    let counted: Vec<&Record> = records
        .iter()
        .filter(|r| r.metric == Metric::Allocations)
        .collect();
    if counted.is_empty() {
        return;
    }
    let element = w.unit_singular();
    if counted.iter().all(|r| r.median == 0.0) {
        outln!(
            "\n{}: no variant allocates per {element} (counted on one pass)",
            w.name()
        );
        return;
    }
    let title = format!(
        "{}: allocations per {element} · bytes allocated per {element} · peak bytes live in a pass (counted exactly, one untimed pass)",
        w.name()
    );
    crate::grid::print_grid(&title, sets, variants, 16, |v, set| {
        match (
            of(Metric::Allocations, v, set),
            of(Metric::AllocatedBytes, v, set),
            of(Metric::PeakBytes, v, set),
        ) {
            (Some(n), Some(b), Some(peak)) => {
                format!("{} · {} · {}", count(n), bytes(b), bytes(peak))
            }
            _ => "-".to_owned(),
        }
    });
}

/// The workload's counters (search nodes and the like), one a line.
fn print_counters(w: &dyn DynWorkload, records: &[Record], variants: &[&str], sets: &[&str]) {
    let counters: Vec<&Record> = records
        .iter()
        .filter(|r| r.metric == Metric::Counter)
        .collect();
    if counters.is_empty() {
        return;
    }
    let set_width = sets.iter().map(|s| s.len()).max().unwrap_or(0).max(9);
    let col = variants.iter().map(|v| v.len()).max().unwrap_or(0).max(16);
    outln!("\n{}: counters", w.name());
    for r in counters {
        outln!(
            "  {:<col$} {:<set_width$} {:>14.0} {}",
            r.variant,
            r.input_set,
            r.median,
            r.unit
        );
    }
}

/// The records that are no timing (wrong, crashed, hung, skipped), each
/// with its reason.
fn print_problems(records: &[Record]) {
    // A clock not calibrated is said once, with the cycles.
    let problems: Vec<&Record> = records
        .iter()
        .filter(|r| r.status != Status::Ok && r.metric != Metric::Cycles)
        .collect();
    if problems.is_empty() {
        return;
    }
    outln!();
    for r in problems {
        let kind = match r.status {
            Status::Error => "ERROR",
            Status::Crashed => "CRASHED",
            Status::Hung => "HUNG",
            _ => "skipped",
        };
        outln!(
            "  {kind}: {} on {}: {}",
            r.variant,
            r.input_set,
            r.reason.as_deref().unwrap_or("")
        );
    }
}

/// A line under the speedup table when `base` has no time on some sets that
/// other variants ran (the oracle skipped as too slow, say), whose cells are
/// then all `-`: how many, and a `--baseline` that would fill them — the
/// first variant timed on every set any variant was timed on, if there is one.
fn baseline_hint<'r>(
    base: &str,
    variants: &[&str],
    sets: &[&str],
    time: &impl Fn(&str, &str) -> Option<&'r Record>,
) -> Option<String> {
    let ok = |v: &str, set: &str| time(v, set).is_some_and(|r| r.status == Status::Ok);
    let timed: Vec<&str> = sets
        .iter()
        .copied()
        .filter(|&set| variants.iter().any(|&v| ok(v, set)))
        .collect();
    let missing = timed.iter().filter(|&&set| !ok(base, set)).count();
    if missing == 0 {
        return None;
    }
    let other = variants
        .iter()
        .find(|&&v| v != base && timed.iter().all(|&set| ok(v, set)));
    let example = other.map_or_else(String::new, |v| format!(", e.g. --baseline {v}"));
    Some(format!(
        "  {base} has no time on {missing} of {} rows ('-' above); --baseline VARIANT gives \
         speedups over another variant{example}",
        timed.len()
    ))
}

/// The time record of `variant` over all of `members`, named `name`: the
/// sum of their medians, and of their MADs (a bound on the total's); `None`
/// unless the variant ran every member.
fn total(records: &[Record], variant: &str, name: &str, members: &[String]) -> Option<Record> {
    let parts = members
        .iter()
        .map(|m| time_record(records, variant, m).filter(|r| r.status == Status::Ok))
        .collect::<Option<Vec<&Record>>>()?;
    let mut sum = (*parts.first()?).clone();
    sum.input_set = name.to_owned();
    sum.median = parts.iter().map(|r| r.median).sum();
    sum.mad = parts.iter().map(|r| r.mad).sum();
    sum.min = parts.iter().map(|r| r.min).sum();
    sum.max = parts.iter().map(|r| r.max).sum();
    // The total has no samples of its own: its speedup's interval is
    // bootstrapped from the members' (see `print_table`).
    sum.rounds.clear();
    sum.interval = None;
    Some(sum)
}

/// The time record of `variant` on `set` among `records`.
fn time_record<'r>(
    records: impl IntoIterator<Item = &'r Record>,
    variant: &str,
    set: &str,
) -> Option<&'r Record> {
    records
        .into_iter()
        .find(|r| r.metric == Metric::Time && r.variant == variant && r.input_set == set)
}
