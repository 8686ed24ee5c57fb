//! A workload's `check`, `bench`, `solve` or `count`'s native verification
//! run in a watched child of this same program, and what the parent does
//! when the child dies.
//!
//! This is the one module that both runs the engines (in the child) and
//! watches them (in the parent), so it sits above both: the engines know
//! only the low half of [`crate::fault`] (the beacon they announce their
//! batches on, the kinds of fault, the variants excluded), and the
//! commands call in here.
//!
//! The parent starts the program again with [`JOB_ENV`] naming the job;
//! the child does the work exactly as it would in process and writes its
//! reply to a file. When it dies instead, the parent investigates the
//! steps that were running ([`investigate`]), prints nothing yet, and
//! runs the job again with the faulting variant excluded, until the job
//! finishes: the other variants are still checked and measured. Each
//! exclusion costs the work done before the fault again, once per
//! faulting variant; a clean run costs one process start per workload.

use crate::dyn_workload::DynWorkload;
use crate::engine::bench::BenchOptions;
use crate::engine::check::{CheckOptions, CheckReport};
use crate::entry::Suite;
use crate::error::Error;
use crate::fault::beacon::{Batch, Step};
use crate::fault::probe::Prober;
use crate::fault::watch::{self, Deadline, Ended};
use crate::fault::{Excluded, Fault, Finding};
use crate::fault::{JOB_ENV, PROBE_ENV, child_command, isolating, this_program};
use crate::repro::{Generated, regenerate_line, solve_line};
use reports::Record;
use reports::excerpt::{WIDTH, around};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Whether this process is a job's child or a probe: its parent already
/// checked the workloads' registrations.
pub(crate) fn is_child() -> bool {
    std::env::var_os(JOB_ENV).is_some() || std::env::var_os(PROBE_ENV).is_some()
}

/// What a child is to do, and where to write the reply.
#[derive(Serialize, Deserialize)]
struct Spec {
    workload: String,
    job: Job,
    reply: PathBuf,
}

/// One workload's work.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Job {
    Check(CheckOptions),
    Bench(BenchOptions),
    Solve {
        variant: String,
        inputs: Vec<String>,
        input_file: Option<String>,
        format: String,
        force: bool,
    },
    /// `count`'s native verification.
    #[cfg(feature = "count")]
    Count(crate::counting::CountOptions),
}

/// The child's answer.
#[derive(Serialize, Deserialize)]
enum Reply {
    Check(CheckReport),
    Bench(Vec<Record>),
    Solve(Vec<String>),
    #[cfg(feature = "count")]
    Count(crate::counting::Outcomes),
    Failed(String),
    Usage(String),
}

/// Called first in the command-line entry: when [`JOB_ENV`] is set, this
/// process is a job's child; runs the job and writes the reply.
pub(crate) fn child_entry(suite: &Suite) -> Option<ExitCode> {
    let text = std::env::var(JOB_ENV).ok()?;
    let spec: Spec = match serde_json::from_str(&text) {
        Ok(spec) => spec,
        Err(e) => {
            eprintln!("{JOB_ENV} is not a job: {e}");
            return Some(ExitCode::from(2));
        }
    };
    let reply = match suite.find(&spec.workload).and_then(|w| work(w, spec.job)) {
        Ok(reply) => reply,
        Err(Error::Failed(m)) => Reply::Failed(m),
        Err(Error::Usage(m)) => Reply::Usage(m),
    };
    let json = serde_json::to_vec(&reply).expect("replies serialise");
    Some(match std::fs::write(&spec.reply, json) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: cannot write: {e}", spec.reply.display());
            ExitCode::from(2)
        }
    })
}

fn work(w: &dyn DynWorkload, job: Job) -> Result<Reply, Error> {
    Ok(match job {
        Job::Check(options) => Reply::Check(w.check(&options)?),
        Job::Bench(options) => Reply::Bench(w.bench(&options)?),
        Job::Solve {
            variant,
            inputs,
            input_file,
            format,
            force,
        } => Reply::Solve(w.solve_text(&crate::engine::solve::SolveRequest {
            variant: &variant,
            inputs: &inputs,
            input_file: input_file.as_deref(),
            format: &format,
            force,
        })?),
        #[cfg(feature = "count")]
        Job::Count(options) => Reply::Count(
            crate::counting::plan(&[w], &options)?
                .into_iter()
                .map(|p| (p.case, p.outcome))
                .collect(),
        ),
    })
}

/// Runs `job` in a watched child: its reply, or how it ended without one.
fn run(w: &dyn DynWorkload, job: &Job, deadline: Deadline) -> Result<Result<Reply, Ended>, Error> {
    static JOBS: AtomicU64 = AtomicU64::new(0);
    let reply = std::env::temp_dir().join(format!(
        "bitbench-job-{}-{}.json",
        std::process::id(),
        JOBS.fetch_add(1, Ordering::Relaxed)
    ));
    let spec = Spec {
        workload: w.name().to_owned(),
        job: job.clone(),
        reply: reply.clone(),
    };
    let mut command = child_command(&this_program());
    command
        .env(
            JOB_ENV,
            serde_json::to_string(&spec).expect("jobs serialise"),
        )
        .stdout(Stdio::inherit());
    if crate::progress::enabled() {
        command.env(crate::progress::FORCE_ENV, "1");
    }
    let ended = watch::run(command, deadline, true)?;
    let text = std::fs::read(&reply);
    let _ = std::fs::remove_file(&reply);
    if ended.fault.is_some() {
        return Ok(Err(ended));
    }
    match text
        .ok()
        .and_then(|t| serde_json::from_slice::<Reply>(&t).ok())
    {
        Some(Reply::Failed(m)) => Err(Error::failed(m)),
        Some(Reply::Usage(m)) => Err(Error::usage(m)),
        Some(reply) => Ok(Ok(reply)),
        None => {
            let code = ended.status.code().unwrap_or(-1);
            let stderr = ended.stderr.clone();
            Ok(Err(Ended {
                fault: Some(Fault::Exited { code, stderr }),
                ..ended
            }))
        }
    }
}

/// The options of a job that can run again without the variants found
/// to fault.
trait Excluding: Clone {
    /// The job these options describe.
    fn job(&self) -> Job;
    /// The variants it runs no more.
    fn exclusions(&mut self) -> &mut Vec<Excluded>;
}

impl Excluding for CheckOptions {
    fn job(&self) -> Job {
        Job::Check(self.clone())
    }
    fn exclusions(&mut self) -> &mut Vec<Excluded> {
        &mut self.exclude
    }
}

impl Excluding for BenchOptions {
    fn job(&self) -> Job {
        Job::Bench(self.clone())
    }
    fn exclusions(&mut self) -> &mut Vec<Excluded> {
        &mut self.exclude
    }
}

#[cfg(feature = "count")]
impl Excluding for crate::counting::CountOptions {
    fn job(&self) -> Job {
        Job::Count(self.clone())
    }
    fn exclusions(&mut self) -> &mut Vec<Excluded> {
        &mut self.exclude
    }
}

/// Runs the job `options` describe in a watched child until it finishes,
/// each step stopped `timeout` past its allowance; each time the child
/// faults, investigates and runs it again without that variant. The
/// reply, and the findings in the order found.
fn until_done<O: Excluding>(
    w: &dyn DynWorkload,
    options: &O,
    timeout: Duration,
    program: &str,
) -> Result<(Reply, Vec<Finding>), Error> {
    let mut options = options.clone();
    let mut findings = Vec::new();
    loop {
        let job = options.job();
        let ended = match run(w, &job, Deadline::steps(timeout))? {
            Ok(reply) => return Ok((reply, findings)),
            Err(ended) => ended,
        };
        let finding = investigate(w, &job, ended, program, timeout)?;
        if options
            .exclusions()
            .iter()
            .any(|e| e.variant == finding.variant)
        {
            return Err(Error::failed(format!(
                "{}: {} {} again after it was excluded (in code the job runs outside \
                 its batches?)",
                w.name(),
                finding.variant,
                finding.fault.describe()
            )));
        }
        options.exclusions().push(Excluded::from(&finding));
        findings.push(finding);
    }
}

/// A reply to another job than the one asked: a protocol error.
fn other_reply(command: &str) -> Error {
    Error::usage(format!("{command}: the child answered another job"))
}

/// `check` of one workload, isolated, each batch stopped `timeout` past
/// its allowance: the report, with a finding for each variant that
/// crashed or hung (those are not checked further).
pub(crate) fn check(
    w: &dyn DynWorkload,
    options: &CheckOptions,
    timeout: Duration,
    program: &str,
) -> Result<CheckReport, Error> {
    if !isolating() {
        return w.check(options);
    }
    match until_done(w, options, timeout, program)? {
        (Reply::Check(mut report), findings) => {
            report.faults = findings;
            Ok(report)
        }
        _ => Err(other_reply("check")),
    }
}

/// `bench` of one workload, isolated, each measuring round stopped
/// `timeout` past its allowance: every record measured, plus one per
/// (variant, set) that crashed or hung, and the findings behind them.
pub(crate) fn bench(
    w: &dyn DynWorkload,
    options: &BenchOptions,
    timeout: Duration,
    program: &str,
) -> Result<(Vec<Record>, Vec<Finding>), Error> {
    if !isolating() {
        return Ok((w.bench(options)?, Vec::new()));
    }
    match until_done(w, options, timeout, program)? {
        (Reply::Bench(records), findings) => Ok((records, findings)),
        _ => Err(other_reply("bench")),
    }
}

/// `count`'s native verification of one workload, isolated, each batch
/// stopped `timeout` past its allowance: each case's outcome (crashed and
/// hung ones included) and the findings behind them.
#[cfg(feature = "count")]
pub(crate) fn count_cases(
    w: &dyn DynWorkload,
    options: &crate::counting::CountOptions,
    timeout: Duration,
    program: &str,
) -> Result<(crate::counting::Outcomes, Vec<Finding>), Error> {
    if !isolating() {
        let plan = crate::counting::plan(&[w], options)?;
        let cases = plan.into_iter().map(|p| (p.case, p.outcome)).collect();
        return Ok((cases, Vec::new()));
    }
    match until_done(w, options, timeout, program)? {
        (Reply::Count(cases), findings) => Ok((cases, findings)),
        _ => Err(other_reply("count")),
    }
}

/// `solve`, isolated: the answers, or `Err(Failed)` naming the input the
/// variant crashed on, or ran past `timeout` on (none: it runs as long as
/// it takes).
pub(crate) fn solve(
    w: &dyn DynWorkload,
    request: &crate::engine::solve::SolveRequest<'_>,
    timeout: Option<Duration>,
) -> Result<Vec<String>, Error> {
    if !isolating() {
        return w.solve_text(request);
    }
    let job = Job::Solve {
        variant: request.variant.to_owned(),
        inputs: request.inputs.to_vec(),
        input_file: request.input_file.map(str::to_owned),
        format: request.format.to_owned(),
        force: request.force,
    };
    let deadline = Deadline {
        step: timeout,
        whole: None,
    };
    match run(w, &job, deadline)? {
        Ok(Reply::Solve(lines)) => Ok(lines),
        Ok(_) => Err(other_reply("solve")),
        Err(ended) => {
            let fault = ended.fault.expect("a child without a reply faulted");
            let variant = match request.variant {
                "" => w.default_variant(),
                v => v,
            };
            let on = match ended.open.first().map(|s| &s.batch) {
                Some(Batch::Lines { lines }) => {
                    let shown: Vec<String> = lines.iter().map(|l| around(l, 0)).collect();
                    format!(" on '{}'", shown.join("' '"))
                }
                _ => String::new(),
            };
            Err(Error::failed(format!(
                "{}: {variant} {}{on}",
                w.name(),
                fault.describe()
            )))
        }
    }
}

/// Finds which of the steps running when `ended` died did it, the input
/// that does it (shrunk) and the command that reproduces it.
fn investigate(
    w: &dyn DynWorkload,
    job: &Job,
    ended: Ended,
    program: &str,
    timeout: Duration,
) -> Result<Finding, Error> {
    let fault = ended.fault.expect("a child without a reply faulted");
    let command = match job {
        Job::Check(_) => "check",
        Job::Bench(_) => "bench",
        Job::Solve { .. } => "solve",
        #[cfg(feature = "count")]
        Job::Count(_) => "count",
    };
    if ended.open.is_empty() {
        let said = ended
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map_or_else(String::new, |l| format!(" (it printed: {})", l.trim()));
        return Err(Error::failed(format!(
            "{}: {command} {} outside any batch of a kernel, while building a variant \
             or generating inputs{said}",
            w.name(),
            fault.describe()
        )));
    }
    if ended.open.len() > 1 {
        eprintln!(
            "{}: {command} {}; {} batches were running: trying each alone",
            w.name(),
            fault.describe(),
            ended.open.len()
        );
    }
    let mut first = None;
    for step in &ended.open {
        let batch = batch_inputs(w, job, step)?;
        let lines: Vec<String> = batch.iter().map(|(line, _)| line.clone()).collect();
        let prober = Prober {
            expected: Some(step.allowance()),
            ..Prober::this(w.name(), &step.variant, timeout + step.allowance())
        };
        eprintln!(
            "{}: {} {}: finding the input, each try in a fresh process",
            w.name(),
            step.variant,
            fault.describe()
        );
        let found = prober.search(lines, &fault, &|line| w.shrink_text(line))?;
        let index = found
            .drawn
            .as_ref()
            .and_then(|d| batch.iter().position(|(line, _)| line == d));
        let origin = index.map_or_else(|| batch_origin(step), |i| batch[i].1.clone());
        let long = found.inputs.iter().any(|i| i.chars().count() > WIDTH);
        let regenerated = index
            .filter(|_| long)
            .and_then(|i| regenerate(w, job, step, i, program));
        let finding = Finding {
            workload: w.name().to_owned(),
            variant: step.variant.clone(),
            chosen: match found.inputs.as_slice() {
                [one] => w.chosen_text(&step.variant, one),
                _ => None,
            },
            set: set_of(step, &origin),
            origin,
            picture: match found.inputs.as_slice() {
                [one] => w.picture_text(one),
                _ => String::new(),
            },
            repro: (!found.inputs.is_empty()).then(|| {
                let variant = Some(step.variant.as_str());
                let deadline = found.fault.deadline().map(|_| timeout);
                regenerated.unwrap_or_else(|| {
                    solve_line(program, w.name(), variant, &found.inputs, deadline)
                })
            }),
            fault: found.fault,
            inputs: found.inputs,
            shrunk: found.shrunk,
            out_of_time: found.out_of_time,
        };
        if !finding.inputs.is_empty() {
            return Ok(finding);
        }
        first.get_or_insert(finding);
    }
    Ok(first.expect("at least one step was running"))
}

/// The inputs of a step's batch in `solve`'s format, each with where it
/// came from.
fn batch_inputs(
    w: &dyn DynWorkload,
    job: &Job,
    step: &Step,
) -> Result<Vec<(String, String)>, Error> {
    match (&step.batch, job) {
        (Batch::Lines { lines }, _) => Ok(lines
            .iter()
            .map(|l| (l.clone(), "the inputs given".to_owned()))
            .collect()),
        (Batch::Chunk { pass, chunk }, Job::Check(options)) => {
            w.check_inputs(options, *pass, *chunk, &step.variant)
        }
        (Batch::Set { set }, Job::Bench(options)) => {
            set_inputs(w, set, options.seed, options.quick)
        }
        #[cfg(feature = "count")]
        (Batch::Set { set }, Job::Count(options)) => {
            set_inputs(w, set, options.seed, crate::counting::QUICK)
        }
        _ => Err(Error::usage(format!(
            "{}: a step of another command: {step:?}",
            w.name()
        ))),
    }
}

/// The inputs of `set` as `bench` and `count` generate them, each with
/// the set, seed and index that regenerate it.
fn set_inputs(
    w: &dyn DynWorkload,
    set: &str,
    seed: u64,
    quick: bool,
) -> Result<Vec<(String, String)>, Error> {
    Ok(w.input_lines(set, seed, Some(w.batch_size(quick)))?
        .into_iter()
        .enumerate()
        .map(|(i, l)| (l, format!("input {i} of set '{set}' (seed {seed})")))
        .collect())
}

/// The command that regenerates input `index` of the set `step` ran
/// and runs its variant on it, where `job` generated that set (`bench`,
/// `count`): for an input too long for a command line.
fn regenerate(
    w: &dyn DynWorkload,
    job: &Job,
    step: &Step,
    index: usize,
    program: &str,
) -> Option<String> {
    let Batch::Set { set } = &step.batch else {
        return None;
    };
    let (seed, quick) = match job {
        Job::Bench(options) => (options.seed, options.quick),
        #[cfg(feature = "count")]
        Job::Count(options) => (options.seed, crate::counting::QUICK),
        _ => return None,
    };
    let source = Generated {
        set,
        seed,
        count: w.batch_size(quick),
    };
    Some(regenerate_line(
        program,
        w.name(),
        &step.variant,
        &source,
        index,
    ))
}

/// Where a whole batch came from, when no single input was found.
fn batch_origin(step: &Step) -> String {
    match &step.batch {
        Batch::Lines { .. } => "the inputs given".to_owned(),
        Batch::Chunk { pass, chunk } => format!("check's batch {chunk} of pass {pass}"),
        Batch::Set { set } => format!("input set '{set}'"),
    }
}

/// The input set a finding belongs to, for its record.
fn set_of(step: &Step, origin: &str) -> String {
    match &step.batch {
        Batch::Set { set } => set.clone(),
        _ => origin.to_owned(),
    }
}

impl From<&Finding> for Excluded {
    fn from(f: &Finding) -> Self {
        Excluded {
            variant: f.variant.clone(),
            set: f.set.clone(),
            status: f.fault.status(),
            reason: f.reason(),
        }
    }
}
