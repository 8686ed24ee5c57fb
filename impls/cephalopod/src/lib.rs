//! Solvers for the 3×3 dice-capture puzzle of the CodinGame Spring Challenge
//! 2025 ("cephalopod"): sum the position hash over every game path of a given
//! depth. The variants range from a plain recursive oracle to an explicit-stack
//! DFS on a 3-bit SWAR board with a symmetric cache and AVX2 helpers, so they
//! can be differentially tested and benchmarked against each other.
//!
//! Rules in brief: a move picks an empty cell; if two or more occupied
//! orthogonal neighbours sum to at most 6, every such subset is a separate
//! capture move (the subset is removed and the cell gets the sum), otherwise
//! the cell gets a 1. A path ends after `depth` moves or when the board is
//! full. The answer is the sum of the final boards' 9-digit hashes mod 2^30.

// docs.rs labels each item with the feature or target it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_op_in_unsafe_fn)]

use std::fmt;
use std::str::FromStr;

pub mod inputs;

#[cfg(target_arch = "x86_64")]
mod avx2;
mod cellsums;
mod dfs;
mod dihedral;
mod lists;
mod moves;
mod packed;
mod swarmoves;
mod table;
#[cfg(target_arch = "x86_64")]
mod vecmoves;
#[cfg(target_arch = "x86_64")]
mod vector;

// Each variant of the registry in its own module, named after the variant:
// `sym` is the symmetric-cache DFS, `simd` the same with AVX2 (the
// symmetries themselves are in `dihedral`).
pub mod bfs;
pub mod front;
pub mod memo;
pub mod naive;
pub mod range;
pub mod simd;
pub mod swar;
pub mod sym;

/// The answer is reduced modulo 2^30, as the contest asks.
pub const ANSWER_MASK: u32 = (1 << 30) - 1;

/// A 3×3 board: cells 0..8 row-major from the top-left, each 0 (empty) or a
/// die showing 1..=6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    cells: [u8; 9],
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { cells: [0; 9] };

    /// Builds a board from its cells, or `None` when a cell is above 6.
    pub fn from_cells(cells: [u8; 9]) -> Option<Board> {
        cells.iter().all(|&c| c <= 6).then_some(Board { cells })
    }

    /// The 9 cells, row-major from the top-left.
    pub fn cells(&self) -> [u8; 9] {
        self.cells
    }

    /// The position hash: the 9 digits read row-major as a decimal number.
    pub fn hash(&self) -> u32 {
        self.cells.iter().fold(0, |h, &c| h * 10 + u32::from(c))
    }

    /// The rank: the sum of the dice. It never decreases along a game.
    pub fn rank(&self) -> u32 {
        self.cells.iter().map(|&c| u32::from(c)).sum()
    }

    /// Whether every cell holds a die (the game is over).
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&c| c != 0)
    }

    /// The board with its cells permuted: cell `i` of the result is cell
    /// `perm[i]` of `self`. `perm` must be a permutation of 0..9.
    pub fn permuted(&self, perm: &[usize; 9]) -> Board {
        Board {
            cells: perm.map(|p| self.cells[p]),
        }
    }
}

impl fmt::Display for Board {
    /// Formats as `ROW/ROW/ROW`, e.g. `060/222/161`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, chunk) in self.cells.chunks(3).enumerate() {
            if row > 0 {
                f.write_str("/")?;
            }
            for &c in chunk {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// Why a textual board or problem could not be parsed. Its `Display` is one
/// line naming the input and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    input: String,
    problem: String,
}

impl ParseError {
    fn new(input: &str, problem: impl Into<String>) -> ParseError {
        ParseError {
            input: input.escape_debug().to_string(),
            problem: problem.into(),
        }
    }
}

impl ParseError {
    /// What is wrong, without the input (for callers that name it
    /// themselves).
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid cephalopod input \"{}\": {}",
            self.input, self.problem
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses one row: exactly three digits 0..=6.
fn parse_row(row: &str) -> Result<[u8; 3], String> {
    let bytes = row.as_bytes();
    if bytes.len() != 3 || !bytes.iter().all(|b| (b'0'..=b'6').contains(b)) {
        return Err(format!(
            "row \"{}\" is not three digits 0-6",
            row.escape_debug()
        ));
    }
    Ok([bytes[0] - b'0', bytes[1] - b'0', bytes[2] - b'0'])
}

fn board_from_rows(rows: &[[u8; 3]]) -> Board {
    let mut cells = [0; 9];
    for (i, row) in rows.iter().enumerate() {
        cells[3 * i..3 * i + 3].copy_from_slice(row);
    }
    Board { cells }
}

impl FromStr for Board {
    type Err = ParseError;

    /// Parses `ROW/ROW/ROW`, e.g. `060/222/161`.
    fn from_str(s: &str) -> Result<Board, ParseError> {
        let text = s.trim();
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != 3 {
            return Err(ParseError::new(
                s,
                format!("expected 3 rows separated by '/', found {}", rows.len()),
            ));
        }
        let rows = rows
            .iter()
            .map(|r| parse_row(r))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ParseError::new(s, e))?;
        Ok(board_from_rows(&rows))
    }
}

/// One puzzle instance: a starting board and the number of moves to play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Problem {
    /// The maximum number of moves of a path.
    pub depth: u32,
    /// The starting board.
    pub board: Board,
}

fn parse_depth(input: &str, text: &str) -> Result<u32, ParseError> {
    let text = text.trim();
    if text.starts_with('-') && text[1..].parse::<u64>().is_ok() {
        return Err(ParseError::new(input, format!("depth {text} is negative")));
    }
    text.parse::<u32>().map_err(|_| {
        ParseError::new(
            input,
            format!(
                "depth \"{}\" is not a non-negative integer",
                text.escape_debug()
            ),
        )
    })
}

impl Problem {
    /// Parses the contest's stdin format: the depth on the first line, then 3
    /// lines of 3 space-separated values 0..=6.
    pub fn parse_contest(s: &str) -> Result<Problem, ParseError> {
        let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() != 4 {
            return Err(ParseError::new(
                s,
                format!(
                    "expected a depth line and 3 board rows, found {} non-empty lines",
                    lines.len()
                ),
            ));
        }
        let depth = parse_depth(s, lines[0])?;
        let rows = lines[1..]
            .iter()
            .map(|line| parse_row(&line.split_whitespace().collect::<String>()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ParseError::new(s, e))?;
        Ok(Problem {
            depth,
            board: board_from_rows(&rows),
        })
    }
}

impl FromStr for Problem {
    type Err = ParseError;

    /// Parses `DEPTH ROW/ROW/ROW`, e.g. `20 060/222/161`.
    fn from_str(s: &str) -> Result<Problem, ParseError> {
        let mut parts = s.split_whitespace();
        let (Some(depth), Some(board), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ParseError::new(
                s,
                "expected \"DEPTH ROW/ROW/ROW\", e.g. \"20 060/222/161\"",
            ));
        };
        let depth = parse_depth(s, depth)?;
        let board = board
            .parse::<Board>()
            .map_err(|e| ParseError::new(s, e.problem))?;
        Ok(Problem { depth, board })
    }
}

impl fmt::Display for Problem {
    /// Formats as `DEPTH ROW/ROW/ROW`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.depth, self.board)
    }
}

/// The kernel: the sum of the position hashes of the final boards of every
/// path of at most `depth` moves from `board`, modulo 2^30.
///
/// Every call starts cold: no cache or other state survives between calls, so
/// timings measure one whole solve.
pub trait Solver: Send + Sync {
    /// Solves one problem.
    fn solve(&self, depth: u32, board: Board) -> u32;
}

/// One registered implementation.
pub struct Variant {
    /// Short name, e.g. `sym`.
    pub name: &'static str,
    /// One-line description of the algorithm.
    pub description: &'static str,
    /// CPU features it needs (empty for portable code).
    pub features: &'static [&'static str],
    /// Builds the solver, or `None` when this CPU lacks `features`.
    pub make: fn() -> Option<Box<dyn Solver>>,
}

/// Every implementation, the oracle (`naive`) first, then roughly slowest to
/// fastest.
pub fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "naive",
            description: "[u8; 9] board, recursive DFS over every path, no cache (the oracle)",
            features: &[],
            make: || Some(Box::new(naive::Naive)),
        },
        Variant {
            name: "memo",
            description: "recursive DFS, std HashMap (board, remaining depth) -> hash sum",
            features: &[],
            make: || Some(Box::new(memo::Memo)),
        },
        Variant {
            name: "bfs",
            description: "one depth at a time, board -> path count mod 2^32, duplicates merged",
            features: &[],
            make: || Some(Box::new(bfs::Bfs)),
        },
        Variant {
            name: "swar",
            description: "3-bit SWAR board in a u32, SWAR move generation, explicit stack, open-addressing cache",
            features: &[],
            make: || Some(Box::new(swar::Swar)),
        },
        Variant {
            name: "sym",
            description: "swar + canonical form under the 8 symmetries, cached per-cell digit sums",
            features: &[],
            make: || Some(Box::new(sym::Sym)),
        },
        Variant {
            name: "range",
            description: "sym expanding each board once for a range of depths (values are vectors over depth)",
            features: &[],
            make: || Some(Box::new(range::Range)),
        },
        Variant {
            name: "simd",
            description: "sym with AVX2 canonicalisation and digit-sum permutation",
            features: simd::FEATURES,
            make: simd::make,
        },
        Variant {
            name: "simd-range",
            description: "range with the AVX2 canonicalisation and digit-sum permutation of simd",
            features: simd::FEATURES,
            make: simd::make_range,
        },
        Variant {
            name: "front",
            description: "forward path counts swept by (dice sum, count): each board once with a lane per depth (one lane when no path is likely to reach the depth), symmetric boards merged (counts per orientation unless the start has all 8 symmetries); tiny trees walked path by path",
            features: &[],
            make: || Some(Box::new(front::Front)),
        },
    ]
}

/// The number of paths of at most `depth` moves from `board` (the number of
/// leaves the `naive` oracle visits), or `None` when it exceeds `limit`.
///
/// It counts paths one depth at a time over distinct boards, stopping as soon
/// as the count passes `limit`, so it stays cheap whenever the answer is small
/// enough to matter for a cost model.
pub fn path_count(depth: u32, board: Board, limit: u64) -> Option<u64> {
    bfs::path_count(depth, board, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_round_trip() {
        let b: Board = "060/222/161".parse().unwrap();
        assert_eq!(b.cells(), [0, 6, 0, 2, 2, 2, 1, 6, 1]);
        assert_eq!(b.to_string(), "060/222/161");
        assert_eq!(b.hash(), 60_222_161);
        assert_eq!(b.rank(), 20);
        assert!(!b.is_full());
    }

    #[test]
    fn problem_round_trip() {
        let p: Problem = "20 060/222/161".parse().unwrap();
        assert_eq!(p.depth, 20);
        assert_eq!(p.to_string(), "20 060/222/161");
    }

    #[test]
    fn contest_format() {
        let p = Problem::parse_contest("20\n0 6 0\n2 2 2\n1 6 1\n").unwrap();
        assert_eq!(p, "20 060/222/161".parse().unwrap());
        let p = Problem::parse_contest("1\r\n5 5 5\r\n0 0 5\r\n5 5 5").unwrap();
        assert_eq!(p, "1 555/005/555".parse().unwrap());
    }

    #[test]
    fn bad_inputs_name_the_problem() {
        let cases = [
            ("x 060/222/161", "not a non-negative integer"),
            ("-3 060/222/161", "negative"),
            ("20 060/222", "expected 3 rows"),
            ("20 060/222/161/000", "expected 3 rows"),
            ("20 070/222/161", "not three digits 0-6"),
            ("20 06/222/161", "not three digits 0-6"),
            ("20", "expected \"DEPTH ROW/ROW/ROW\""),
            ("20 000/000/000 extra", "expected \"DEPTH ROW/ROW/ROW\""),
        ];
        for (input, want) in cases {
            let err = input.parse::<Problem>().unwrap_err().to_string();
            assert!(err.contains(want), "{input}: {err}");
            assert!(err.contains(input), "{input}: {err}");
            assert!(!err.contains('\n'), "{input}: {err}");
        }
        for (input, want) in [
            ("20\n0 6 0\n2 2 2\n", "found 3 non-empty lines"),
            ("20\n0 6 0\n2 7 2\n1 6 1\n", "not three digits"),
            ("-1\n0 6 0\n2 2 2\n1 6 1\n", "negative"),
            ("2 0\n0 6 0\n2 2 2\n1 6 1\n", "not a non-negative integer"),
        ] {
            let err = Problem::parse_contest(input).unwrap_err().to_string();
            assert!(err.contains(want), "{input:?}: {err}");
            assert!(!err.contains('\n'), "{input:?}: {err}");
        }
    }

    #[test]
    fn from_cells_rejects_bad_dice() {
        assert!(Board::from_cells([7, 0, 0, 0, 0, 0, 0, 0, 0]).is_none());
        assert_eq!(Board::from_cells([0; 9]), Some(Board::EMPTY));
    }

    #[test]
    fn registry_has_oracle_first_and_unique_names() {
        let vs = variants();
        assert_eq!(vs[0].name, "naive");
        let mut names: Vec<_> = vs.iter().map(|v| v.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), vs.len());
        for v in &vs {
            if v.features.is_empty() {
                assert!((v.make)().is_some(), "{} must be available", v.name);
            }
        }
    }
}
