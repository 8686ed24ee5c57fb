//! The `Workload` adapter: what the harness needs to know about a kernel.
//!
//! A kernel crate is a plain library with its own types and trait. An
//! adapter implementing [`Workload`] maps it onto bitbench's generic
//! machinery (verification, timing, results); this module holds only that
//! vocabulary, so every engine depends on it and it depends on none.
//! [`DynWorkload`](crate::DynWorkload) erases the types for the CLI.

/// One implementation of a workload, as the harness lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// Registry name, e.g. `swar`.
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// `Some(reason)` when this machine cannot run the variant.
    pub unavailable: Option<String>,
}

impl VariantInfo {
    /// Builds the entry for a registry variant from the CPU features it
    /// needs, detected at run time: availability is known without building
    /// the variant (some build tables for milliseconds).
    ///
    /// ```
    /// use bitbench::VariantInfo;
    ///
    /// let portable = VariantInfo::new("swar", "64-bit words as lanes", &[]);
    /// assert_eq!(portable.unavailable, None);
    /// let future = VariantInfo::new("wide", "a feature no CPU has", &["no-such-feature"]);
    /// assert_eq!(future.unavailable.as_deref(), Some("this CPU lacks no-such-feature"));
    /// ```
    pub fn new(name: &'static str, description: &'static str, features: &[&str]) -> Self {
        // Name only what is missing: "lacks avx512f+avx512bw", not every
        // feature the variant uses.
        let missing: Vec<&str> = features
            .iter()
            .copied()
            .filter(|f| crate::levels::detected(f) != Some(true))
            .collect();
        let unavailable =
            (!missing.is_empty()).then(|| format!("this CPU lacks {}", missing.join("+")));
        VariantInfo {
            name,
            description,
            unavailable,
        }
    }
}

/// `name` when it is among `variants` and runs on this machine.
pub(crate) fn runnable(variants: &[VariantInfo], name: &str) -> Option<&'static str> {
    variants
        .iter()
        .find(|v| v.name == name && v.unavailable.is_none())
        .map(|v| v.name)
}

/// A named input set or input-set pattern, for `list` and `--help`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputSetInfo {
    /// The name or pattern, e.g. `density:P`.
    pub pattern: &'static str,
    /// What the set holds.
    pub description: &'static str,
}

/// A ready-to-run implementation: the batch entry point the harness times.
pub trait Solve<I, O>: Send + Sync {
    /// Solves `inputs[i]` into `out[i]`; the slices have equal lengths.
    fn solve_batch(&self, inputs: &[I], out: &mut [O]);
}

/// A kernel as bitbench sees it: implement this for your kernel and pass
/// it to [`main!`](crate::main!), whose docs show a complete example.
///
/// Inputs and outputs are the kernel crate's own types; the adapter
/// supplies the names, text formats, generators and the cost model. The
/// first of [`Workload::variants`] is the oracle every other variant is
/// checked against.
pub trait Workload: Send + Sync + 'static {
    /// One problem instance (a board, a position, a depth and board, ...).
    type Input: Clone + Send + Sync + 'static;
    /// One answer.
    type Output: Clone + Default + Send + Sync + 'static;

    /// Registry name, e.g. `components`.
    fn name(&self) -> &'static str;
    /// One-line description.
    fn description(&self) -> &'static str;
    /// What one element of throughput is, plural: `boards`, `solves`, ...
    fn unit(&self) -> &'static str;

    /// Every variant, the oracle first.
    fn variants(&self) -> Vec<VariantInfo>;
    /// The declared default variant: what `solve` runs when none is named,
    /// the stand-in reference where the oracle's cost model refuses an
    /// input, and what the main job sweeps. Usually the variant believed
    /// fastest; the measured fastest is a result, computed by the report.
    fn default_variant(&self) -> &'static str;
    /// Builds a variant, or `None` when it is unknown or unavailable here.
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Self::Input, Self::Output>>>;

    /// The input sets `generate` understands, for help texts.
    fn input_sets(&self) -> Vec<InputSetInfo>;
    /// The sets `bench` measures when none are named.
    fn bench_sets(&self, quick: bool) -> Vec<String>;
    /// The sets `check` samples, each with `--cases` inputs.
    fn check_sets(&self) -> Vec<String>;
    /// Expands a set name that stands for several (a sweep) into its
    /// members, each measured as its own record. Plain names map to
    /// themselves; unknown names are left for `generate` to reject.
    fn expand_set(&self, name: &str, quick: bool) -> Vec<String> {
        let _ = quick;
        vec![name.to_owned()]
    }
    /// The parameters of input set `name` (already expanded), in a fixed
    /// order: `[("density", 0.5)]`, `[("rank", 3.0), ("depth", 20.0)]`.
    /// Every record carries them; the report draws sets with one parameter
    /// as a line chart over it and sets with two as a heatmap. Default:
    /// none (the set is a bar-chart headline).
    fn parameters(&self, name: &str) -> Vec<(&'static str, f64)> {
        let _ = name;
        Vec::new()
    }
    /// Sweeps the main job measures with the declared default variant only
    /// (quick), so its report has the sweep charts (density lines, the
    /// rank-by-depth heatmap) without timing every variant on every cell.
    fn sweep_sets(&self) -> Vec<String> {
        Vec::new()
    }
    /// Sets whose times add up to a figure of their own (a test suite's
    /// total): a name for the total and its member sets. `bench` prints the
    /// total under its members when it measured all of them.
    fn totals(&self) -> Vec<(String, Vec<String>)> {
        Vec::new()
    }
    /// How many inputs one bench sample holds when the set has no fixed size.
    fn bench_batch(&self, quick: bool) -> usize {
        if quick { 1024 } else { 4096 }
    }
    /// Generates set `name` deterministically from `seed`. Open-ended sets
    /// return `n` inputs; fixed sets (a list of tests) return their own.
    /// An unknown or malformed name is an `Err` with a one-line reason.
    fn generate(&self, name: &str, seed: u64, n: usize) -> Result<Vec<Self::Input>, String>;
    /// Inputs every `check` includes, with a label each.
    fn edge_cases(&self) -> Vec<(String, Self::Input)> {
        Vec::new()
    }

    /// Parses one input in the spec's text format; `Err` is one line.
    fn parse_input(&self, text: &str) -> Result<Self::Input, String>;
    /// Parses the contents of `--input-file`: by default one input a line,
    /// blank lines and `#` comments skipped.
    fn parse_input_file(&self, text: &str) -> Result<Vec<Self::Input>, String> {
        text.lines()
            .enumerate()
            .map(|(i, line)| (i, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with("//"))
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
    /// Whether two answers agree (canonical comparison).
    fn same(&self, a: &Self::Output, b: &Self::Output) -> bool;

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
    /// The default draws one of [`Workload::check_sets`] and a seed and
    /// generates one input. Override it with a structured decoder that
    /// reaches the corners a generator rarely draws (degenerate sizes,
    /// near-full boards, batch tails) and keeps every input within the
    /// oracle's cost; reading one byte at a time with zeros past the end
    /// makes every byte string some valid input.
    #[cfg(feature = "fuzz")]
    fn arbitrary_inputs(
        &self,
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<Vec<Self::Input>> {
        let sets = self.check_sets();
        let set = u.choose(&sets)?;
        let seed = u.arbitrary()?;
        let inputs = self
            .generate(set, seed, 1)
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        Ok(vec![u.choose(&inputs)?.clone()])
    }
    /// Inputs one step smaller than `input`, for minimising a failure.
    ///
    /// The default offers none, and `check` then reports a disagreement as
    /// "not minimised". An input that is an integer, an array, a `Vec` or a
    /// tuple of these shrinks with one line,
    /// `fn shrink(&self, input: &Self::Input) -> Vec<Self::Input> { bitbench::Shrink::shrink(input) }`
    /// (see [`Shrink`](crate::Shrink)).
    fn shrink(&self, input: &Self::Input) -> Vec<Self::Input> {
        let _ = input;
        Vec::new()
    }
}
