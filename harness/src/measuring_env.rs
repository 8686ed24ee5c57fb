//! The environment the measuring processes run with, and what a results
//! file says they ran with.
//!
//! A shell often has `RUST_BACKTRACE=1` set. With it, `std::backtrace`
//! (and every error crate built on it) captures a backtrace for each error
//! value it builds, so a kernel that builds and drops errors (a parser
//! trying alternatives) runs many times slower than it would in
//! production, and by a factor the results file cannot explain. The
//! children that run kernels therefore get `RUST_LIB_BACKTRACE=0`, which
//! turns library backtraces off and leaves panics' backtraces as
//! `RUST_BACKTRACE` says. `--keep-env` keeps the caller's environment as
//! it is, in every process below the one it was given to.
//!
//! The results file records the variables that change what a measurement
//! runs ([`ENVIRONMENT`]), as its kernels saw them, so two files measured
//! differently say so.

use reports::ENVIRONMENT;
use std::collections::BTreeMap;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

/// The library backtrace variable `std::backtrace` reads before
/// `RUST_BACKTRACE`.
const LIB_BACKTRACE: &str = "RUST_LIB_BACKTRACE";

/// Set to `1` in the children of a process given `--keep-env`, so theirs
/// keep the environment too.
const KEEP_ENV: &str = "BITBENCH_KEEP_ENV";

/// Whether `--keep-env` was given to this process.
static KEEP: AtomicBool = AtomicBool::new(false);

/// `--keep-env`, offered by the commands whose children run kernels
/// (the main job, `solve`, `check`, `bench`, `count`, `matrix`, `ab`) and
/// only there: elsewhere it could change nothing.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct KeepEnv {
    /// Run the kernels with the caller's environment as it is. By default
    /// the processes that measure get RUST_LIB_BACKTRACE=0, so error values
    /// built with std::backtrace cost what they cost in production (panics
    /// still print theirs as RUST_BACKTRACE says); results files record
    /// what they ran with.
    #[arg(long)]
    keep_env: bool,
}

impl KeepEnv {
    /// Whether the flag was given.
    pub(crate) fn given(self) -> bool {
        self.keep_env
    }

    /// Given here or in `other`.
    pub(crate) fn or(self, other: KeepEnv) -> KeepEnv {
        KeepEnv {
            keep_env: self.keep_env || other.keep_env,
        }
    }

    /// Makes the flag hold for every child this process starts.
    pub(crate) fn apply(self) {
        if self.keep_env {
            KEEP.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether the children keep the caller's environment.
fn keeping() -> bool {
    KEEP.load(Ordering::Relaxed) || std::env::var_os(KEEP_ENV).is_some_and(|v| v == "1")
}

/// Sets up `command`, a child that runs kernels, to measure as production
/// runs: library backtraces off, unless the caller keeps its environment.
pub(crate) fn apply(command: &mut Command) -> &mut Command {
    if keeping() {
        command.env(KEEP_ENV, "1")
    } else {
        command.env(LIB_BACKTRACE, "0")
    }
}

/// The variables of [`ENVIRONMENT`] that are set, as kernels running in
/// this process see them: `RUSTFLAGS` as this program was built with, the
/// others as this process runs with.
pub(crate) fn own() -> BTreeMap<String, String> {
    ENVIRONMENT
        .iter()
        .filter_map(|&name| {
            let value = match name {
                "RUSTFLAGS" => env!("BITBENCH_RUSTFLAGS").to_owned(),
                _ => std::env::var(name).ok()?,
            };
            (!value.is_empty()).then(|| (name.to_owned(), value))
        })
        .collect()
}

/// The environment this process's measurements ran with, for its results
/// file: [`own`], but library backtraces off where its kernels ran
/// `in_children` set up by [`apply`].
pub(crate) fn recorded(in_children: bool) -> BTreeMap<String, String> {
    let mut env = own();
    if in_children && !keeping() {
        env.insert(LIB_BACKTRACE.to_owned(), "0".to_owned());
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_measure_with_library_backtraces_off() {
        let mut command = Command::new("true");
        apply(&mut command);
        let set: Vec<_> = command.get_envs().collect();
        assert!(
            set.contains(&(LIB_BACKTRACE.as_ref(), Some("0".as_ref()))),
            "{set:?}"
        );
        let recorded = recorded(true);
        assert_eq!(recorded.get(LIB_BACKTRACE).map(String::as_str), Some("0"));
    }
}
