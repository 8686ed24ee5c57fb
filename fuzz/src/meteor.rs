//! The `meteor` target: a partial board built from valid, non-overlapping
//! placements and a solution limit, every solver against the `naive` oracle.
//!
//! The oracle is slow on open boards (seconds for the empty one), so a case
//! places at least [`MIN_PIECES`] pieces, which keeps its exhaustive search to
//! milliseconds — or none at all, with a limit of at most [`EMPTY_LIMIT`]: the
//! empty board is the one the `symmetric` variants treat specially, and the
//! spec gives its completions (2098, and the extremes), so no exhaustive
//! search is needed. With a limit the oracle's answer is not unique (see
//! [`meteor::Solver`]): the check then holds every variant to the contract
//! instead — `limit <= count <= completions`, and `min`/`max` real
//! completions of the board within the true extremes.

use crate::{Built, Mismatch, build_all, byte, word};
use ::meteor::geometry::{CELLS, PIECES, Placement, placements};
use ::meteor::inputs::ALL;
use ::meteor::{PartialBoard, Puzzle, Solution, Solutions, Solver};
use arbitrary::{Arbitrary, Unstructured};
use std::fmt;
use std::sync::LazyLock;

/// The fewest pieces a case places. Measured with the oracle on 200 random
/// boards each: 2 pieces take up to 80 ms, 3 up to 30 ms, 4 under 1 ms.
pub const MIN_PIECES: usize = 3;

/// The largest limit a case on the empty board asks for: the naive oracle
/// finds a solution every 1500 nodes or so there.
pub const EMPTY_LIMIT: usize = 4;

/// The spec's smallest and largest solutions of the empty board.
const SMALLEST: &str = "00001222012661126155865558633348893448934747977799";
const LARGEST: &str = "99998966856688568255777257472014220144031400311333";

/// The limits a case can ask for, picked by one byte: the benchmark's (more
/// than any partial board has) and the small ones where a variant that finds
/// several solutions at once must still stop correctly.
const LIMITS: [usize; 8] = [ALL, 0, 1, 2, 3, 4, 10, 100];

static PLACEMENTS: LazyLock<Vec<Placement>> = LazyLock::new(placements);

static VARIANTS: LazyLock<Vec<Built<dyn Solver>>> =
    LazyLock::new(|| build_all(::meteor::variants(), |v| (v.name, (v.make)())));

/// A meteor `solve` input: a limit and a board of valid placements.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// The input.
    pub puzzle: Puzzle,
}

/// Which pieces to place, in order, as indices the decoder understands: the
/// piece among those not yet placed, and the placement among those that fit.
fn decode_board(u: &mut Unstructured<'_>, pieces: usize) -> PartialBoard {
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
        let pick = usize::from(word(u));
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

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        let limit = LIMITS[usize::from(byte(u)) % LIMITS.len()];
        // 0 is the empty board, then MIN_PIECES..=PIECES pieces.
        let pieces = match usize::from(byte(u)) % (PIECES + 2 - MIN_PIECES) {
            0 => 0,
            k => MIN_PIECES - 1 + k,
        };
        let board = decode_board(u, pieces);
        let limit = if board.is_empty() {
            limit.min(EMPTY_LIMIT)
        } else {
            limit
        };
        Ok(Case {
            puzzle: Puzzle { limit, board },
        })
    }
}

impl Case {
    /// The bytes that decode to this case, or `None` when it has some but
    /// fewer than [`MIN_PIECES`] pieces or a limit the decoder cannot pick.
    pub fn encode(&self) -> Option<Vec<u8>> {
        let limit = LIMITS.iter().position(|&l| l == self.puzzle.limit)?;
        let pieces = self.puzzle.board.pieces();
        let count = match pieces.len() {
            0 if self.puzzle.limit <= EMPTY_LIMIT => 0,
            n if n >= MIN_PIECES => n + 1 - MIN_PIECES,
            _ => return None,
        };
        let mut out = vec![limit as u8, count as u8];
        let mut used = [false; PIECES];
        let mut covered = 0u64;
        for (piece, mask) in pieces {
            let free = (0..piece).filter(|&p| !used[p as usize]).count();
            let pick = PLACEMENTS
                .iter()
                .filter(|p| p.piece == piece && p.mask() & covered == 0)
                .position(|p| p.mask() == mask)?;
            out.push(free as u8);
            out.extend_from_slice(&(pick as u16).to_le_bytes());
            used[piece as usize] = true;
            covered |= mask;
        }
        Some(out)
    }

    /// Runs every solver; panics when one breaks the contract or disagrees
    /// with the oracle.
    pub fn check(&self) {
        let Puzzle { limit, board } = self.puzzle;
        let (oracle, _) = VARIANTS.split_first().expect("a registry has its oracle");
        let all = if board.is_empty() {
            let parse = |s: &str| s.parse::<Solution>().expect("the spec's solutions parse");
            Solutions {
                count: ALL,
                min: Some(parse(SMALLEST)),
                max: Some(parse(LARGEST)),
                nodes: 0,
            }
        } else {
            oracle.imp.solve(&board, usize::MAX)
        };
        for v in VARIANTS.iter() {
            let got = v.imp.solve(&board, limit);
            if let Some(broken) = contract(&board, limit, &all, &got) {
                let expected = if all.count < limit {
                    all.to_string()
                } else {
                    format!(
                        "{broken} (limit {limit}; the board has {} completions, {} to {})",
                        all.count,
                        show(all.min),
                        show(all.max)
                    )
                };
                Mismatch {
                    workload: "meteor",
                    oracle: oracle.name,
                    variant: v.name,
                    input: self.puzzle.to_string(),
                    expected,
                    got: got.to_string(),
                    context: String::new(),
                }
                .fail();
            }
        }
    }
}

fn show(s: Option<Solution>) -> String {
    s.map_or_else(|| "-".to_owned(), |s| s.to_string())
}

/// What is wrong with `got` for a search of `board` with `limit`, given every
/// completion's count and extremes in `all`; `None` when nothing is.
fn contract(
    board: &PartialBoard,
    limit: usize,
    all: &Solutions,
    got: &Solutions,
) -> Option<String> {
    if all.count < limit {
        let same = (got.count, got.min, got.max) == (all.count, all.min, all.max);
        return (!same).then(|| "the exhaustive answer".to_owned());
    }
    if got.count < limit || got.count > all.count {
        return Some(format!("a count from {limit} to {}", all.count));
    }
    if got.count == 0 {
        return (got.min.is_some() || got.max.is_some())
            .then(|| "no solutions shown when none were found".to_owned());
    }
    let (Some(min), Some(max)) = (got.min, got.max) else {
        return Some("a min and a max once solutions were found".to_owned());
    };
    if !(min <= max && all.min <= Some(min) && Some(max) <= all.max) {
        return Some("min <= max, within the true extremes".to_owned());
    }
    [min, max]
        .iter()
        .find(|s| !completes(board, s))
        .map(|s| format!("{s} is not a completion of the board"))
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

/// The reproduction: the `bitbench solve` command for the oracle.
impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bitbench solve meteor {}",
            crate::shell_quote(&self.puzzle.to_string())
        )
    }
}

/// Seeds: the crate's edge cases the decoder can express, and partial boards
/// from random solutions with every number of pieces at several limits.
pub fn seeds() -> Vec<(String, Case)> {
    let mut out: Vec<(String, Case)> = ::meteor::inputs::edge_cases()
        .into_iter()
        .map(|(label, puzzle)| (label.to_owned(), Case { puzzle }))
        .collect();
    for k in MIN_PIECES..=PIECES {
        for (i, &limit) in [ALL, 1, 2].iter().enumerate() {
            let board = ::meteor::inputs::partial(k, (k * 3 + i) as u64, 1)[0].board;
            out.push((
                format!("partial-{k}-limit-{limit}"),
                Case {
                    puzzle: Puzzle { limit, board },
                },
            ));
        }
    }
    out.retain(|(_, c)| c.encode().is_some());
    out
}
