//! The type-erased workload the CLI holds: one list of every workload,
//! whatever its input and output types.
//!
//! [`DynWorkload`] is all a user sees: sealed, with no methods of its own,
//! so importing it beside [`Workload`] clashes with nothing. The commands
//! call the engine through its supertrait, whose blanket impl turns each
//! [`Workload`] call they need into a text- or record-shaped one,
//! monomorphising the engines per workload.

use crate::workload::Workload;

/// Any workload, whatever its input and output types: what
/// [`cli::main`](crate::cli::main) takes a list of. `&MY_WORKLOAD` is one
/// for every type implementing [`Workload`]; nothing else implements it
/// (it is sealed), and it has no methods of its own.
pub trait DynWorkload: sealed::Engine {}

impl<W: Workload> DynWorkload for W {}

/// Private, so no other crate can name, implement or import it.
mod sealed {
    use crate::engine::batch::{self, BatchError, BatchRequest, PreparedBatch};
    use crate::engine::bench::{self, BenchOptions};
    use crate::engine::check::{self, CheckOptions, CheckReport};
    use crate::engine::serve;
    use crate::engine::solve::{self, SolveRequest};
    use crate::error::Error;
    use crate::sets::{self, InputSet};
    use crate::workload::{VariantInfo, Workload};
    use reports::Record;

    /// What the commands ask of a workload, in text and records.
    pub trait Engine: Send + Sync {
        /// Registry name.
        fn name(&self) -> &'static str;
        /// One-line description.
        fn description(&self) -> &'static str;
        /// Throughput unit, plural.
        fn unit(&self) -> &'static str;
        /// The unit's singular, see [`Workload::unit_singular`].
        fn unit_singular(&self) -> &'static str;
        /// Every variant.
        fn variants(&self) -> Vec<VariantInfo>;
        /// The oracle, see [`Workload::oracle`].
        fn oracle(&self) -> &'static str;
        /// The first variant declared available here that does not build.
        fn unbuildable(&self) -> Option<&'static str>;
        /// The declared default variant, see [`Workload::default_variant`].
        fn default_variant(&self) -> &'static str;
        /// The input-set families, see [`Workload::input_sets`].
        fn input_sets(&self) -> Vec<InputSet>;
        /// Extra `solve --format` names.
        fn output_formats(&self) -> &'static [&'static str];
        /// Solves text inputs with `variant` (empty: the default), returning
        /// one output line each; see [`solve::solve`].
        fn solve_text(&self, request: &SolveRequest<'_>) -> Result<Vec<String>, Error>;
        /// The inputs of one set in the text format `solve` reads, one each:
        /// `n` of them (default: one `bench` sample) for an open-ended set, all
        /// of a fixed one.
        fn input_lines(&self, set: &str, seed: u64, n: Option<usize>)
        -> Result<Vec<String>, Error>;
        /// Runs the differential check.
        fn check(&self, options: &CheckOptions) -> Result<CheckReport, Error>;
        /// The inputs `variant` ran in one of the check's steps, with their
        /// origins, see [`check::inputs_of`].
        fn check_inputs(
            &self,
            options: &CheckOptions,
            pass: u8,
            chunk: usize,
            variant: &str,
        ) -> Result<Vec<(String, String)>, Error>;
        /// Inputs in one bench sample of an open-ended set.
        fn batch_size(&self, quick: bool) -> usize;
        /// The regime parameter, see [`Workload::regime_parameter`].
        fn regime_parameter(&self) -> Option<&'static str>;
        /// Of `variants`, those the cost model ([`Workload::skip`],
        /// [`Workload::impractical`]) refuses on some input of `set` (a
        /// sample of it), with the reason; none when the set is unknown.
        fn ruled_out(&self, set: &str, variants: &[&str]) -> Vec<(String, String)>;
        /// Candidates one step simpler than the text input `line`, as text
        /// (none when it does not parse).
        fn shrink_text(&self, line: &str) -> Vec<String>;
        /// The picture of the text input `line` (empty when it does not parse).
        fn picture_text(&self, line: &str) -> String;
        /// The variant `variant` chooses for the text input `line`, when it
        /// is a dispatcher, see [`Solve::chosen`](crate::Solve::chosen).
        fn chosen_text(&self, variant: &str, line: &str) -> Option<&'static str>;
        /// An input to show in an example, as text: the shortest edge case
        /// that is not empty, else the first input of the first set `bench`
        /// measures (`None` when there is neither).
        fn example_input(&self) -> Option<String>;
        /// Verifies then times; returns the records.
        fn bench(&self, options: &BenchOptions) -> Result<Vec<Record>, Error>;
        /// Sweeps the main job measures with the declared default variant only.
        fn sweep_sets(&self) -> Vec<String>;
        /// Totals over several sets, see [`Workload::totals`], with the sets
        /// each sums expanded.
        fn totals(&self) -> Vec<(String, Vec<String>)>;
        /// The input sets measured for `named` (empty: the `bench` defaults),
        /// sweeps expanded into their members, each once. A name that is no
        /// set is kept as it is, for the command measuring it to reject.
        fn measured_sets(&self, named: &[String], quick: bool) -> Vec<String>;
        /// Fills in what every record of this workload says about itself: its
        /// input set's parameters, the workload's oracle, the variant's CPU
        /// features and whether it is a dispatcher.
        fn annotate(&self, records: &mut [Record]);
        /// Prepares one (variant, input set) batch for an outside measuring
        /// tool (criterion, gungraun), see [`batch::prepare`].
        fn prepare_batch(&self, request: &BatchRequest<'_>) -> Result<PreparedBatch, BatchError>;
        /// Parses text inputs, builds `variant` and solves them once, keeping
        /// the batch for serve mode's samples, see [`serve::load`].
        fn load_text(
            &self,
            variant: &str,
            inputs: &[String],
            measure: bool,
        ) -> Result<serve::Loaded, Error>;
        /// How serve mode's hello lists the workload.
        fn hello(&self) -> serve::HelloWorkload;
    }

    impl<W: Workload> Engine for W {
        fn name(&self) -> &'static str {
            Workload::name(self)
        }
        fn hello(&self) -> serve::HelloWorkload {
            serve::HelloWorkload::of(self, self.measured_sets(&[], true))
        }
        fn description(&self) -> &'static str {
            Workload::description(self)
        }
        fn unit(&self) -> &'static str {
            Workload::unit(self)
        }
        fn unit_singular(&self) -> &'static str {
            Workload::unit_singular(self)
        }
        fn variants(&self) -> Vec<VariantInfo> {
            Workload::variants(self)
        }
        fn oracle(&self) -> &'static str {
            Workload::oracle(self)
        }
        fn unbuildable(&self) -> Option<&'static str> {
            Workload::variants(self)
                .into_iter()
                .find(|v| v.unavailable.is_none() && self.solver(v.name).is_none())
                .map(|v| v.name)
        }
        fn default_variant(&self) -> &'static str {
            Workload::default_variant(self)
        }
        fn input_sets(&self) -> Vec<InputSet> {
            Workload::input_sets(self)
        }
        fn output_formats(&self) -> &'static [&'static str] {
            Workload::output_formats(self)
        }
        fn solve_text(&self, request: &SolveRequest<'_>) -> Result<Vec<String>, Error> {
            solve::solve(self, request)
        }
        fn input_lines(
            &self,
            set: &str,
            seed: u64,
            n: Option<usize>,
        ) -> Result<Vec<String>, Error> {
            let n = n.unwrap_or_else(|| self.bench_batch(false));
            solve::input_lines(self, set, seed, n)
        }
        fn check(&self, options: &CheckOptions) -> Result<CheckReport, Error> {
            check::run(self, options)
        }
        fn check_inputs(
            &self,
            options: &CheckOptions,
            pass: u8,
            chunk: usize,
            variant: &str,
        ) -> Result<Vec<(String, String)>, Error> {
            check::inputs_of(self, options, pass, chunk, variant)
        }
        fn regime_parameter(&self) -> Option<&'static str> {
            Workload::regime_parameter(self)
        }
        fn ruled_out(&self, set: &str, variants: &[&str]) -> Vec<(String, String)> {
            // A sample as large as check's default: the cost model is about
            // an input's size and shape, which a set's inputs share.
            const SAMPLE: usize = 64;
            let Ok(member) = sets::parse(&Workload::input_sets(self), set) else {
                return Vec::new();
            };
            let Ok(inputs) = self.generate(&member, 1, SAMPLE) else {
                return Vec::new();
            };
            variants
                .iter()
                .filter_map(|v| {
                    inputs.iter().find_map(|input| {
                        self.skip(v, input)
                            .or_else(|| self.impractical(v, input))
                            .map(|why| ((*v).to_owned(), why))
                    })
                })
                .collect()
        }
        fn batch_size(&self, quick: bool) -> usize {
            self.bench_batch(quick)
        }
        fn shrink_text(&self, line: &str) -> Vec<String> {
            self.parse_input(line).map_or_else(
                |_| Vec::new(),
                |input| {
                    self.shrink(&input)
                        .iter()
                        .map(|i| self.format_input(i))
                        .collect()
                },
            )
        }
        fn picture_text(&self, line: &str) -> String {
            self.parse_input(line)
                .map(|input| self.picture(&input))
                .unwrap_or_default()
        }
        fn chosen_text(&self, variant: &str, line: &str) -> Option<&'static str> {
            let input = self.parse_input(line).ok()?;
            self.solver(variant)?.chosen(&input)
        }
        fn example_input(&self) -> Option<String> {
            let edge_cases = self.edge_cases();
            let edge_case = edge_cases
                .iter()
                .map(|(_, input)| self.format_input(input))
                .filter(|text| !text.is_empty())
                .min_by_key(String::len);
            edge_case.or_else(|| {
                let set = self.measured_sets(&[], false).into_iter().next()?;
                self.input_lines(&set, 1, Some(1)).ok()?.into_iter().next()
            })
        }
        fn bench(&self, options: &BenchOptions) -> Result<Vec<Record>, Error> {
            let mut records = bench::run(self, options)?;
            Engine::annotate(self, &mut records);
            Ok(records)
        }
        fn sweep_sets(&self) -> Vec<String> {
            Workload::sweep_sets(self)
        }
        fn totals(&self) -> Vec<(String, Vec<String>)> {
            let families = Workload::input_sets(self);
            Workload::totals(self)
                .into_iter()
                .map(|(total, set)| {
                    let members = sets::expand(&families, &[set], false).unwrap_or_default();
                    (total, members.iter().map(|m| m.name().to_owned()).collect())
                })
                .collect()
        }
        fn measured_sets(&self, named: &[String], quick: bool) -> Vec<String> {
            let named = if named.is_empty() {
                self.bench_sets(quick)
            } else {
                named.to_vec()
            };
            let families = Workload::input_sets(self);
            let mut measured: Vec<String> = Vec::new();
            for name in named {
                let members = match sets::expand(&families, std::slice::from_ref(&name), quick) {
                    Ok(members) => members.iter().map(|m| m.name().to_owned()).collect(),
                    Err(_) => vec![name],
                };
                for m in members {
                    if !measured.contains(&m) {
                        measured.push(m);
                    }
                }
            }
            measured
        }
        fn annotate(&self, records: &mut [Record]) {
            let oracle = Some(Workload::oracle(self).to_owned());
            let families = Workload::input_sets(self);
            let variants = Workload::variants(self);
            for r in records
                .iter_mut()
                .filter(|r| r.workload == Workload::name(self))
            {
                r.parameters = sets::parameters(&families, &r.input_set);
                r.oracle.clone_from(&oracle);
                let name = Workload::name(self);
                r.dispatcher = crate::dispatch::is_dispatching(name, &r.variant);
                if let Some(v) = variants.iter().find(|v| v.name == r.variant) {
                    r.features = v.features.iter().map(|f| (*f).to_owned()).collect();
                }
            }
        }
        fn prepare_batch(&self, request: &BatchRequest<'_>) -> Result<PreparedBatch, BatchError> {
            batch::prepare(self, request)
        }
        fn load_text(
            &self,
            variant: &str,
            inputs: &[String],
            measure: bool,
        ) -> Result<serve::Loaded, Error> {
            serve::load(self, variant, inputs, measure)
        }
    }
}
