//! Adapter for `impls/components`: connected components of a 6×12 bitboard.
//!
//! One adapter serves both problem definitions the crate offers — all
//! components, and the `groups4` rule (only components of 4+ cells) — since
//! they share boards, formats and input sets and differ only in registry.

use crate::sets::{InputSet, Member};
use crate::workload::{Solve, VariantInfo, Workload};
use components::{Board, Labeler, Variant};

/// A components problem definition: a name and the registry that solves it.
pub struct Components {
    name: &'static str,
    description: &'static str,
    registry: fn() -> Vec<Variant>,
    default: &'static str,
}

/// All connected components (the baseline problem).
pub const ALL: Components = Components {
    name: "components",
    description: "4-connected components of a 6×12 bitboard",
    registry: components::variants,
    default: "swar",
};

/// The Smash the Code rule: only components of at least 4 cells.
pub const GROUPS4: Components = Components {
    name: "components-groups4",
    description: "4-connected components of 4+ cells of a 6×12 bitboard (Smash the Code)",
    registry: components::groups4_variants,
    default: "groups4-swar-prefilter",
};

/// Densities of the sweep, 0.05 to 0.95 in steps of 0.05.
fn sweep() -> impl Iterator<Item = f64> {
    // Dividing (rather than multiplying by 0.05) gives the double nearest to
    // each decimal, which prints as the short name (`0.15`, not `0.15000000000000002`).
    (1..=19).map(|i| f64::from(i) / 20.0)
}

struct Batch(Box<dyn Labeler>);

impl Solve<Board, components::Components> for Batch {
    fn solve_batch(&mut self, inputs: &[Board], out: &mut [components::Components]) {
        self.0.label_batch(inputs, out);
    }
}

impl Workload for Components {
    type Input = Board;
    type Output = components::Components;

    fn name(&self) -> &'static str {
        self.name
    }
    fn description(&self) -> &'static str {
        self.description
    }
    fn unit(&self) -> &'static str {
        "boards"
    }

    fn variants(&self) -> Vec<VariantInfo> {
        (self.registry)()
            .iter()
            .map(|v| VariantInfo::new(v.name, v.description, v.features))
            .collect()
    }
    fn default_variant(&self) -> &'static str {
        self.default
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Board, components::Components>>> {
        let v = (self.registry)().into_iter().find(|v| v.name == variant)?;
        let labeler = (v.make)()?;
        Some(Box::new(Batch(labeler)))
    }

    fn input_sets(&self) -> Vec<InputSet> {
        vec![
            InputSet::new(
                "density:P",
                "each cell set independently with probability P (0 < P < 1)",
            )
            .parameters(&["density"])
            .sweep("density-sweep", sweep()),
            InputSet::new(
                "seed",
                "the seed write-up's AND of three random words (P = 1/8)",
            ),
            InputSet::new(
                "game",
                "Smash the Code boards (gravity, 5 colours + skulls) split per colour",
            ),
        ]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        [
            "density:0.125",
            "density:0.5",
            "density:0.875",
            "seed",
            "game",
        ]
        .map(String::from)
        .to_vec()
    }
    fn sweep_sets(&self) -> Vec<String> {
        vec!["density-sweep".into()]
    }
    fn check_sets(&self) -> Vec<String> {
        ["density-sweep", "seed", "game"].map(String::from).to_vec()
    }
    fn regime_parameter(&self) -> Option<&'static str> {
        Some("density")
    }
    fn regime(&self, board: &Board) -> f64 {
        f64::from(board.bits().count_ones()) / Board::CELLS as f64
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Board>, String> {
        match set.pattern() {
            "density:P" => match set.get::<f64>(0)? {
                p if p > 0.0 && p < 1.0 => Ok(components::inputs::density(p, seed, n)),
                p => Err(format!("density {p} is outside (0, 1)")),
            },
            "seed" => Ok(components::inputs::seed_set(seed, n)),
            _ => Ok(components::inputs::game(seed, n)),
        }
    }
    fn edge_cases(&self) -> Vec<(String, Board)> {
        components::inputs::edge_cases()
            .into_iter()
            .map(|(label, board)| (label.to_owned(), board))
            .collect()
    }

    fn parse_input(&self, text: &str) -> Result<Board, String> {
        text.parse()
            .map_err(|e: components::ParseBoardError| e.to_string())
    }
    fn format_input(&self, input: &Board) -> String {
        input.to_string()
    }
    fn picture(&self, input: &Board) -> String {
        input.picture()
    }
    fn format_output(&self, output: &components::Components) -> String {
        output.to_string()
    }
    fn same(&self, a: &components::Components, b: &components::Components) -> bool {
        a == b
    }
    fn shrink(&self, input: &Board) -> Vec<Board> {
        components::inputs::shrink(*input).collect()
    }
    #[cfg(feature = "fuzz")]
    fn arbitrary_inputs(
        &self,
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<Vec<Board>> {
        Ok(decode::boards(u))
    }
}

/// The fuzz decoder: a batch of boards from shape generators rather than
/// raw bits alone, because connected-component bugs hide in structure (long
/// snakes, combs, gravity stacks, near-full boards) that uniform random bits
/// almost never draw. A batch of up to [`decode::MAX_BATCH`] boards reaches
/// the SIMD lanes and batch tails.
#[cfg(feature = "fuzz")]
mod decode {
    use crate::fuzz::byte;
    use arbitrary::Unstructured;
    use components::Board;

    /// The most boards in one batch: enough for several full AVX-512
    /// registers (4 boards each) plus a tail.
    pub const MAX_BATCH: usize = 9;

    /// Bytes of a raw 72-bit board.
    const BOARD_BYTES: usize = Board::CELLS / 8;

    /// How one board is drawn: the tag byte modulo this.
    const SHAPES: u8 = 6;
    /// Tag bit: complement the drawn board (sparse shapes become near-full ones).
    const INVERT: u8 = 0x80;

    /// 1 to [`MAX_BATCH`] boards.
    pub fn boards(u: &mut Unstructured<'_>) -> Vec<Board> {
        let n = 1 + usize::from(byte(u)) % MAX_BATCH;
        (0..n).map(|_| board(u)).collect()
    }

    fn raw(u: &mut Unstructured<'_>) -> u128 {
        (0..BOARD_BYTES).fold(0, |bits, i| bits | u128::from(byte(u)) << (8 * i))
    }

    /// A walk of up to 124 steps from a start cell, setting every cell it
    /// visits; a step off the board stays put. Draws snakes, spirals and blobs.
    fn walk(u: &mut Unstructured<'_>) -> u128 {
        let (w, h) = (Board::WIDTH, Board::HEIGHT);
        let mut cell = usize::from(byte(u)) % Board::CELLS;
        let mut bits = 1u128 << cell;
        let steps = usize::from(byte(u) % 32);
        for _ in 0..steps {
            let four = byte(u);
            for k in 0..4 {
                let (r, c) = (cell / w, cell % w);
                cell = match four >> (2 * k) & 3 {
                    0 if r > 0 => cell - w,
                    1 if r + 1 < h => cell + w,
                    2 if c > 0 => cell - 1,
                    3 if c + 1 < w => cell + 1,
                    _ => cell,
                };
                bits |= 1 << cell;
            }
        }
        bits
    }

    /// Columns filled from the bottom to heights 0..=12 (Smash the Code gravity).
    fn gravity(u: &mut Unstructured<'_>) -> u128 {
        let mut bits = 0u128;
        for c in 0..Board::WIDTH {
            let height = usize::from(byte(u)) % (Board::HEIGHT + 1);
            for r in Board::HEIGHT - height..Board::HEIGHT {
                bits |= 1 << (r * Board::WIDTH + c);
            }
        }
        bits
    }

    fn board(u: &mut Unstructured<'_>) -> Board {
        let tag = byte(u);
        let bits = match tag % SHAPES {
            0 => raw(u),
            1 => raw(u) & raw(u),
            2 => raw(u) | raw(u),
            3 => walk(u),
            4 => gravity(u),
            _ => gravity(u) & raw(u),
        } & Board::FULL;
        let bits = if tag & INVERT != 0 {
            bits ^ Board::FULL
        } else {
            bits
        };
        Board::new(bits).expect("masked to the board")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::{expanded, generated};

    #[test]
    fn sweep_names_are_short_and_parse() {
        let names = expanded(&ALL, "density-sweep", false);
        assert_eq!(names.len(), 19);
        assert_eq!(names[0], "density:0.05");
        assert_eq!(names[18], "density:0.95");
        for n in &names {
            assert!(n.len() <= 12, "{n}");
            assert_eq!(generated(&ALL, n, 1, 3).unwrap().len(), 3);
        }
    }

    #[test]
    fn a_boards_regime_is_the_density_its_set_declares() {
        for p in [0.125, 0.5, 0.875] {
            let boards = generated(&ALL, &format!("density:{p}"), 1, 4096).unwrap();
            let mean = boards.iter().map(|b| ALL.regime(b)).sum::<f64>() / boards.len() as f64;
            assert!((mean - p).abs() < 0.01, "density {p}: mean regime {mean}");
        }
        assert_eq!(ALL.regime_parameter(), Some("density"));
        let families = ALL.input_sets();
        assert!(
            crate::sets::parameters(&families, "density:0.5")
                .iter()
                .any(|p| p.name == "density")
        );
    }

    #[test]
    fn bad_set_names_are_errors() {
        assert!(generated(&ALL, "density:1.5", 1, 3).is_err());
        assert!(generated(&ALL, "density:x", 1, 3).is_err());
        assert!(generated(&ALL, "nope", 1, 3).is_err());
    }
}
