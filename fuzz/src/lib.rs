//! Decoders and differential checks shared by the fuzz targets, one module per
//! workload.
//!
//! Each module turns libFuzzer's bytes into a *valid* input of its workload
//! (a case type implementing [`arbitrary::Arbitrary`]), runs every available
//! variant of the workload's registry on it and panics, naming the variant,
//! the input in the spec's text format, both outputs and the `bitbench solve`
//! commands that reproduce it, when one disagrees with the oracle. A case's
//! `Debug` form is its `bitbench solve` command, so `cargo fuzz fmt TARGET
//! ARTIFACT` (and `bitbench fuzz --decode ARTIFACT`) turns a crash artifact
//! into a reproduction. The decoders read one byte at a time, so each module
//! can also encode an input back into bytes: that is how the seed corpus is
//! written from the spec's edge cases (`cargo run --example seeds`).

pub mod cephalopod;
pub mod components;
pub mod connectx;
pub mod meteor;

use arbitrary::{Arbitrary, Unstructured};
use std::fmt::Display;

/// The next byte of the fuzzer's input; zero once the input is used up, so
/// every byte string decodes to some valid input.
pub(crate) fn byte(u: &mut Unstructured<'_>) -> u8 {
    u8::arbitrary(u).unwrap_or(0)
}

/// The next two bytes as a little-endian number (zero-padded at the end).
pub(crate) fn word(u: &mut Unstructured<'_>) -> u16 {
    u16::from(byte(u)) | u16::from(byte(u)) << 8
}

/// Quotes a text input for a POSIX shell (inputs never contain `'`).
pub fn shell_quote(text: &str) -> String {
    format!("'{text}'")
}

/// The `bitbench solve` command that answers `input` with `variant`.
pub fn solve_command(workload: &str, variant: &str, input: &str) -> String {
    format!(
        "bitbench solve {workload} --variant {variant} {}",
        shell_quote(input)
    )
}

/// What the oracle answered and what one variant answered instead, in the
/// spec's text formats.
pub struct Mismatch<'a> {
    /// Workload name as the harness lists it (e.g. `connectx-perft`).
    pub workload: &'a str,
    /// The oracle's registry name.
    pub oracle: &'a str,
    /// The disagreeing variant's registry name.
    pub variant: &'a str,
    /// The input in the spec's text format.
    pub input: String,
    /// The oracle's answer (or the property the answer must have).
    pub expected: String,
    /// The variant's answer.
    pub got: String,
    /// Where the disagreement showed (e.g. `board 3 of a batch of 5`); may be empty.
    pub context: String,
}

impl Mismatch<'_> {
    /// Panics with the report; libFuzzer records the input as a crash artifact.
    pub fn fail(&self) -> ! {
        let context = if self.context.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.context)
        };
        panic!(
            "{workload}: variant `{variant}` disagrees with the oracle `{oracle}`{context}\n  \
             input:    {input}\n  \
             oracle:   {expected}\n  \
             {variant}: {got}\n\
             reproduce:\n  {repro_oracle}\n  {repro_variant}",
            workload = self.workload,
            variant = self.variant,
            oracle = self.oracle,
            input = self.input,
            expected = Shown(&self.expected),
            got = Shown(&self.got),
            repro_oracle = solve_command(self.workload, self.oracle, &self.input),
            repro_variant = solve_command(self.workload, self.variant, &self.input),
        )
    }
}

/// Shows an empty answer (e.g. the components of the empty board) visibly.
struct Shown<'a>(&'a str);

impl Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            f.write_str("(empty line)")
        } else {
            f.write_str(self.0)
        }
    }
}

/// A variant built once per process: building may cost far more than one run
/// (tables made at start-up), and a fuzzer runs millions of inputs.
pub struct Built<T: ?Sized> {
    /// Registry name.
    pub name: &'static str,
    /// The ready implementation.
    pub imp: Box<T>,
}

/// Builds every variant of a registry that this CPU can run, in registry order
/// (so the oracle comes first). `make` returns `None` for the unavailable.
pub fn build_all<V, T: ?Sized>(
    registry: Vec<V>,
    parts: impl Fn(&V) -> (&'static str, Option<Box<T>>),
) -> Vec<Built<T>> {
    let built: Vec<Built<T>> = registry
        .iter()
        .filter_map(|v| {
            let (name, imp) = parts(v);
            imp.map(|imp| Built { name, imp })
        })
        .collect();
    assert!(
        !built.is_empty(),
        "the registry has no variant available on this CPU"
    );
    built
}
