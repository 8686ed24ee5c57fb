//! What bitbench needs to know about the kernel: its variants, its input
//! sets (buffers of a given size, and the sweep over sizes that the report
//! draws as a line chart), its text format and its oracle.

use crate::{Popcount, variants};
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};

/// The `popcount` workload.
pub struct PopcountWorkload;

/// The `popcount` workload, for `bitbench::main!`.
pub const POPCOUNT: PopcountWorkload = PopcountWorkload;

/// The sizes of the `sizes` sweep, in bytes: 1 KiB to 1 MiB.
const SWEEP: [usize; 6] = [1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20];

/// Bytes of buffers one bench sample holds at most (several small buffers,
/// one large one).
const SAMPLE_BYTES: usize = 1 << 20;

struct Batch(Box<dyn Popcount>);

impl Solve<Vec<u64>, u64> for Batch {
    fn solve_batch(&self, inputs: &[Vec<u64>], out: &mut [u64]) {
        for (words, o) in inputs.iter().zip(out) {
            *o = self.0.count(words);
        }
    }
}

/// `n` words from `seed` (SplitMix64).
fn words(seed: u64, n: usize) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let z = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

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
        variants()
            .iter()
            .map(|v| VariantInfo::new(v.name, v.description, v.features))
            .collect()
    }
    fn default_variant(&self) -> &'static str {
        "swar"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Vec<u64>, u64>>> {
        let v = variants().into_iter().find(|v| v.name == variant)?;
        Some(Box::new(Batch((v.make)()?)))
    }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![
            InputSet::new("size:N", "buffers of N random bytes (a multiple of 8)")
                .parameters(&["bytes"])
                .sweep("sizes", SWEEP.map(|n| n as f64)),
        ]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["sizes".to_owned()]
    }
    fn check_sets(&self) -> Vec<String> {
        ["size:8", "size:136", "size:1032", "size:8000"]
            .map(String::from)
            .to_vec()
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Vec<u64>>, String> {
        let bytes: usize = set.get(0)?;
        if bytes == 0 || bytes % 8 != 0 {
            return Err(format!("{set}: not a positive multiple of 8 bytes"));
        }
        let buffers = (SAMPLE_BYTES / bytes).clamp(1, n.max(1));
        Ok((0..buffers as u64)
            .map(|i| words(seed ^ (i << 32), bytes / 8))
            .collect())
    }
    fn edge_cases(&self) -> Vec<(String, Vec<u64>)> {
        let mut cases = vec![
            ("empty".to_owned(), Vec::new()),
            ("all ones".to_owned(), vec![u64::MAX; 70]),
        ];
        // Lengths that end inside every block size the variants use.
        for n in [1, 3, 7, 17, 33, 63, 65, 129, 1000] {
            cases.push((format!("{n} words"), words(n as u64, n)));
        }
        cases
    }
    fn parse_input(&self, text: &str) -> Result<Vec<u64>, String> {
        text.split_whitespace()
            .map(|w| {
                let hex = w.strip_prefix("0x").unwrap_or(w);
                u64::from_str_radix(hex, 16).map_err(|e| format!("'{w}': {e}"))
            })
            .collect()
    }
    fn format_input(&self, input: &Vec<u64>) -> String {
        let words: Vec<String> = input.iter().map(|w| format!("{w:#x}")).collect();
        words.join(" ")
    }
    fn format_output(&self, output: &u64) -> String {
        output.to_string()
    }
    fn same(&self, a: &u64, b: &u64) -> bool {
        a == b
    }
    fn elements(&self, input: &Vec<u64>, _output: &u64) -> u64 {
        input.len() as u64 * 8
    }
}
