//! What bitbench needs to know about perft: the variants, the input sets
//! (the standard positions at each depth, which the report draws as a
//! line chart, and random playouts), the text format `FEN;DEPTH`. The
//! oracle is the first variant, `shakmaty`.

use crate::Input;
use crate::positions::{self, CORNERS, STANDARD};
use crate::variants::{Variant, variants};
use bitbench::{InputSet, Member, Solve, VariantInfo, Workload};

/// The `perft` workload.
pub struct PerftWorkload;

/// The `perft` workload, for `bitbench::main!`.
pub const PERFT: PerftWorkload = PerftWorkload;

impl Workload for PerftWorkload {
    type Input = Input;
    type Output = u64;

    fn name(&self) -> &'static str {
        "perft"
    }
    fn description(&self) -> &'static str {
        "chess perft: the leaves of the legal move tree to depth D from a FEN"
    }
    fn unit(&self) -> &'static str {
        "nodes"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        let info = |v: &Variant| VariantInfo::new(v.name, v.description, &[]);
        variants().iter().map(info).collect()
    }
    fn default_variant(&self) -> &'static str {
        "cozy-chess"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Input, u64>>> {
        Some((variants().into_iter().find(|v| v.name == variant)?.make)())
    }
    fn input_sets(&self) -> Vec<InputSet> {
        let standard = InputSet::new(
            "standard:D",
            "the six standard positions (start, kiwipete, positions 3 to 6) to depth D",
        );
        vec![
            standard
                .parameters(&["depth"])
                .sweep("depths", [1.0, 2.0, 3.0, 4.0]),
            InputSet::new(
                "playouts",
                "positions after random legal plies from the start, to depth 1 to 3",
            ),
        ]
    }
    fn bench_sets(&self, quick: bool) -> Vec<String> {
        let sets: &[&str] = if quick {
            &["standard:1", "standard:2", "standard:3", "playouts"]
        } else {
            &["depths", "playouts"]
        };
        sets.iter().map(|s| s.to_string()).collect()
    }
    fn bench_batch(&self, quick: bool) -> usize {
        // One input is a whole search, thousands of nodes.
        if quick { 64 } else { 256 }
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Input>, String> {
        if set.pattern() == "playouts" {
            return Ok(positions::playouts(seed, n));
        }
        let depth: u32 = set.get(0)?;
        Ok(STANDARD.map(|(_, fen)| (fen.to_owned(), depth)).into())
    }
    fn edge_cases(&self) -> Vec<(String, Input)> {
        let at_depth_3 = |(label, fen): &(&str, &str)| (label.to_string(), (fen.to_string(), 3));
        CORNERS.iter().map(at_depth_3).collect()
    }
    fn parse_input(&self, text: &str) -> Result<Input, String> {
        let (fen, depth) = text.rsplit_once(';').ok_or("expected FEN;DEPTH")?;
        let depth = depth.trim().parse().map_err(|e| format!("depth: {e}"))?;
        Ok((positions::canonical(fen.trim())?, depth))
    }
    fn format_input(&self, (fen, depth): &Input) -> String {
        format!("{fen};{depth}")
    }
    fn format_output(&self, output: &u64) -> String {
        output.to_string()
    }
    fn same(&self, a: &u64, b: &u64) -> bool {
        a == b
    }
    fn elements(&self, _input: &Input, output: &u64) -> u64 {
        *output
    }
    fn shrink(&self, input: &Input) -> Vec<Input> {
        // Shallower, or the FEN a character shorter or simpler, where that
        // is still a legal position written as every input is.
        let written = |(fen, _): &Input| positions::canonical(fen).as_ref() == Ok(fen);
        bitbench::Shrink::shrink(input)
            .into_iter()
            .filter(written)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_read_back_as_written_and_shrink_to_legal_positions() {
        let kiwipete = format!("{};3", STANDARD[1].1);
        let input = PERFT.parse_input(&kiwipete).unwrap();
        assert_eq!(PERFT.format_input(&input), kiwipete);
        // Missing fields are filled in; an illegal position is refused.
        let bare = PERFT.parse_input("8/8/8/8/8/8/8/K1k5 w - -;2").unwrap();
        assert_eq!(bare.0, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        assert!(PERFT.parse_input("8/8/8/8/8/8/8/8 w - - 0 1;2").is_err());
        assert!(PERFT.parse_input(STANDARD[0].1).is_err());

        let smaller = PERFT.shrink(&input);
        assert!(smaller.contains(&(STANDARD[1].1.to_owned(), 2)));
        assert!(smaller.iter().any(|(fen, _)| fen.contains(" w Qkq - ")));
        for (fen, _) in &smaller {
            assert_eq!(positions::canonical(fen).as_ref(), Ok(fen));
        }
    }
}
