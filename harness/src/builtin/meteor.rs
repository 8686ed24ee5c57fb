//! Adapter for `impls/meteor`: count the completions of a Meteor board (the
//! empty board has 2098), reporting the smallest and largest solution and
//! the search nodes each variant visits.
//!
//! An input is the spec's `N` or `N BOARD`; the answer carries its limit and
//! board so that answers found with a limit compare correctly (see
//! [`Answer`]).

use crate::sets::{InputSet, Member};
use crate::workload::{Solve, VariantInfo, Workload};
use meteor::geometry::{CELLS, PIECES, Placement, placements};
use meteor::inputs;
use meteor::{PartialBoard, Puzzle, Solution, Solutions};
use std::sync::LazyLock;

/// The `meteor` workload.
pub struct Meteor;

/// The `meteor` workload.
pub const METEOR: Meteor = Meteor;

/// What a variant found, with the limit and board it was given.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    limit: usize,
    board: PartialBoard,
    found: Solutions,
}

impl Default for Answer {
    fn default() -> Answer {
        Answer {
            limit: 0,
            board: PartialBoard::empty(),
            found: Solutions::default(),
        }
    }
}

static PLACEMENTS: LazyLock<Vec<Placement>> = LazyLock::new(placements);

impl Answer {
    /// Whether the solutions shown are real: none when none were found,
    /// else a smallest no larger than the largest, each a completion of
    /// the board.
    fn shows_completions(&self) -> bool {
        match (self.found.min, self.found.max) {
            (None, None) => self.found.count == 0,
            (Some(min), Some(max)) => {
                min <= max && completes(&self.board, &min) && completes(&self.board, &max)
            }
            _ => false,
        }
    }
}

/// Whether `s` keeps the board's pieces where they are and lays every piece
/// as a valid placement.
fn completes(board: &PartialBoard, s: &Solution) -> bool {
    let kept = (0..CELLS).all(|c| board.get(c).is_none_or(|p| p == s.0[c]));
    let mut masks = [0u64; PIECES];
    for (c, &p) in s.0.iter().enumerate() {
        match masks.get_mut(usize::from(p)) {
            Some(m) => *m |= 1 << c,
            None => return false,
        }
    }
    kept && (0..PIECES as u8).all(|p| {
        PLACEMENTS
            .iter()
            .any(|pl| pl.piece == p && pl.mask() == masks[usize::from(p)])
    })
}

/// `K` of `partial:K` or `scattered:K`, a piece count.
fn pieces(set: &Member) -> Result<usize, String> {
    match set.get(0)? {
        k if k <= PIECES => Ok(k),
        k => Err(format!(
            "{set}: {k} is not a number of pieces (0 to {PIECES})"
        )),
    }
}

/// The board drawn as the Benchmarks Game does, `.` for empty cells.
fn grid(puzzle: &Puzzle) -> String {
    let cells = puzzle.board.to_string();
    let chars: Vec<char> = cells.chars().collect();
    let mut text = format!("limit {}", puzzle.limit);
    for (r, row) in chars.chunks(5).enumerate() {
        text.push('\n');
        if r % 2 == 1 {
            text.push(' ');
        }
        for c in row {
            text.push(*c);
            text.push(' ');
        }
    }
    text
}

impl Workload for Meteor {
    type Input = Puzzle;
    type Output = Answer;

    fn name(&self) -> &'static str {
        "meteor"
    }
    fn description(&self) -> &'static str {
        "Meteor puzzle: the completions of a 10×5 hex board with ten pentominoes (2098 when empty)"
    }
    fn unit(&self) -> &'static str {
        "solutions"
    }

    fn variants(&self) -> Vec<VariantInfo> {
        meteor::variants()
            .iter()
            .map(|v| VariantInfo::new(v.name, v.description, v.features))
            .collect()
    }
    fn default_variant(&self) -> &'static str {
        "endgame"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Puzzle, Answer>>> {
        let v = meteor::variants().into_iter().find(|v| v.name == variant)?;
        let solver = (v.make)()?;
        Some(Box::new(move |p: &Puzzle| Answer {
            limit: p.limit,
            board: p.board,
            found: solver.solve(&p.board, p.limit),
        }))
    }

    fn input_sets(&self) -> Vec<InputSet> {
        vec![
            InputSet::new(
                "full",
                "the empty board, all 2098 solutions (one input; the benchmark)",
            ),
            InputSet::new(
                "partial:K",
                "boards with K pieces (0 to 10) of a random solution, so at least one \
                 completion; all completions wanted",
            ),
            InputSet::new(
                "scattered:K",
                "boards with up to K random non-overlapping pieces, often with no \
                 completion; all completions wanted",
            ),
        ]
    }
    fn bench_sets(&self, quick: bool) -> Vec<String> {
        let sets: &[&str] = if quick {
            &["full", "partial:3"]
        } else {
            &["full", "partial:2", "partial:3", "partial:5"]
        };
        sets.iter().map(|s| s.to_string()).collect()
    }
    fn check_sets(&self) -> Vec<String> {
        [
            "partial:3",
            "partial:5",
            "partial:8",
            "scattered:3",
            "scattered:6",
        ]
        .map(String::from)
        .to_vec()
    }
    fn bench_batch(&self, quick: bool) -> usize {
        // One input is a whole search of up to milliseconds.
        if quick { 8 } else { 32 }
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Puzzle>, String> {
        match set.pattern() {
            "full" => Ok(vec![inputs::full()]),
            "partial:K" => Ok(inputs::partial(pieces(set)?, seed, n)),
            _ => Ok(inputs::scattered(pieces(set)?, seed, n)),
        }
    }
    fn edge_cases(&self) -> Vec<(String, Puzzle)> {
        inputs::edge_cases()
            .into_iter()
            .map(|(label, p)| (label.to_owned(), p))
            .collect()
    }

    fn parse_input(&self, text: &str) -> Result<Puzzle, String> {
        text.parse()
            .map_err(|e: meteor::ParseError| e.problem().to_owned())
    }
    fn format_input(&self, input: &Puzzle) -> String {
        input.to_string()
    }
    fn picture(&self, input: &Puzzle) -> String {
        grid(input)
    }
    fn format_output(&self, output: &Answer) -> String {
        output.found.to_string()
    }
    fn output_formats(&self) -> &'static [&'static str] {
        &["benchmark"]
    }
    fn format_output_as(&self, format: &str, output: &Answer) -> String {
        match format {
            // The CLI ends every output with a newline; the text has its own.
            "benchmark" => {
                let text = output.found.benchmark_text();
                text.strip_suffix('\n').unwrap_or(&text).to_owned()
            }
            _ => self.format_output(output),
        }
    }
    /// Below the limit a search was exhaustive, so count, smallest and
    /// largest must match exactly; at the limit each variant may have found
    /// a different subset: both must have found at least `limit`, and the
    /// smallest and largest each shows must be real completions.
    fn same(&self, a: &Answer, b: &Answer) -> bool {
        let limit = a.limit.min(b.limit);
        if a.found.count < limit || b.found.count < limit {
            a.found.to_string() == b.found.to_string()
        } else {
            a.shows_completions() && b.shows_completions()
        }
    }
    fn elements(&self, _input: &Puzzle, output: &Answer) -> u64 {
        output.found.count as u64
    }
    fn counters(&self, output: &Answer) -> Vec<(&'static str, u64)> {
        vec![("nodes", output.found.nodes)]
    }
    fn shrink(&self, input: &Puzzle) -> Vec<Puzzle> {
        // A smaller limit, or one piece fewer while the oracle stays quick.
        let mut smaller = Vec::new();
        if input.limit > 1 {
            smaller.push(Puzzle {
                limit: input.limit / 2,
                ..*input
            });
        }
        let on_board = input.board.pieces();
        if on_board.len() > 2 {
            for &(skip, _) in &on_board {
                let text: String = input
                    .board
                    .to_string()
                    .chars()
                    .map(|c| {
                        if c.to_digit(10) == Some(u32::from(skip)) {
                            '.'
                        } else {
                            c
                        }
                    })
                    .collect();
                if let Ok(board) = text.parse() {
                    smaller.push(Puzzle { board, ..*input });
                }
            }
        }
        smaller
    }
    #[cfg(feature = "fuzz")]
    fn arbitrary_inputs(
        &self,
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<Vec<Puzzle>> {
        Ok(vec![decode::puzzle(u)])
    }
}

/// The fuzz decoder: a limit and a partial board built from valid,
/// non-overlapping placements.
///
/// The oracle is slow on open boards (seconds for the empty one), so a
/// board has at least [`decode::MIN_PIECES`] pieces, which keeps its
/// exhaustive search to milliseconds, or none at all with a limit of at
/// most [`decode::EMPTY_LIMIT`]: the empty board is the one the `symmetric`
/// variants treat specially. Small limits check that a variant finding
/// several solutions at once still stops correctly.
#[cfg(feature = "fuzz")]
mod decode {
    use super::PLACEMENTS;
    use crate::fuzz::byte;
    use arbitrary::Unstructured;
    use meteor::geometry::{CELLS, PIECES, Placement};
    use meteor::inputs::ALL;
    use meteor::{PartialBoard, Puzzle};

    /// The fewest pieces a non-empty board has. Measured with the oracle on
    /// 200 random boards each: 2 pieces take up to 80 ms, 3 up to 30 ms, 4
    /// under 1 ms.
    pub const MIN_PIECES: usize = 3;

    /// The largest limit asked of the empty board: the naive oracle finds a
    /// solution every 1500 nodes or so there.
    pub const EMPTY_LIMIT: usize = 4;

    /// The limits one byte picks from: the benchmark's (more than any
    /// partial board has) and small ones.
    const LIMITS: [usize; 8] = [ALL, 0, 1, 2, 3, 4, 10, 100];

    pub fn puzzle(u: &mut Unstructured<'_>) -> Puzzle {
        let limit = LIMITS[usize::from(byte(u)) % LIMITS.len()];
        // 0 is the empty board, then MIN_PIECES..=PIECES pieces.
        let pieces = match usize::from(byte(u)) % (PIECES + 2 - MIN_PIECES) {
            0 => 0,
            k => MIN_PIECES - 1 + k,
        };
        let board = board(u, pieces);
        let limit = if board.is_empty() {
            limit.min(EMPTY_LIMIT)
        } else {
            limit
        };
        Puzzle { limit, board }
    }

    /// Places `pieces` pieces, each read as the piece among those not yet
    /// placed (a byte) and the placement among those that fit (two bytes).
    fn board(u: &mut Unstructured<'_>, pieces: usize) -> PartialBoard {
        let mut used = [false; PIECES];
        let mut covered = 0u64;
        let mut text = [b'.'; CELLS];
        for _ in 0..pieces {
            let free: Vec<u8> = (0..PIECES as u8).filter(|&p| !used[p as usize]).collect();
            let piece = free[usize::from(byte(u)) % free.len()];
            let fits: Vec<&Placement> = PLACEMENTS
                .iter()
                .filter(|p| p.piece == piece && p.mask() & covered == 0)
                .collect();
            let pick = usize::from(u16::from_le_bytes([byte(u), byte(u)]));
            let Some(p) = fits.get(pick % fits.len().max(1)) else {
                continue;
            };
            used[piece as usize] = true;
            covered |= p.mask();
            for &c in &p.cells {
                text[c as usize] = b'0' + piece;
            }
        }
        std::str::from_utf8(&text)
            .expect("ASCII")
            .parse()
            .expect("placements of distinct pieces on free cells make a valid board")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limited_answers_compare_by_the_limit() {
        let board = meteor::PartialBoard::empty();
        let solve = |name: &str, limit| {
            let mut out = [Answer::default()];
            METEOR
                .solver(name)
                .expect("available")
                .solve_batch(&[Puzzle { limit, board }], &mut out);
            out[0]
        };
        // symmetric finds a pair at once, naive one: both reached the limit.
        assert!(METEOR.same(&solve("naive", 1), &solve("symmetric", 1)));
        let mut short = solve("islands", 1);
        short.found.count = 0;
        assert!(!METEOR.same(&solve("naive", 1), &short));
        // At the limit the solutions shown must still complete the board.
        let mut made_up = solve("islands", 1);
        made_up.found.min = Some(Solution([0; CELLS]));
        assert!(!METEOR.same(&solve("naive", 1), &made_up));
    }

    #[test]
    fn input_set_names_are_checked() {
        let generated = |name, n| crate::workload::generated(&METEOR, name, 0, n);
        assert_eq!(generated("full", 5).map(|v| v.len()), Ok(1));
        assert_eq!(generated("partial:3", 5).map(|v| v.len()), Ok(5));
        assert!(generated("partial:11", 1).is_err());
        assert!(generated("partial:x", 1).is_err());
        assert!(generated("nope", 1).is_err());
    }
}
