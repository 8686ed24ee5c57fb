//! How `bitbench fuzz --decode` and a fuzz target agree on replaying an
//! artifact: the target (the library's `fuzz::check`) prints the inputs it
//! decoded when asked through the environment, and the command picks those
//! lines out of the target's output. Both sides read these constants.

/// Set (non-empty) in a fuzz target's environment, `bitbench::fuzz::check`
/// prints the `bitbench solve` line of each input it decodes, after
/// [`PRINT_PREFIX`], before checking it.
pub(crate) const PRINT_ENV: &str = "BITBENCH_FUZZ_PRINT";
/// What starts each line printed under [`PRINT_ENV`].
pub(crate) const PRINT_PREFIX: &str = "fuzz input: ";
