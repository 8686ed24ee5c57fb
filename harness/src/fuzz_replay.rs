//! How `bitbench fuzz` and a fuzz target talk through the environment: the
//! target (the library's `fuzz::check`) prints the inputs it decoded when
//! asked, and the command picks those lines out of the target's output
//! (`--decode`); the command also tells the target which program its
//! reproducing lines name. Both sides read these constants.

/// Set (non-empty) in a fuzz target's environment, `bitbench::fuzz::check`
/// prints the `bitbench solve` line of each input it decodes, after
/// [`PRINT_PREFIX`], before checking it.
pub(crate) const PRINT_ENV: &str = "BITBENCH_FUZZ_PRINT";
/// What starts each line printed under [`PRINT_ENV`].
pub(crate) const PRINT_PREFIX: &str = "fuzz input: ";
/// The program a fuzz target's reproducing lines name: `bitbench fuzz`
/// sets it to its own name for the targets it runs.
pub(crate) const PROGRAM_ENV: &str = "BITBENCH_PROGRAM";
