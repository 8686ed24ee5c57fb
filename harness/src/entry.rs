//! The entry point: a program's workloads and where it was built.
//!
//! A function called from `main` cannot know which package and binary it is
//! part of, yet `matrix` must rebuild exactly that binary at each target-cpu
//! level and `count` must re-run it under valgrind. So the entry is a macro,
//! [`main!`](crate::main!), which captures them with `env!` at the user's
//! compile time and hands them, with the workloads, to [`cli::main`](crate::cli::main).

use crate::erased::DynWorkload;
use crate::error::Error;
use std::fmt;

/// Where the running program was built: what `matrix` rebuilds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The package (`CARGO_PKG_NAME`).
    pub package: &'static str,
    /// The binary target (`CARGO_BIN_NAME`).
    pub binary: &'static str,
    /// The package's manifest directory (`CARGO_MANIFEST_DIR`).
    pub manifest_dir: &'static str,
}

/// The [`Origin`] of the crate this macro is expanded in.
///
/// In a binary target it names that binary; elsewhere (a bench, a doc
/// test) the package stands in.
#[macro_export]
macro_rules! origin {
    () => {
        $crate::Origin {
            package: env!("CARGO_PKG_NAME"),
            binary: match option_env!("CARGO_BIN_NAME") {
                Some(binary) => binary,
                None => env!("CARGO_PKG_NAME"),
            },
            manifest_dir: env!("CARGO_MANIFEST_DIR"),
        }
    };
}

/// Defines `main` as the whole bitbench command line over the given
/// workloads: `list`, `solve`, `inputs`, `check`, `bench`, `count`,
/// `matrix`, `compare`, `report`, `export`, `fuzz` and, with no subcommand,
/// the main job (check, quick bench, report).
///
/// Each argument is a constant expression of a type implementing
/// [`Workload`](crate::Workload), usually a unit struct.
///
/// ```no_run
/// use bitbench::{InputSetInfo, Solve, VariantInfo, Workload};
///
/// /// Parity of a word, two ways.
/// struct Parity;
///
/// struct Loop;
/// impl Solve<u64, u8> for Loop {
///     fn solve_batch(&self, inputs: &[u64], out: &mut [u8]) {
///         for (x, o) in inputs.iter().zip(out) {
///             *o = (0..64).map(|i| (x >> i) as u8 & 1).fold(0, |a, b| a ^ b);
///         }
///     }
/// }
///
/// struct Popcnt;
/// impl Solve<u64, u8> for Popcnt {
///     fn solve_batch(&self, inputs: &[u64], out: &mut [u8]) {
///         for (x, o) in inputs.iter().zip(out) {
///             *o = (x.count_ones() & 1) as u8;
///         }
///     }
/// }
///
/// impl Workload for Parity {
///     type Input = u64;
///     type Output = u8;
///     fn name(&self) -> &'static str { "parity" }
///     fn description(&self) -> &'static str { "parity of a 64-bit word" }
///     fn unit(&self) -> &'static str { "words" }
///     fn variants(&self) -> Vec<VariantInfo> {
///         vec![
///             VariantInfo::new("loop", "bit by bit (the oracle)", &[]),
///             VariantInfo::new("popcnt", "count_ones & 1", &[]),
///         ]
///     }
///     fn default_variant(&self) -> &'static str { "popcnt" }
///     fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u8>>> {
///         match variant {
///             "loop" => Some(Box::new(Loop)),
///             "popcnt" => Some(Box::new(Popcnt)),
///             _ => None,
///         }
///     }
///     fn input_sets(&self) -> Vec<InputSetInfo> {
///         vec![InputSetInfo { pattern: "random", description: "uniform words" }]
///     }
///     fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["random".into()] }
///     fn check_sets(&self) -> Vec<String> { vec!["random".into()] }
///     fn generate(&self, name: &str, seed: u64, n: usize) -> Result<Vec<u64>, String> {
///         match name {
///             "random" => Ok((0..n as u64).map(|i| (i ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect()),
///             _ => Err(format!("unknown input set '{name}'")),
///         }
///     }
///     fn parse_input(&self, text: &str) -> Result<u64, String> {
///         text.parse().map_err(|e| format!("'{text}': {e}"))
///     }
///     fn format_input(&self, input: &u64) -> String { input.to_string() }
///     fn format_output(&self, output: &u8) -> String { output.to_string() }
///     fn same(&self, a: &u8, b: &u8) -> bool { a == b }
/// }
///
/// bitbench::main!(Parity);
/// ```
#[macro_export]
macro_rules! main {
    ($($workload:expr),+ $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            static WORKLOADS: &[&dyn $crate::DynWorkload] = &[$(&$workload),+];
            // What `fuzz --init` names each workload by in the targets.
            $crate::cmd::fuzz::record_paths(&[$(stringify!($workload)),+]);
            $crate::cli::main(WORKLOADS, $crate::origin!())
        }
    };
}

/// A program's workloads, checked once at start-up, and its [`Origin`].
pub struct Suite {
    workloads: &'static [&'static dyn DynWorkload],
    origin: Origin,
}

/// What is wrong with the workloads handed to the entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError(String);

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SuiteError {}

impl Suite {
    /// Checks the workloads: at least one, distinct names, each with at
    /// least one variant, distinct variant names and a declared default
    /// among them.
    pub fn new(
        workloads: &'static [&'static dyn DynWorkload],
        origin: Origin,
    ) -> Result<Suite, SuiteError> {
        if workloads.is_empty() {
            return Err(SuiteError("no workloads to run".to_owned()));
        }
        for (i, w) in workloads.iter().enumerate() {
            let name = w.name();
            if workloads[..i].iter().any(|other| other.name() == name) {
                return Err(SuiteError(format!("two workloads are named '{name}'")));
            }
            let variants = w.variants();
            if variants.is_empty() {
                return Err(SuiteError(format!("workload '{name}' has no variants")));
            }
            for (j, v) in variants.iter().enumerate() {
                if variants[..j].iter().any(|other| other.name == v.name) {
                    return Err(SuiteError(format!(
                        "workload '{name}' has two variants named '{}'",
                        v.name
                    )));
                }
            }
            let default = w.default_variant();
            if !variants.iter().any(|v| v.name == default) {
                return Err(SuiteError(format!(
                    "workload '{name}' declares default variant '{default}', which it does not list"
                )));
            }
        }
        Ok(Suite { workloads, origin })
    }

    /// Every workload, in the order given.
    pub fn workloads(&self) -> &'static [&'static dyn DynWorkload] {
        self.workloads
    }

    /// Where the program was built.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Looks a workload up by name.
    pub fn find(&self, name: &str) -> Result<&'static dyn DynWorkload, Error> {
        self.workloads
            .iter()
            .copied()
            .find(|w| w.name() == name)
            .ok_or_else(|| {
                let names: Vec<_> = self.workloads.iter().map(|w| w.name()).collect();
                Error::usage(format!(
                    "unknown workload '{name}' (known: {})",
                    names.join(", ")
                ))
            })
    }

    /// Resolves workload names from the command line; empty means all.
    pub fn select(&self, names: &[String]) -> Result<Vec<&'static dyn DynWorkload>, Error> {
        if names.is_empty() {
            return Ok(self.workloads.to_vec());
        }
        names.iter().map(|n| self.find(n)).collect()
    }
}
