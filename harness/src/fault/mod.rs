//! Faults are findings: running user kernels so that the harness outlives
//! them.
//!
//! A panic is caught in process ([`crate::guard`]); a signal (a null
//! write, an illegal instruction, a stack overflow's abort) or a loop that
//! never ends cannot be. So `check`, `bench` and `solve` run each
//! workload's work in a child of this same program (a job, which
//! [`crate::isolated`] runs from above the engines it calls), which
//! announces every batch of user code it is about to run ([`beacon`]); the
//! parent ([`watch`]) enforces each batch's deadline and, when the child
//! dies, knows which variant and which batch were running. It then finds
//! the one input that does it and shrinks it, each candidate in a fresh
//! process ([`probe`]), reports the finding, and runs the work again
//! without that variant, so everything else is still checked and measured.
//!
//! Nothing here crosses a process boundary per sample: a timing loop runs
//! wholly inside the child, which announces one step per measuring round.

pub(crate) mod beacon;
mod finding;
mod kind;
pub(crate) mod probe;
mod timeout;
pub(crate) mod watch;

pub(crate) use finding::{Finding, chose_note};
pub(crate) use kind::Fault;
pub(crate) use timeout::{DEFAULT_TIMEOUT, TimeoutArg};

/// The environment variable that turns isolation off (`0`): a probe runs
/// its kernel in process, so that its fault is the probe's own.
pub(crate) const ISOLATE_ENV: &str = "BITBENCH_ISOLATE";

/// The environment variable carrying a job's spec (JSON) to its child.
pub(crate) const JOB_ENV: &str = "BITBENCH_JOB";

/// Set in a probe: it runs one `solve`, so the program need not build
/// every variant of every workload first (its parent did).
pub(crate) const PROBE_ENV: &str = "BITBENCH_PROBE";

/// The running program, for children and probes.
pub(crate) fn this_program() -> std::path::PathBuf {
    std::env::current_exe().unwrap_or_else(|_| std::env::args().next().unwrap_or_default().into())
}

/// The environment variable naming a command that runs this program's
/// children (as cargo's `target.runner` does), split at spaces:
/// `qemu-x86_64 -cpu qemu64` keeps them on the emulated CPU their parent
/// runs on, where a child started natively would run on the host's.
pub(crate) const RUNNER_ENV: &str = "BITBENCH_RUNNER";

/// A command starting `exe` as a child that runs kernels: through
/// [`RUNNER_ENV`] where set, with this process's CPU features only, and
/// library backtraces off ([`crate::measuring_env`]).
pub(crate) fn child_command(exe: &std::path::Path) -> std::process::Command {
    let runner = std::env::var(RUNNER_ENV).unwrap_or_default();
    let mut argv: Vec<std::ffi::OsString> = runner.split_whitespace().map(Into::into).collect();
    argv.push(exe.into());
    let mut command = std::process::Command::new(&argv[0]);
    command.args(&argv[1..]).env(
        crate::features::PARENT_ENV,
        crate::features::detected_list(),
    );
    crate::measuring_env::apply(&mut command);
    command
}

/// Whether this process should run user kernels in a watched child.
pub(crate) fn isolating() -> bool {
    std::env::var_os(ISOLATE_ENV).is_none_or(|v| v != "0") && std::env::var_os(JOB_ENV).is_none()
}

/// A variant a job runs no more, and why: the finding it faulted with.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Excluded {
    /// The variant.
    pub variant: String,
    /// The input set (or origin) it faulted on.
    pub set: String,
    /// Crashed or hung.
    pub status: reports::Status,
    /// What happened, on which input.
    pub reason: String,
}
