//! What bitbench needs to know about the kernel: its variants, its input
//! sets (buffers of a given size, and the sweep over sizes that the report
//! draws as a line chart), its text format, and the regime a dispatcher
//! chooses by (a buffer's size). The oracle is the first variant,
//! `bit-loop`.

use crate::{Variant, dispatch, inputs, variants};
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};

/// The `popcount` workload.
#[derive(Clone, Copy)]
pub struct PopcountWorkload;

/// The `popcount` workload, for `bitbench::main!`.
pub const POPCOUNT: PopcountWorkload = PopcountWorkload;

impl Workload for PopcountWorkload {
    type Input = Vec<u64>;
    type Output = u64;

    fn name(&self) -> &'static str {
        "popcount"
    }
    fn description(&self) -> &'static str {
        "population count of a buffer of u64 words"
    }
    fn unit(&self) -> &'static str {
        "bytes"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        let info = |v: &Variant| VariantInfo::new(v.name, v.description, v.features);
        let mut all: Vec<VariantInfo> = variants().iter().map(info).collect();
        all.push(dispatch::TABLE.variant());
        all
    }
    fn default_variant(&self) -> &'static str {
        "swar"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Vec<u64>, u64>>> {
        if variant == dispatch::TABLE.name {
            return dispatch::TABLE.solver(self);
        }
        let kernel = (variants().into_iter().find(|v| v.name == variant)?.make)()?;
        Some(Box::new(move |words: &Vec<u64>| kernel.count(words)))
    }
    fn input_sets(&self) -> Vec<InputSet> {
        // Every power of two from 8 B to 4 KiB, where the per-call costs
        // decide and the winners cross, then every fourth to 1 MiB.
        let small = 3..=12;
        let large = (14..=20).step_by(2);
        let sizes = small.chain(large).map(|log| f64::from(1 << log));
        let size = InputSet::new("size:N", "buffers of N random bytes (a multiple of 8)");
        vec![size.parameters(&["bytes"]).sweep("sizes", sizes)]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["sizes".to_owned()]
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Vec<u64>>, String> {
        let bytes: usize = set.get(0)?;
        if bytes == 0 || !bytes.is_multiple_of(8) {
            return Err(format!("{set}: not a positive multiple of 8 bytes"));
        }
        // Up to 1 MiB of buffers a sample: several small ones, one large one.
        let buffers = ((1 << 20) / bytes).clamp(1, n.max(1)) as u64;
        Ok((0..buffers)
            .map(|i| inputs::words(seed ^ (i << 32), bytes / 8))
            .collect())
    }
    fn edge_cases(&self) -> Vec<(String, Vec<u64>)> {
        inputs::edge_cases()
    }
    fn parse_input(&self, text: &str) -> Result<Vec<u64>, String> {
        let word = |w: &str| u64::from_str_radix(w.trim_start_matches("0x"), 16);
        let words = text.split_whitespace().map(word).collect::<Result<_, _>>();
        words.map_err(|e| format!("each word is hexadecimal: {e}"))
    }
    fn format_input(&self, input: &Vec<u64>) -> String {
        let words: Vec<String> = input.iter().map(|w| format!("{w:#x}")).collect();
        words.join(" ")
    }
    fn format_output(&self, output: &u64) -> String {
        output.to_string()
    }
    fn regime_parameter(&self) -> Option<&'static str> {
        Some("bytes")
    }
    fn regime(&self, input: &Vec<u64>) -> f64 {
        (input.len() * 8) as f64
    }
    fn elements(&self, input: &Vec<u64>, _output: &u64) -> u64 {
        input.len() as u64 * 8
    }
}
