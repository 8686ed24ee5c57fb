//! The `cephalopod` target: a board and a depth within the oracle's cost
//! bound, every solver against the `naive` oracle.
//!
//! The oracle walks every path, so a case's depth is cut to the deepest one
//! whose path count stays under [`MAX_PATHS`] (the crate's own
//! [`cephalopod::path_count`] measures it). Half of each cell's byte values
//! mean "empty", so boards have room to play; depths past any game (up to
//! `u32::MAX`) are kept whenever the whole game tree fits the bound.

use crate::{Built, Mismatch, build_all, byte};
use ::cephalopod::{Board, Problem, Solver, path_count};
use arbitrary::{Arbitrary, Unstructured};
use std::fmt;
use std::sync::LazyLock;

/// The most paths a case may have. The oracle visits each: about 20 ns a
/// path in a release build, ten times that under the fuzzer's comparison
/// tracing, so a case stays around a few milliseconds.
pub const MAX_PATHS: u64 = 10_000;

/// The most moves a game can have (from the empty board).
const LONGEST_GAME: u32 = 61;
/// Depth bytes below this are depths 0..=69, past the longest game (61).
const HUGE: u8 = 128;
/// Cell bytes below this are empty cells.
const EMPTY_BELOW: u8 = 128;
/// The byte of die `d` is `DIE_BASE + d - 1`: `1 + byte % 6 == d` and it is
/// not below [`EMPTY_BELOW`].
const DIE_BASE: u8 = 132;

static VARIANTS: LazyLock<Vec<Built<dyn Solver>>> =
    LazyLock::new(|| build_all(::cephalopod::variants(), |v| (v.name, (v.make)())));

/// A cephalopod `solve` input within the oracle's cost bound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// The input.
    pub problem: Problem,
}

/// The deepest depth up to `depth` whose path count is at most [`MAX_PATHS`].
/// Path counts never fall as the depth grows (every unfinished board has a
/// move), so a binary search finds it.
fn bounded_depth(depth: u32, board: Board) -> u32 {
    let fits = |d: u32| path_count(d, board, MAX_PATHS).is_some();
    if fits(depth) {
        return depth;
    }
    // fits(lo) holds (depth 0 has one path) and fits(hi) does not; every
    // game ends within 61 moves, so deeper depths all fit or fail alike.
    let (mut lo, mut hi) = (0, depth.min(LONGEST_GAME + 1));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        let d = byte(u);
        let depth = if d < HUGE {
            u32::from(d % 70)
        } else {
            u32::MAX - u32::from(d - HUGE)
        };
        let cells = std::array::from_fn(|_| match byte(u) {
            b if b < EMPTY_BELOW => 0,
            b => 1 + b % 6,
        });
        let board = Board::from_cells(cells).expect("dice are 0..=6");
        Ok(Case {
            problem: Problem {
                depth: bounded_depth(depth, board),
                board,
            },
        })
    }
}

impl Case {
    /// The bytes that decode to this case, or `None` when its depth is one
    /// the decoder cannot pick or beyond the cost bound.
    pub fn encode(&self) -> Option<Vec<u8>> {
        let Problem { depth, board } = self.problem;
        let d = match depth {
            0..70 => depth as u8,
            _ if depth >= u32::MAX - u32::from(u8::MAX - HUGE) => HUGE + (u32::MAX - depth) as u8,
            _ => return None,
        };
        if bounded_depth(depth, board) != depth {
            return None;
        }
        let mut out = vec![d];
        out.extend(
            board
                .cells()
                .map(|c| if c == 0 { 0 } else { DIE_BASE + c - 1 }),
        );
        Some(out)
    }

    /// Runs every solver; panics on the first answer that differs from the
    /// oracle's.
    pub fn check(&self) {
        let Problem { depth, board } = self.problem;
        let (oracle, rest) = VARIANTS.split_first().expect("a registry has its oracle");
        let expected = oracle.imp.solve(depth, board);
        for v in rest {
            let got = v.imp.solve(depth, board);
            if got != expected {
                Mismatch {
                    workload: "cephalopod",
                    oracle: oracle.name,
                    variant: v.name,
                    input: self.problem.to_string(),
                    expected: expected.to_string(),
                    got: got.to_string(),
                    context: String::new(),
                }
                .fail();
            }
        }
    }
}

/// The reproduction: the `bitbench solve` command.
impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bitbench solve cephalopod {}",
            crate::shell_quote(&self.problem.to_string())
        )
    }
}

/// Seeds: the crate's edge cases and the spec's official tests and small
/// cases, each at its own depth or, past the cost bound, the deepest that fits.
pub fn seeds() -> Vec<(String, Case)> {
    let mut problems: Vec<(String, Problem)> = ::cephalopod::inputs::edge_cases()
        .into_iter()
        .map(|(label, p)| (label.to_owned(), p))
        .collect();
    problems.extend(
        ::cephalopod::inputs::official()
            .into_iter()
            .enumerate()
            .map(|(i, p)| (format!("official-{}", i + 1), p)),
    );
    for (i, text) in [
        "1 000/000/000",
        "1 666/666/660",
        "1 666/666/101",
        "1 666/656/101",
    ]
    .iter()
    .enumerate()
    {
        problems.push((
            format!("small-{}", i + 1),
            text.parse().expect("spec's small cases parse"),
        ));
    }
    problems
        .into_iter()
        .map(|(label, Problem { depth, board })| {
            let problem = Problem {
                depth: bounded_depth(depth, board),
                board,
            };
            (label, Case { problem })
        })
        .filter(|(_, c)| c.encode().is_some())
        .collect()
}
