//! The `Workload` adapter: what the harness needs to know about a kernel.
//!
//! A kernel crate is a plain library with its own types and trait. An
//! adapter implementing [`Workload`] maps it onto bitbench's generic
//! machinery (verification, timing, results); this module holds only that
//! vocabulary (and the input-set declarations of `sets`), so every engine
//! depends on it and it depends on no engine. [`DynWorkload`](crate::DynWorkload)
//! erases the types for the CLI.

use crate::sets::{InputSet, Member};
use std::any::Any;
use std::marker::PhantomData;
use std::ops::Range;

/// One implementation of a workload, as the harness lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// Registry name, e.g. `swar`.
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// The CPU features it needs, by the names of Rust's
    /// `is_x86_feature_detected!` (or another architecture's macro).
    pub features: Vec<&'static str>,
    /// `Some(reason)` when this machine cannot run the variant.
    pub unavailable: Option<String>,
}

impl VariantInfo {
    /// Builds the entry for a registry variant from the CPU features it
    /// needs, detected at run time: availability is known without building
    /// the variant (some build tables for milliseconds), and
    /// [`Workload::solver`] must build it exactly when it is available.
    ///
    /// A feature of another architecture makes the variant unavailable
    /// here; a name no architecture knows (a typo such as `avx-2`) is
    /// refused when the program starts.
    ///
    /// ```
    /// use bitbench::VariantInfo;
    ///
    /// let portable = VariantInfo::new("swar", "64-bit words as lanes", &[]);
    /// assert_eq!(portable.unavailable, None);
    /// let sse2 = VariantInfo::new("sse2", "128-bit lanes", &["sse2"]);
    /// assert_eq!(sse2.unavailable.is_none(), cfg!(target_arch = "x86_64"));
    /// let neon = VariantInfo::new("neon", "128-bit lanes", &["neon"]);
    /// assert_eq!(neon.unavailable.is_none(), cfg!(target_arch = "aarch64"));
    /// ```
    pub fn new(name: &'static str, description: &'static str, features: &[&'static str]) -> Self {
        // Name only what is missing: "lacks avx512f+avx512bw", not every
        // feature the variant uses.
        let missing: Vec<&str> = features
            .iter()
            .copied()
            .filter(|f| crate::features::detected(f) != Some(true))
            .collect();
        let unavailable =
            (!missing.is_empty()).then(|| format!("this CPU lacks {}", missing.join("+")));
        VariantInfo {
            name,
            description,
            features: features.to_vec(),
            unavailable,
        }
    }

    /// The first feature it names that no architecture knows.
    pub(crate) fn unknown_feature(&self) -> Option<&'static str> {
        self.features
            .iter()
            .copied()
            .find(|f| crate::features::detected(f).is_none())
    }
}

/// What starts a comment line in an `--input-file`.
pub(crate) const COMMENT: &str = "//";

/// `name` when it is among `variants` and runs on this machine.
pub(crate) fn runnable(variants: &[VariantInfo], name: &str) -> Option<&'static str> {
    variants
        .iter()
        .find(|v| v.name == name && v.unavailable.is_none())
        .map(|v| v.name)
}

/// A ready-to-run implementation: the batch entry point the harness times.
///
/// A solver may keep state between calls (scratch buffers, caches):
/// the harness gives each thread its own, built by [`Workload::solver`].
/// A closure or function answering one input is a solver too:
///
/// ```
/// use bitbench::Solve;
///
/// let mut parity = |x: &u64| (x.count_ones() & 1) as u8;
/// let mut out = [0; 2];
/// parity.solve_batch(&[7, 3], &mut out);
/// assert_eq!(out, [1, 0]);
/// ```
pub trait Solve<I, O>: Send {
    /// Solves `inputs[i]` into `out[i]`; the slices have equal lengths.
    fn solve_batch(&mut self, inputs: &[I], out: &mut [O]);

    /// The inputs in this solver's own form, made outside the timed
    /// region. A solver has none unless [`prepared`] built it; the harness
    /// calls this before it runs a batch, and then [`Solve::solve_prepared`].
    #[doc(hidden)]
    fn prepare(&self, inputs: &[I]) -> Prepared {
        let _ = inputs;
        Prepared::none()
    }

    /// Solves `inputs[range]` into `out` from the forms [`Solve::prepare`]
    /// made of all of `inputs`.
    #[doc(hidden)]
    fn solve_prepared(
        &mut self,
        inputs: &[I],
        prepared: &Prepared,
        range: Range<usize>,
        out: &mut [O],
    ) {
        let _ = prepared;
        self.solve_batch(&inputs[range], out);
    }

    /// The variant this solver runs for `input`, when it chooses one per
    /// input (a dispatcher, see [`crate::dispatch`]); `check` names it in
    /// a disagreement.
    #[doc(hidden)]
    fn chosen(&self, input: &I) -> Option<&'static str> {
        let _ = input;
        None
    }
}

/// A batch's inputs in one variant's own form (see [`prepared`]): opaque,
/// made by [`Solve::prepare`] and read by the same solver.
#[doc(hidden)]
pub struct Prepared(Option<Box<dyn Any + Send + Sync>>);

impl Prepared {
    /// No form of the solver's own: it runs the plain batch.
    pub(crate) fn none() -> Self {
        Prepared(None)
    }

    /// A form of the solver's own, for [`Prepared::form`] to read back.
    pub(crate) fn new<T: Any + Send + Sync>(form: T) -> Self {
        Prepared(Some(Box::new(form)))
    }

    /// The form, when the solver made one of type `T`.
    pub(crate) fn form<T: Any>(&self) -> Option<&T> {
        self.0.as_ref()?.downcast_ref()
    }

    /// Whether the solver made a form of its own (so its preparation is
    /// worth reporting).
    pub(crate) fn is_own(&self) -> bool {
        self.0.is_some()
    }

    /// Runs `inputs[range]` through `solver` into `out`: from these forms
    /// where the solver made its own, else as the plain batch it always
    /// was, so a variant that prepares nothing runs exactly the code it ran
    /// before preparation existed (one call, no more work in the timed loop).
    #[inline(always)]
    pub(crate) fn run<I, O>(
        &self,
        solver: &mut dyn Solve<I, O>,
        inputs: &[I],
        range: Range<usize>,
        out: &mut [O],
    ) {
        match self.0 {
            Some(_) => solver.solve_prepared(inputs, self, range, out),
            None => solver.solve_batch(&inputs[range], out),
        }
    }
}

/// A variant that turns each shared input into its own form before it is
/// timed: `prepare` parses the text into its crate's type, lays out a
/// buffer or builds an index, and `solver` answers from that form.
///
/// Every command prepares a batch's inputs before it runs them (`check`,
/// `bench`, `solve`, `count`, the setup metric, `ab`'s children, `fuzz`);
/// `bench` times the preparation on its own and reports it as the
/// `prepare` metric, so nothing is hidden and nothing is timed twice.
/// `check` compares the answers with the oracle's on the shared inputs.
///
/// ```
/// use bitbench::{Solve, prepared};
///
/// // The shared input is text; this variant reads it as a number first.
/// let mut solver = prepared(
///     |text: &String| text.parse::<u64>().unwrap_or(0),
///     |n: &u64| n.count_ones(),
/// );
/// let mut out = [0; 2];
/// solver.solve_batch(&["7".to_owned(), "8".to_owned()], &mut out);
/// assert_eq!(out, [3, 1]);
/// ```
pub fn prepared<I, P, O>(
    prepare: impl Fn(&I) -> P + Send + 'static,
    solver: impl Solve<P, O> + 'static,
) -> Box<dyn Solve<I, O>>
where
    I: 'static,
    P: Send + Sync + 'static,
    O: 'static,
{
    Box::new(Preparing {
        prepare,
        solver,
        _types: PhantomData,
    })
}

/// What [`prepared`] builds.
struct Preparing<F, S, I, P> {
    prepare: F,
    solver: S,
    /// `fn` so the marker is `Send` whatever `I` and `P` are.
    _types: PhantomData<fn(&I) -> P>,
}

impl<I, P, O, F, S> Solve<I, O> for Preparing<F, S, I, P>
where
    F: Fn(&I) -> P + Send,
    S: Solve<P, O>,
    P: Send + Sync + 'static,
{
    /// Prepares and solves together, for a caller outside the harness.
    fn solve_batch(&mut self, inputs: &[I], out: &mut [O]) {
        let forms: Vec<P> = inputs.iter().map(&self.prepare).collect();
        self.solver.solve_batch(&forms, out);
    }

    fn prepare(&self, inputs: &[I]) -> Prepared {
        let forms: Vec<P> = inputs.iter().map(&self.prepare).collect();
        Prepared::new(forms)
    }

    fn solve_prepared(
        &mut self,
        inputs: &[I],
        prepared: &Prepared,
        range: Range<usize>,
        out: &mut [O],
    ) {
        match prepared.form::<Vec<P>>() {
            Some(forms) => self.solver.solve_batch(&forms[range], out),
            // Not this solver's forms: prepare the range now.
            None => self.solve_batch(&inputs[range], out),
        }
    }
}

impl<I, O, F: FnMut(&I) -> O + Send> Solve<I, O> for F {
    fn solve_batch(&mut self, inputs: &[I], out: &mut [O]) {
        for (input, out) in inputs.iter().zip(out) {
            *out = self(input);
        }
    }
}

/// A kernel as bitbench sees it: implement this for your kernel and pass
/// it to [`main!`](crate::main!), whose docs show a complete example.
///
/// Inputs and outputs are the kernel crate's own types; the adapter
/// supplies the names, text formats, generators and the cost model. The
/// [`Workload::oracle`] (by default the first variant) is what every other
/// variant is checked against.
pub trait Workload: Send + Sync + 'static {
    /// One problem instance (a board, a position, a depth and board, ...).
    type Input: Clone + Send + Sync + 'static;
    /// One answer. `Default` because the harness allocates every output
    /// buffer before a batch runs and the solver overwrites it: the
    /// default value is never read or compared.
    type Output: Clone + Default + Send + Sync + 'static;

    /// Registry name, e.g. `components`.
    fn name(&self) -> &'static str;
    /// One-line description.
    fn description(&self) -> &'static str;
    /// What one element of throughput is, plural: `boards`, `solves`, ...
    fn unit(&self) -> &'static str;
    /// The unit's singular, as in `ns/board`. Default: the plural without
    /// its final `s`; override it where that is wrong (`matrices`).
    fn unit_singular(&self) -> &'static str {
        let unit = self.unit();
        unit.strip_suffix('s').unwrap_or(unit)
    }

    /// Every variant.
    fn variants(&self) -> Vec<VariantInfo>;
    /// The variant every other is checked against: the simplest, believed
    /// right. Default: the first of [`Workload::variants`].
    fn oracle(&self) -> &'static str {
        self.variants().first().map_or("", |v| v.name)
    }
    /// The declared default variant: what `solve` runs when none is named,
    /// the stand-in reference where the oracle's cost model refuses an
    /// input, and what the main job sweeps. Usually the variant believed
    /// fastest; the measured fastest is a result, computed by the report.
    /// Default: the oracle.
    fn default_variant(&self) -> &'static str {
        self.oracle()
    }
    /// Builds a variant, or `None` when it is unknown or unavailable here.
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Self::Input, Self::Output>>>;

    /// Every family of input sets `generate` understands, declared once:
    /// name patterns, the parameters records carry, the sweeps.
    fn input_sets(&self) -> Vec<InputSet>;
    /// The sets `bench` measures when none are named (sweep names expand
    /// into their members; a set named twice is measured once).
    fn bench_sets(&self, quick: bool) -> Vec<String>;
    /// The sets `check` samples, each with `--cases` inputs. Default: the
    /// bench sets.
    fn check_sets(&self) -> Vec<String> {
        self.bench_sets(false)
    }
    /// Sweeps the main job measures with the declared default variant only
    /// (quick), so its report has the sweep charts (density lines, the
    /// rank-by-depth heatmap) without timing every variant on every cell.
    fn sweep_sets(&self) -> Vec<String> {
        Vec::new()
    }
    /// Sets whose times add up to a figure of their own (a test suite's
    /// total): a name for the total and the set (usually a sweep) whose
    /// members it sums. `bench` prints the total under its members when it
    /// measured all of them.
    fn totals(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// How many inputs one bench sample holds when the set has no fixed size.
    fn bench_batch(&self, quick: bool) -> usize {
        if quick { 1024 } else { 4096 }
    }
    /// Generates input set `set` (one member of a family of
    /// [`Workload::input_sets`], with its values) deterministically from
    /// `seed`. Open-ended sets return `n` inputs; fixed sets (a list of
    /// tests) return their own. A value out of range is an `Err` with a
    /// one-line reason.
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Self::Input>, String>;
    /// Inputs every `check` includes, with a label each.
    fn edge_cases(&self) -> Vec<(String, Self::Input)> {
        Vec::new()
    }

    /// Parses one input in the spec's text format; `Err` is one line
    /// saying what is wrong. It need not quote the input: `solve` and
    /// `check` print it before the reason (`input 'X': reason`).
    fn parse_input(&self, text: &str) -> Result<Self::Input, String>;
    /// Parses the contents of `--input-file`: by default one input a line,
    /// blank lines and `//` comments skipped (not `#`, which starts many
    /// boards' text, a components board's for one).
    fn parse_input_file(&self, text: &str) -> Result<Vec<Self::Input>, String> {
        text.lines()
            .enumerate()
            .map(|(i, line)| (i, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with(COMMENT))
            .map(|(i, line)| {
                self.parse_input(line)
                    .map_err(|e| format!("line {}: {e}", i + 1))
            })
            .collect()
    }
    /// Formats an input so `parse_input` reads it back (for repro commands).
    fn format_input(&self, input: &Self::Input) -> String;
    /// A multi-line picture of an input for failure reports.
    fn picture(&self, input: &Self::Input) -> String {
        self.format_input(input)
    }
    /// Formats an answer in the spec's text format.
    fn format_output(&self, output: &Self::Output) -> String;
    /// Extra output formats `solve --format` accepts besides `text`.
    fn output_formats(&self) -> &'static [&'static str] {
        &[]
    }
    /// Formats an answer in one of [`Workload::output_formats`].
    fn format_output_as(&self, format: &str, output: &Self::Output) -> String {
        let _ = format;
        self.format_output(output)
    }
    /// Whether two answers agree (canonical comparison). Default: their
    /// texts ([`Workload::format_output`]) are equal; override it with `==`
    /// where that is cheaper, or with what agreeing means.
    fn same(&self, a: &Self::Output, b: &Self::Output) -> bool {
        self.format_output(a) == self.format_output(b)
    }

    /// The input-set parameter a dispatcher chooses by (one of the names
    /// [`Workload::input_sets`] declare, such as `bytes` or `density`),
    /// which [`Workload::regime`] computes from a live input. Default:
    /// none, and a dispatcher chooses by CPU features only.
    fn regime_parameter(&self) -> Option<&'static str> {
        None
    }
    /// The value of [`Workload::regime_parameter`] for `input`, as an input
    /// set with that value declares it: a buffer's length in bytes, a
    /// board's density. It runs on every input a dispatcher solves, inside
    /// its measured time, so it must be cheap (a length, a population
    /// count). Never called when there is no parameter.
    fn regime(&self, input: &Self::Input) -> f64 {
        let _ = input;
        0.0
    }

    /// Throughput elements one solved input stands for (default 1).
    fn elements(&self, input: &Self::Input, output: &Self::Output) -> u64 {
        let _ = (input, output);
        1
    }
    /// Workload counters reported beside time, per solved input
    /// (e.g. search nodes), as `(unit, value)`.
    fn counters(&self, output: &Self::Output) -> Vec<(&'static str, u64)> {
        let _ = output;
        Vec::new()
    }
    /// The cost model: `Some(reason)` when `variant` would take too long on
    /// `input` and must be skipped.
    fn skip(&self, variant: &str, input: &Self::Input) -> Option<String> {
        let _ = (variant, input);
        None
    }
    /// An estimate, when `variant` would practically never finish on
    /// `input` (hours or more). `solve` runs any variant the user names,
    /// even one [`Workload::skip`] refuses (with a note), but for these it
    /// prints the estimate and asks for `--force`. Default: never.
    fn impractical(&self, variant: &str, input: &Self::Input) -> Option<String> {
        let _ = (variant, input);
        None
    }
    /// Decodes a fuzzer's bytes into a batch of inputs for
    /// [`fuzz::check`](crate::fuzz::check) (feature `fuzz`); `Err` when the
    /// bytes make no input, which the fuzzer then does not count.
    ///
    /// The default draws one of the quick bench sets
    /// ([`Workload::bench_sets`]`(true)`, sweeps at their quick points; the
    /// [`Workload::check_sets`] when there are none), a seed and a batch of
    /// one to four inputs, and drops those the oracle's cost model refuses
    /// ([`Workload::skip`]): a run then costs what a quick bench's inputs
    /// cost, not a full check set's slowest, and every run checks
    /// something. The same bytes always decode to the same inputs, as
    /// [`Workload::generate`] is deterministic. A fixed set (a list of
    /// tests) is generated whole each run, and the batch drawn from it.
    ///
    /// Override it to fuzz other sets, or with a structured decoder that
    /// reaches the corners a generator rarely draws (degenerate sizes,
    /// near-full boards, batch tails) and keeps every input within the
    /// oracle's cost; reading one byte at a time with zeros past the end
    /// makes every byte string some valid input.
    #[cfg(feature = "fuzz")]
    fn arbitrary_inputs(
        &self,
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<Vec<Self::Input>> {
        let quick = self.bench_sets(true);
        let names = if quick.is_empty() {
            self.check_sets()
        } else {
            quick
        };
        let sets = crate::sets::expand(&self.input_sets(), &names, true)
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        let set = u.choose(&sets)?;
        let seed = u.arbitrary()?;
        let n = u.int_in_range(1..=4)?;
        let generated = self
            .generate(set, seed, n)
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        let batch = if generated.len() > n {
            (0..n)
                .map(|_| u.choose(&generated).cloned())
                .collect::<arbitrary::Result<Vec<_>>>()?
        } else {
            generated
        };
        let oracle = self.oracle();
        let inputs: Vec<_> = batch
            .into_iter()
            .filter(|input| self.skip(oracle, input).is_none())
            .collect();
        if inputs.is_empty() {
            return Err(arbitrary::Error::IncorrectFormat);
        }
        Ok(inputs)
    }
    /// Inputs one step smaller than `input`, for minimising a failure:
    /// `check`'s disagreements, `bench`'s wrong answers before timing, and
    /// crashes and hangs, each within a budget of steps and time.
    ///
    /// The default offers none, and `check` then reports a disagreement as
    /// "not minimised" (`bench` cuts a long one around its first
    /// difference). Offer the boldest steps first and not too many: every
    /// candidate is built before the first is tried. An input that is an
    /// integer, an array, a `Vec` or a
    /// tuple of these shrinks with one line,
    /// `fn shrink(&self, input: &Self::Input) -> Vec<Self::Input> { bitbench::Shrink::shrink(input) }`
    /// (see [`Shrink`](crate::Shrink)).
    fn shrink(&self, input: &Self::Input) -> Vec<Self::Input> {
        let _ = input;
        Vec::new()
    }
}

/// Generates the inputs of one set named as on the command line, as the
/// engines do, for adapters' unit tests.
#[cfg(test)]
pub(crate) fn generated<W: Workload>(
    w: &W,
    name: &str,
    seed: u64,
    n: usize,
) -> Result<Vec<W::Input>, String> {
    w.generate(&crate::sets::parse(&w.input_sets(), name)?, seed, n)
}

/// The member names a set name expands to, for adapters' unit tests.
#[cfg(test)]
pub(crate) fn expanded<W: Workload>(w: &W, name: &str, quick: bool) -> Vec<String> {
    crate::sets::expand(&w.input_sets(), &[name.to_owned()], quick)
        .expect("a known set")
        .iter()
        .map(|m| m.name().to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workload whose input is any text, to read input files with.
    struct Lines;

    impl Workload for Lines {
        type Input = String;
        type Output = usize;
        fn name(&self) -> &'static str {
            "lines"
        }
        fn description(&self) -> &'static str {
            "the length of a line"
        }
        fn unit(&self) -> &'static str {
            "lines"
        }
        fn variants(&self) -> Vec<VariantInfo> {
            vec![VariantInfo::new("len", "str::len", &[])]
        }
        fn solver(&self, _variant: &str) -> Option<Box<dyn Solve<String, usize>>> {
            Some(Box::new(|s: &String| s.len()))
        }
        fn input_sets(&self) -> Vec<InputSet> {
            vec![InputSet::new("empty", "empty lines")]
        }
        fn bench_sets(&self, _quick: bool) -> Vec<String> {
            vec!["empty".into()]
        }
        fn generate(&self, _set: &Member, _seed: u64, n: usize) -> Result<Vec<String>, String> {
            Ok(vec![String::new(); n])
        }
        fn parse_input(&self, text: &str) -> Result<String, String> {
            Ok(text.to_owned())
        }
        fn format_input(&self, input: &String) -> String {
            input.clone()
        }
        fn format_output(&self, output: &usize) -> String {
            output.to_string()
        }
    }

    #[test]
    fn input_files_skip_blank_lines_and_slash_comments_only() {
        let file = "// a comment\n\n#..#\n  // indented comment\nx # y\n";
        assert_eq!(Lines.parse_input_file(file).unwrap(), ["#..#", "x # y"]);
    }

    #[test]
    fn defaults_follow_from_the_variants_and_the_text_format() {
        assert_eq!((Lines.oracle(), Lines.default_variant()), ("len", "len"));
        assert_eq!(Lines.check_sets(), ["empty"]);
        assert_eq!(Lines.unit_singular(), "line");
        assert!(Lines.same(&3, &3) && !Lines.same(&3, &4));
    }
}
