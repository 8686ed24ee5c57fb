//! What bitbench needs to know about hex encoding: the variants, the input
//! sets (a buffer of N random bytes, and the sweep over 14 sizes from 8 B
//! to 1 MiB that the report draws as a line chart over bytes), the text
//! format (the input's bytes in hex), and bytes as the unit, so times read
//! as GB/s. The oracle is the first variant, `scalar`.

use crate::{Variant, inputs, scalar, variants};
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};

/// The `hex` workload.
#[derive(Clone, Copy)]
pub struct HexWorkload;

/// The `hex` workload, for `bitbench::main!`.
pub const HEX: HexWorkload = HexWorkload;

/// The buffer sizes of the sweep: every power of two to 1 KiB, where the
/// per-call costs (the allocation, the dispatch, the tail) decide, then
/// steps of four to 256 KiB, then 512 KiB and 1 MiB, past the L2 cache.
pub const SIZES: [u32; 14] = [
    8,
    16,
    32,
    64,
    128,
    256,
    512,
    1 << 10,
    4 << 10,
    16 << 10,
    64 << 10,
    256 << 10,
    512 << 10,
    1 << 20,
];

impl Workload for HexWorkload {
    type Input = Vec<u8>;
    type Output = String;

    fn name(&self) -> &'static str {
        "hex"
    }
    fn description(&self) -> &'static str {
        "lowercase hex encoding of a byte buffer"
    }
    fn unit(&self) -> &'static str {
        "bytes"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        let info = |v: &Variant| VariantInfo::new(v.name, v.description, &[]);
        variants().iter().map(info).collect()
    }
    fn default_variant(&self) -> &'static str {
        "const-hex"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Vec<u8>, String>>> {
        let encode = variants().into_iter().find(|v| v.name == variant)?.encode;
        Some(Box::new(move |bytes: &Vec<u8>| encode(bytes)))
    }
    fn input_sets(&self) -> Vec<InputSet> {
        let size = InputSet::new("size:N", "buffers of N random bytes");
        let sizes = SIZES.map(f64::from);
        vec![size.parameters(&["bytes"]).sweep("sizes", sizes)]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["sizes".to_owned()]
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Vec<u8>>, String> {
        let bytes: usize = set.get(0)?;
        if bytes == 0 {
            return Err(format!("{set}: not a positive number of bytes"));
        }
        // Up to 1 MiB of buffers a sample: several small ones, one large one.
        let buffers = ((1 << 20) / bytes).clamp(1, n.max(1)) as u64;
        Ok((0..buffers)
            .map(|i| inputs::bytes(seed ^ (i << 32), bytes))
            .collect())
    }
    fn edge_cases(&self) -> Vec<(String, Vec<u8>)> {
        inputs::edge_cases()
    }
    fn parse_input(&self, text: &str) -> Result<Vec<u8>, String> {
        scalar::decode(text)
    }
    fn format_input(&self, input: &Vec<u8>) -> String {
        scalar::encode(input)
    }
    fn format_output(&self, output: &String) -> String {
        output.clone()
    }
    fn same(&self, a: &String, b: &String) -> bool {
        a == b
    }
    fn elements(&self, input: &Vec<u8>, _output: &String) -> u64 {
        input.len() as u64
    }
    fn shrink(&self, input: &Vec<u8>) -> Vec<Vec<u8>> {
        bitbench::Shrink::shrink(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_encodes_every_edge_case_as_the_oracle_does() {
        for (label, input) in inputs::edge_cases() {
            let expected = scalar::encode(&input);
            assert_eq!(expected.len(), 2 * input.len(), "{label}");
            for v in variants() {
                assert_eq!((v.encode)(&input), expected, "{}: {label}", v.name);
            }
        }
    }

    #[test]
    fn inputs_read_back_as_written() {
        let input = inputs::bytes(9, 33);
        let text = HEX.format_input(&input);
        assert_eq!(HEX.parse_input(&text), Ok(input));
        assert!(HEX.parse_input("0x12").is_err());
    }
}
