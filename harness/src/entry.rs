//! The entry point: a program's workloads and where it was built.
//!
//! A function called from `main` cannot know which package and binary it is
//! part of, yet `matrix` must rebuild exactly that binary at each target-cpu
//! level and `count` must re-run it under valgrind. So the entry is a macro,
//! [`main!`](crate::main!), which captures them with `env!` at the user's
//! compile time and hands them, with the workloads, to [`cli::main`](crate::cli::main).

use crate::dyn_workload::DynWorkload;
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
    /// The commit the program was built from, when its builder said
    /// (`BITBENCH_BUILD_COMMIT`, set by `ab`): read in the user's crate,
    /// so this library is not rebuilt for every revision.
    pub commit: Option<&'static str>,
    /// `true` when that tree had uncommitted changes (`BITBENCH_BUILD_DIRTY`).
    pub dirty: Option<&'static str>,
    /// The package's directory in the repository it was built from, when
    /// its builder said (`BITBENCH_BUILD_SOURCE`, set by `ab`): a revision
    /// builds from an export, whose manifest directory is no repository.
    pub source: Option<&'static str>,
}

impl Origin {
    /// Where the package lives in its repository: [`Origin::source`], else
    /// the manifest directory. `ab` and `history` find the repository here.
    pub fn source_dir(&self) -> &'static str {
        self.source.unwrap_or(self.manifest_dir)
    }
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
            commit: option_env!("BITBENCH_BUILD_COMMIT"),
            dirty: option_env!("BITBENCH_BUILD_DIRTY"),
            source: option_env!("BITBENCH_BUILD_SOURCE"),
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
/// The program's `--help` opens with what it is: its package's
/// `description` from `Cargo.toml`, or the text given first as
/// `bitbench::main!(about = "Parity of a word, two ways"; Parity)`. Its
/// examples run its first workload, and the commands it prints to run
/// name the program itself.
///
/// It installs [`CountingAlloc`](crate::CountingAlloc) as the global
/// allocator, so `bench` records each variant's allocations. A program
/// with a `#[global_allocator]` of its own wraps it in `CountingAlloc`
/// and starts the list with `own_allocator;`, as in
/// `bitbench::main!(own_allocator; Parity)`, which installs none.
///
/// ```no_run
/// use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};
///
/// /// Parity of a word, two ways, over a sweep of bit densities.
/// struct Parity;
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
///             VariantInfo::new("popcnt", "count_ones & 1", &["popcnt"]),
///         ]
///     }
///     fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u8>>> {
///         match variant {
///             "loop" => Some(Box::new(|x: &u64| (0..64).fold(0, |p, i| p ^ (x >> i) as u8 & 1))),
///             "popcnt" => Some(Box::new(|x: &u64| (x.count_ones() & 1) as u8)),
///             _ => None,
///         }
///     }
///     fn input_sets(&self) -> Vec<InputSet> {
///         let p = InputSet::new("p:P", "bits set with probability P").parameters(&["density"]);
///         vec![p.sweep("p-sweep", [0.1, 0.5, 0.9])]
///     }
///     fn bench_sets(&self, _quick: bool) -> Vec<String> { vec!["p-sweep".into()] }
///     fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
///         let p: f64 = set.get(0)?;
///         let mut x = seed;
///         let mut bit = move || {
///             x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
///             ((x >> 11) as f64) < p * (1u64 << 53) as f64
///         };
///         Ok((0..n).map(|_| (0..64).fold(0, |w, i| w | u64::from(bit()) << i)).collect())
///     }
///     fn parse_input(&self, text: &str) -> Result<u64, String> {
///         text.parse().map_err(|e| format!("{e}"))
///     }
///     fn format_input(&self, input: &u64) -> String { input.to_string() }
///     fn format_output(&self, output: &u8) -> String { output.to_string() }
/// }
///
/// bitbench::main!(Parity);
/// ```
#[macro_export]
macro_rules! main {
    (@entry about = $about:expr; $($workload:expr),+ $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            static WORKLOADS: &[&dyn $crate::DynWorkload] = &[$(&$workload),+];
            // What `fuzz --init` names each workload by in the targets.
            $crate::record_paths(&[$(stringify!($workload)),+]);
            $crate::cli::main_with_package(
                WORKLOADS,
                $crate::origin!(),
                option_env!("CARGO_PKG_VERSION"),
                $about,
            )
        }
    };
    (@entry $($workload:expr),+ $(,)?) => {
        $crate::main!(
            @entry about = match option_env!("CARGO_PKG_DESCRIPTION") {
                Some(description) => description,
                None => "",
            };
            $($workload),+
        );
    };
    (own_allocator; $($rest:tt)+) => {
        $crate::main!(@entry $($rest)+);
    };
    ($($rest:tt)+) => {
        #[global_allocator]
        static BITBENCH_ALLOC: $crate::CountingAlloc = $crate::CountingAlloc::system();
        $crate::main!(@entry $($rest)+);
    };
}

/// A program's workloads, checked once at start-up, and its [`Origin`].
pub struct Suite<'a> {
    workloads: &'a [&'a dyn DynWorkload],
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

impl<'a> Suite<'a> {
    /// Checks the workloads, at least one with distinct names, each as
    /// [`Suite::check`] does.
    pub fn new(
        workloads: &'a [&'a dyn DynWorkload],
        origin: Origin,
    ) -> Result<Suite<'a>, SuiteError> {
        Suite::checked(workloads, origin, true)
    }

    /// [`Suite::new`], building every available variant only when `build`
    /// (a counted child process runs a binary its parent already checked,
    /// under valgrind, where building them all takes the better part of a
    /// second).
    pub(crate) fn checked(
        workloads: &'a [&'a dyn DynWorkload],
        origin: Origin,
        build: bool,
    ) -> Result<Suite<'a>, SuiteError> {
        if workloads.is_empty() {
            return Err(SuiteError("no workloads to run".to_owned()));
        }
        for (i, w) in workloads.iter().enumerate() {
            let name = w.name();
            if workloads[..i].iter().any(|other| other.name() == name) {
                return Err(SuiteError(format!("two workloads are named '{name}'")));
            }
            check(*w, build)?;
        }
        Ok(Suite { workloads, origin })
    }

    /// Checks one workload's registration on this machine: at least one
    /// variant, distinct variant names, the oracle and the default among
    /// them, the oracle available, every CPU feature name known to some
    /// architecture, and every variant declared available built by
    /// `solver()`. Call it from a test of your own adapter:
    ///
    /// ```
    /// # use bitbench::{InputSet, Member, Suite, VariantInfo, Workload};
    /// struct Parity;
    /// impl Workload for Parity {
    ///     type Input = u64;
    ///     type Output = u8;
    ///     fn name(&self) -> &'static str { "parity" }
    ///     fn description(&self) -> &'static str { "parity of a word" }
    ///     fn unit(&self) -> &'static str { "words" }
    ///     fn variants(&self) -> Vec<VariantInfo> {
    ///         vec![VariantInfo::new("popcnt", "count_ones & 1", &["popcnt"])]
    ///     }
    ///     fn solver(&self, _variant: &str) -> Option<Box<dyn bitbench::Solve<u64, u8>>> {
    ///         None // forgot to build it
    ///     }
    ///     # fn input_sets(&self) -> Vec<InputSet> { vec![InputSet::new("all", "")] }
    ///     # fn bench_sets(&self, _: bool) -> Vec<String> { vec!["all".into()] }
    ///     # fn generate(&self, _: &Member, _: u64, n: usize) -> Result<Vec<u64>, String> { Ok(vec![0; n]) }
    ///     # fn parse_input(&self, t: &str) -> Result<u64, String> { t.parse().map_err(|_| t.to_owned()) }
    ///     # fn format_input(&self, i: &u64) -> String { i.to_string() }
    ///     # fn format_output(&self, o: &u8) -> String { o.to_string() }
    /// }
    ///
    /// let e = Suite::check(&Parity).unwrap_err().to_string();
    /// if std::arch::is_x86_feature_detected!("popcnt") {
    ///     assert!(e.contains("variant 'popcnt' is declared available"), "{e}");
    /// } else {
    ///     assert!(e.contains("the oracle 'popcnt' is unavailable"), "{e}");
    /// }
    /// ```
    pub fn check(w: &dyn DynWorkload) -> Result<(), SuiteError> {
        check(w, true)
    }

    /// Every workload, in the order given.
    pub fn workloads(&self) -> &'a [&'a dyn DynWorkload] {
        self.workloads
    }

    /// Where the program was built.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Looks a workload up by name.
    pub fn find(&self, name: &str) -> Result<&'a dyn DynWorkload, Error> {
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
    pub fn select(&self, names: &[String]) -> Result<Vec<&'a dyn DynWorkload>, Error> {
        if names.is_empty() {
            return Ok(self.workloads.to_vec());
        }
        names.iter().map(|n| self.find(n)).collect()
    }
}

/// [`Suite::check`], building the variants only when `build`.
fn check(w: &dyn DynWorkload, build: bool) -> Result<(), SuiteError> {
    let name = w.name();
    let fail = |what: String| Err(SuiteError(format!("workload '{name}' {what}")));
    let variants = w.variants();
    if variants.is_empty() {
        return fail("has no variants".to_owned());
    }
    for (j, v) in variants.iter().enumerate() {
        if variants[..j].iter().any(|other| other.name == v.name) {
            return fail(format!("has two variants named '{}'", v.name));
        }
        if let Some(f) = v.unknown_feature() {
            return fail(format!(
                "variant '{}': unknown CPU feature '{f}' (no architecture has it)",
                v.name
            ));
        }
    }
    for (role, declared) in [
        ("oracle", w.oracle()),
        ("default variant", w.default_variant()),
    ] {
        if !variants.iter().any(|v| v.name == declared) {
            return fail(format!(
                "declares {role} '{declared}', which it does not list"
            ));
        }
    }
    let oracle = w.oracle();
    if let Some(reason) = variants
        .iter()
        .find(|v| v.name == oracle)
        .and_then(|v| v.unavailable.as_ref())
    {
        return fail(format!(
            "cannot run here: the oracle '{oracle}' is unavailable ({reason})"
        ));
    }
    if let Some(v) = build.then(|| w.unbuildable()).flatten() {
        return fail(format!(
            "variant '{v}' is declared available (its CPU features are present) but \
             solver(\"{v}\") returns None"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sets::{InputSet, Member};
    use crate::workload::{Solve, VariantInfo, Workload};

    /// A workload listing the variants it is given.
    struct Listed(&'static [&'static str]);

    impl Workload for Listed {
        type Input = u8;
        type Output = u8;
        fn name(&self) -> &'static str {
            "listed"
        }
        fn description(&self) -> &'static str {
            "the input itself"
        }
        fn unit(&self) -> &'static str {
            "bytes"
        }
        fn variants(&self) -> Vec<VariantInfo> {
            self.0
                .iter()
                .map(|v| VariantInfo::new(v, "identity", &[]))
                .collect()
        }
        fn solver(&self, _variant: &str) -> Option<Box<dyn Solve<u8, u8>>> {
            Some(Box::new(|x: &u8| *x))
        }
        fn input_sets(&self) -> Vec<InputSet> {
            vec![InputSet::new("all", "every byte")]
        }
        fn bench_sets(&self, _quick: bool) -> Vec<String> {
            vec!["all".into()]
        }
        fn generate(&self, _set: &Member, _seed: u64, _n: usize) -> Result<Vec<u8>, String> {
            Ok((0..=255).collect())
        }
        fn parse_input(&self, text: &str) -> Result<u8, String> {
            text.parse().map_err(|_| format!("'{text}' is not a byte"))
        }
        fn format_input(&self, input: &u8) -> String {
            input.to_string()
        }
        fn format_output(&self, output: &u8) -> String {
            output.to_string()
        }
    }

    fn error(workloads: &[&dyn DynWorkload]) -> String {
        match Suite::new(workloads, crate::origin!()) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn broken_registrations_are_one_line_each() {
        assert_eq!(error(&[]), "no workloads to run");
        assert_eq!(error(&[&Listed(&[])]), "workload 'listed' has no variants");
        assert_eq!(
            error(&[&Listed(&["a", "a"])]),
            "workload 'listed' has two variants named 'a'"
        );
        assert_eq!(
            error(&[&Listed(&["a"]), &Listed(&["b"])]),
            "two workloads are named 'listed'"
        );
        assert_eq!(error(&[&Listed(&["a", "b"])]), "");
    }
}
