//! Differential fuzzing: the whole body of a cargo-fuzz target.
//!
//! [`check`] decodes the fuzzer's bytes into inputs through
//! [`Workload::arbitrary_inputs`], runs every variant this machine has on
//! them and panics with a report (variant, input, both answers, the
//! `bitbench solve` lines) when one disagrees with the oracle; libFuzzer
//! records the bytes as a crash artifact. Behind the `fuzz` feature, so a
//! crate that does not fuzz compiles no `arbitrary`.
//!
//! A target (`fuzz/fuzz_targets/parity.rs`, with `bitbench = { …,
//! features = ["fuzz"] }` in the fuzz crate's manifest; your binary's
//! `fuzz --init` writes the crate, one such target per workload):
//!
//! ```ignore
//! #![no_main]
//! libfuzzer_sys::fuzz_target!(|bytes: &[u8]| bitbench::fuzz::check(&parity::Parity, bytes));
//! ```
//!
//! The decoder is [`Workload::arbitrary_inputs`]; its default draws a few
//! inputs of the quick bench sets. To override it in your adapter, forward
//! the feature (`fuzz = ["bitbench/fuzz"]`) and put the override under
//! `#[cfg(feature = "fuzz")]`, as the built-in adapters do (`fuzz --init`
//! turns on a `fuzz` feature of your crate where there is one).
//!
//! libfuzzer-sys answers `cargo fuzz fmt` for a byte-slice target with the
//! bytes themselves; run the artifact with `BITBENCH_FUZZ_PRINT=1` set (what
//! `bitbench fuzz --decode ARTIFACT` does) and [`check`] prints the
//! `bitbench solve` line of the inputs it decoded before checking them.
//!
//! A fuzz target is its own executable, so it cannot know which program
//! answers `solve` for its workloads: `bitbench fuzz` (run as your own
//! binary's `fuzz`) passes that binary's name in `BITBENCH_PROGRAM`, and
//! the lines name `bitbench` when it is unset.

use crate::fuzz_replay::{PRINT_ENV, PRINT_PREFIX, PROGRAM_ENV};
use crate::workload::{Solve, Workload};
use arbitrary::Unstructured;
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt::Display;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The `arbitrary` crate [`Workload::arbitrary_inputs`] decodes with, so an
/// override names the very version bitbench uses.
pub use arbitrary;

/// Runs every available variant of `workload` on the inputs decoded from
/// `bytes` and panics, naming the workload, the variant, the input, both
/// answers and the `bitbench solve` commands that reproduce it, when one
/// disagrees with the oracle ([`Workload::oracle`]).
///
/// Inputs the oracle's cost model refuses ([`Workload::skip`]) are not
/// checked, nor a variant on the inputs its own cost model refuses. Each
/// variant runs once on the whole batch and once on each input alone, so
/// batch paths (SIMD lanes, tails) and single-input paths are both
/// compared. Variants are built once per process and workload: building
/// may cost far more than one run (tables made at start-up).
///
/// ```
/// use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};
///
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
///             VariantInfo::new("fold", "bit by bit (the oracle)", &[]),
///             VariantInfo::new("popcnt", "count_ones & 1", &[]),
///         ]
///     }
///     fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u8>>> {
///         match variant {
///             "fold" => Some(Box::new(|x: &u64| (0..64).fold(0, |p, i| p ^ (x >> i) as u8 & 1))),
///             "popcnt" => Some(Box::new(|x: &u64| (x.count_ones() & 1) as u8)),
///             _ => None,
///         }
///     }
///     fn input_sets(&self) -> Vec<InputSet> { Vec::new() }
///     fn bench_sets(&self, _quick: bool) -> Vec<String> { Vec::new() }
///     fn generate(&self, set: &Member, _seed: u64, _n: usize) -> Result<Vec<u64>, String> {
///         Err(format!("unknown input set '{set}'"))
///     }
///     // Up to four words straight from the bytes.
///     fn arbitrary_inputs(
///         &self,
///         u: &mut bitbench::fuzz::arbitrary::Unstructured<'_>,
///     ) -> bitbench::fuzz::arbitrary::Result<Vec<u64>> {
///         let n = u.int_in_range(1..=4)?;
///         (0..n).map(|_| u.arbitrary()).collect()
///     }
///     fn parse_input(&self, text: &str) -> Result<u64, String> {
///         text.parse().map_err(|e| format!("'{text}': {e}"))
///     }
///     fn format_input(&self, input: &u64) -> String { input.to_string() }
///     fn format_output(&self, output: &u8) -> String { output.to_string() }
/// }
///
/// // A target's body: `fuzz_target!(|bytes: &[u8]| bitbench::fuzz::check(&Parity, bytes));`
/// bitbench::fuzz::check(&Parity, &[3, 0xff, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde]);
/// ```
pub fn check<W: Workload>(workload: &W, bytes: &[u8]) {
    let Ok(inputs) = workload.arbitrary_inputs(&mut Unstructured::new(bytes)) else {
        return;
    };
    if printing() {
        let texts: Vec<String> = inputs.iter().map(|i| workload.format_input(i)).collect();
        eprintln!(
            "{PRINT_PREFIX}{}",
            solve_line(workload.name(), None, &texts)
        );
    }
    compare(workload, inputs);
}

/// [`check`] on decoded inputs.
fn compare<W: Workload>(workload: &W, inputs: Vec<W::Input>) {
    let mut prepared = prepared(workload)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let (oracle, rest) = prepared
        .variants
        .split_first_mut()
        .expect("prepared() keeps the oracle first");
    let inputs: Vec<W::Input> = inputs
        .into_iter()
        .filter(|i| workload.skip(oracle.0, i).is_none())
        .collect();
    if inputs.is_empty() {
        return;
    }
    let expected = run(oracle.1.as_mut(), &inputs);
    for (name, variant) in rest {
        let mine: Vec<usize> = (0..inputs.len())
            .filter(|&i| workload.skip(name, &inputs[i]).is_none())
            .collect();
        let disagrees = |i: usize, got: &W::Output, context: String| {
            Disagreement {
                workload: workload.name(),
                oracle: oracle.0,
                variant: name,
                input: workload.format_input(&inputs[i]),
                expected: workload.format_output(&expected[i]),
                got: workload.format_output(got),
                context,
            }
            .fail()
        };
        for &i in &mine {
            let got = &run(variant.as_mut(), std::slice::from_ref(&inputs[i]))[0];
            if !workload.same(&expected[i], got) {
                disagrees(i, got, String::new());
            }
        }
        if mine.len() < 2 {
            continue;
        }
        let batch: Vec<W::Input> = mine.iter().map(|&i| inputs[i].clone()).collect();
        let got = run(variant.as_mut(), &batch);
        for (k, (&i, got)) in mine.iter().zip(&got).enumerate() {
            if !workload.same(&expected[i], got) {
                disagrees(
                    i,
                    got,
                    format!(
                        "input {} of a batch of {}, right on its own; `{program} solve` runs \
                         one input at a time, so rerun the artifact to reproduce it \
                         (`{program} fuzz --decode ARTIFACT`)",
                        k + 1,
                        batch.len(),
                        program = program(),
                    ),
                );
            }
        }
    }
}

/// A built variant of workload `W`.
type Solver<W> = Box<dyn Solve<<W as Workload>::Input, <W as Workload>::Output>>;

/// Every variant of one workload that runs here, built, the oracle first.
struct Prepared<W: Workload> {
    variants: Vec<(&'static str, Solver<W>)>,
}

impl<W: Workload> Prepared<W> {
    /// Builds every available variant. A registry whose oracle is missing
    /// here, or whose variant declared available does not build, is a bug
    /// in the adapter: the fuzzer stops on its first input saying which.
    fn build(workload: &W) -> Prepared<W> {
        let name = workload.name();
        let mut infos = workload.variants();
        let at = infos
            .iter()
            .position(|v| v.name == workload.oracle())
            .unwrap_or_else(|| panic!("{name}: the oracle is not among the variants"));
        infos.swap(0, at);
        let oracle = &infos[0];
        if let Some(reason) = &oracle.unavailable {
            panic!(
                "{name}: the oracle `{}` is unavailable: {reason}",
                oracle.name
            );
        }
        let variants = infos
            .iter()
            .filter(|v| v.unavailable.is_none())
            .map(|v| {
                let solver = workload.solver(v.name).unwrap_or_else(|| {
                    panic!(
                        "{name}: variant `{}` is declared available but does not build",
                        v.name
                    )
                });
                (v.name, solver)
            })
            .collect();
        Prepared { variants }
    }
}

/// The prepared variants of `workload`, built on first use and kept for the
/// process (a fuzzer runs millions of inputs). Keyed by type and name, since
/// one adapter type may serve several workloads; behind a lock because a
/// solver may keep state between calls.
fn prepared<W: Workload>(workload: &W) -> &'static Mutex<Prepared<W>> {
    type Cache = HashMap<(TypeId, &'static str), &'static (dyn Any + Send + Sync)>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let entry: &'static (dyn Any + Send + Sync) = *cache
        .entry((TypeId::of::<W>(), workload.name()))
        .or_insert_with(|| Box::leak(Box::new(Mutex::new(Prepared::build(workload)))));
    entry
        .downcast_ref()
        .expect("the key holds the workload's type")
}

/// Whether `BITBENCH_FUZZ_PRINT` asks for each decoded input's `solve` line
/// (read once: a fuzzer calls [`check`] millions of times).
fn printing() -> bool {
    static PRINT: OnceLock<bool> = OnceLock::new();
    *PRINT.get_or_init(|| std::env::var_os(PRINT_ENV).is_some_and(|v| !v.is_empty()))
}

/// Solves `inputs`, prepared first as every command prepares them.
fn run<I, O: Clone + Default>(solver: &mut dyn Solve<I, O>, inputs: &[I]) -> Vec<O> {
    let prepared = solver.prepare(inputs);
    let mut out = vec![O::default(); inputs.len()];
    prepared.run(solver, inputs, 0..inputs.len(), &mut out);
    out
}

/// The program that answers `solve` for this target's workloads: the one
/// named in [`PROGRAM_ENV`], else `bitbench` (read once, like [`printing`]).
fn program() -> &'static str {
    static PROGRAM: OnceLock<String> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        std::env::var(PROGRAM_ENV)
            .ok()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "bitbench".to_owned())
    })
}

/// The `solve` command answering `inputs` with `variant` (none: the
/// workload's default), through [`program`].
pub(crate) fn solve_line(workload: &str, variant: Option<&str>, inputs: &[String]) -> String {
    crate::repro::solve_line(program(), workload, variant, inputs, None)
}

/// What the oracle answered and what one variant answered instead, in the
/// workload's text formats.
struct Disagreement<'a> {
    workload: &'a str,
    oracle: &'a str,
    variant: &'a str,
    input: String,
    expected: String,
    got: String,
    /// Where it showed (a batch position); may be empty.
    context: String,
}

impl Disagreement<'_> {
    /// Panics with the report; libFuzzer records the input as a crash.
    fn fail(&self) -> ! {
        let context = if self.context.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.context)
        };
        let input = std::slice::from_ref(&self.input);
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
            repro_oracle = solve_line(self.workload, Some(self.oracle), input),
            repro_variant = solve_line(self.workload, Some(self.variant), input),
        )
    }
}

/// Shows an empty answer (the components of the empty board) visibly.
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

/// The next byte of the fuzzer's input; zero once it is used up, so a
/// decoder reading bytes this way turns every byte string into some input.
#[cfg(feature = "suite")]
pub(crate) fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sets::{InputSet, Member};
    use crate::workload::VariantInfo;

    /// Parity of a word, its oracle refusing words above `refuse_above`;
    /// variant `wrong` inverts every answer, `batch-wrong` those of a batch.
    /// The quick bench sets are `quick_sets`, the full ones the check sets.
    struct Toy {
        name: &'static str,
        variants: &'static [&'static str],
        refuse_above: u64,
        quick_sets: &'static [&'static str],
    }

    struct Parity {
        variant: String,
    }

    impl Solve<u64, u8> for Parity {
        fn solve_batch(&mut self, inputs: &[u64], out: &mut [u8]) {
            let invert = match self.variant.as_str() {
                "wrong" => true,
                "batch-wrong" => inputs.len() > 1,
                _ => false,
            };
            for (x, o) in inputs.iter().zip(out) {
                *o = (x.count_ones() & 1) as u8 ^ u8::from(invert);
            }
        }
    }

    impl Workload for Toy {
        type Input = u64;
        type Output = u8;
        fn name(&self) -> &'static str {
            self.name
        }
        fn description(&self) -> &'static str {
            "parity"
        }
        fn unit(&self) -> &'static str {
            "words"
        }
        fn variants(&self) -> Vec<VariantInfo> {
            self.variants
                .iter()
                .map(|v| VariantInfo::new(v, "parity", &[]))
                .collect()
        }
        fn default_variant(&self) -> &'static str {
            self.variants[0]
        }
        fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u64, u8>>> {
            Some(Box::new(Parity {
                variant: variant.to_owned(),
            }))
        }
        fn input_sets(&self) -> Vec<InputSet> {
            vec![
                InputSet::new("small", "words below 100"),
                InputSet::new("words", "words with high bits"),
            ]
        }
        fn bench_sets(&self, quick: bool) -> Vec<String> {
            if quick {
                self.quick_sets.iter().map(|s| s.to_string()).collect()
            } else {
                self.check_sets()
            }
        }
        fn check_sets(&self) -> Vec<String> {
            vec!["small".into(), "words".into()]
        }
        // Two sets, so the default decoder's set choice is exercised.
        fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<u64>, String> {
            match set.name() {
                "small" => Ok((0..n as u64).map(|i| (seed + i) % 100).collect()),
                _ => Ok((0..n as u64).map(|i| seed ^ i << 32).collect()),
            }
        }
        fn parse_input(&self, text: &str) -> Result<u64, String> {
            text.parse().map_err(|e| format!("{e}"))
        }
        fn format_input(&self, input: &u64) -> String {
            format!("word {input}")
        }
        fn format_output(&self, output: &u8) -> String {
            output.to_string()
        }
        fn same(&self, a: &u8, b: &u8) -> bool {
            a == b
        }
        fn skip(&self, variant: &str, input: &u64) -> Option<String> {
            (variant == self.variants[0] && *input > self.refuse_above)
                .then(|| "too big for the oracle".to_owned())
        }
    }

    /// Some byte strings: empty, short, both sets, and long.
    fn samples() -> Vec<Vec<u8>> {
        let mut out = vec![
            vec![],
            vec![0],
            vec![1, 7],
            vec![0, 42, 0, 0, 0, 0, 0, 0, 0],
        ];
        out.extend((0..50u8).map(|k| (0..20).map(|i| k.wrapping_mul(31) ^ i).collect()));
        out
    }

    fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
        let payload = std::panic::catch_unwind(f).err()?;
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
    }

    #[test]
    fn agreeing_variants_pass() {
        let toy = Toy {
            name: "toy-agree",
            variants: &["fold", "popcnt", "again"],
            refuse_above: u64::MAX,
            quick_sets: &[],
        };
        for bytes in samples() {
            check(&toy, &bytes);
        }
    }

    #[test]
    fn a_wrong_variant_panics_with_the_report() {
        let toy = Toy {
            name: "toy-wrong",
            variants: &["fold", "popcnt", "wrong"],
            refuse_above: u64::MAX,
            quick_sets: &[],
        };
        // Set `small` (index 0), seed 7: the word 7, parity 1.
        let message = panic_message(|| check(&toy, &[0, 7, 0, 0, 0, 0, 0, 0, 0]))
            .expect("the wrong variant is caught");
        assert_eq!(
            message,
            "toy-wrong: variant `wrong` disagrees with the oracle `fold`\n  \
             input:    word 7\n  \
             oracle:   1\n  \
             wrong: 0\n\
             reproduce:\n  \
             bitbench solve toy-wrong --variant fold 'word 7'\n  \
             bitbench solve toy-wrong --variant wrong 'word 7'"
        );
    }

    #[test]
    fn inputs_the_oracle_refuses_are_skipped() {
        let toy = Toy {
            name: "toy-refused",
            variants: &["fold", "wrong"],
            refuse_above: 99,
            quick_sets: &[],
        };
        // Set `words`: seed 1000 is over the oracle's bound, so `wrong` is
        // never compared; set `small` always fits, and is.
        check(&toy, &[1, 0xe8, 0x03, 0, 0, 0, 0, 0, 0]);
        assert!(panic_message(|| check(&toy, &[0, 5, 0, 0, 0, 0, 0, 0, 0])).is_some());
    }

    #[test]
    fn a_batch_only_disagreement_names_its_place() {
        let toy = Toy {
            name: "toy-batch",
            variants: &["fold", "batch-wrong"],
            refuse_above: u64::MAX,
            quick_sets: &[],
        };
        compare(&toy, vec![5]);
        let message = panic_message(|| compare(&toy, vec![5, 6])).expect("caught in the batch");
        assert!(
            message.starts_with(
                "toy-batch: variant `batch-wrong` disagrees with the oracle `fold` \
                 (input 1 of a batch of 2, right on its own;"
            ),
            "{message}"
        );
        assert!(message.contains("input:    word 5\n"), "{message}");
    }

    /// The default decoder: one to four inputs, the same for the same
    /// bytes, of the quick bench sets where there are some, and none that
    /// the oracle's cost model refuses.
    #[test]
    fn the_default_decoder_keeps_to_quick_sets_and_the_oracles_cost() {
        let toy = |quick_sets, refuse_above| Toy {
            name: "toy-decode",
            variants: &["fold"],
            refuse_above,
            quick_sets,
        };
        let largest = |toy: Toy| {
            let decode = |bytes: &[u8]| toy.arbitrary_inputs(&mut Unstructured::new(bytes)).ok();
            let mut largest = None;
            for bytes in samples() {
                let Some(inputs) = decode(&bytes) else {
                    continue;
                };
                assert_eq!(decode(&bytes).as_ref(), Some(&inputs));
                assert!((1..=4).contains(&inputs.len()), "{inputs:?}");
                largest = largest.max(inputs.into_iter().max());
            }
            largest.expect("some byte string decodes")
        };
        // Without quick sets, the check sets: `words` has words above 99...
        assert!(largest(toy(&[], u64::MAX)) > 99);
        // ...which the quick set `small` never draws, nor the oracle lets by.
        assert!(largest(toy(&["small"], u64::MAX)) < 100);
        assert!(largest(toy(&[], 99)) < 100);
    }
}
