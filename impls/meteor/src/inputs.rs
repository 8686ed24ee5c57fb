//! Deterministic inputs from a `u64` seed: the full puzzle, partial boards
//! that keep at least one completion (pieces taken from a random solution),
//! scattered boards that may have none, and named edge cases.

use crate::board::{PartialBoard, Puzzle};
use crate::geometry::{CELL_MASK, PIECES, Placement, placements};
use crate::islands::table;
use crate::search::{Table, children};

pub use crate::rng::Rng;

/// The number of solutions of the empty board, the benchmark's limit.
pub const ALL: usize = 2098;

/// The benchmark: every solution of the empty board.
pub fn full() -> Puzzle {
    Puzzle {
        limit: ALL,
        board: PartialBoard::empty(),
    }
}

/// `n` boards, each with `k` pieces (at most 10) of one random solution, so
/// every board has at least one completion; the limit is [`ALL`], more than
/// any board has, so the search is exhaustive.
pub fn partial(k: usize, seed: u64, n: usize) -> Vec<Puzzle> {
    let mut rng = Rng::new(seed);
    let table = table(|_| true);
    (0..n)
        .map(|_| {
            let solution = random_solution(&table, &mut rng);
            let mut pieces: Vec<(u8, Vec<u8>)> = (0..PIECES as u8)
                .map(|p| (p, (0..50).filter(|&c| solution[c as usize] == p).collect()))
                .collect();
            rng.shuffle(&mut pieces);
            let mut board = PartialBoard::empty();
            for (p, cells) in pieces.iter().take(k) {
                board.place(*p, cells);
            }
            Puzzle { limit: ALL, board }
        })
        .collect()
}

/// `n` boards with up to `k` random placements of random pieces that do not
/// overlap (fewer pieces when no placement has room left); they may have no
/// completion at all. The limit is [`ALL`].
pub fn scattered(k: usize, seed: u64, n: usize) -> Vec<Puzzle> {
    let mut rng = Rng::new(seed);
    let all = placements();
    (0..n)
        .map(|_| Puzzle {
            limit: ALL,
            board: scatter(k, &all, &mut rng),
        })
        .collect()
}

fn scatter(k: usize, all: &[Placement], rng: &mut Rng) -> PartialBoard {
    let mut board = PartialBoard::empty();
    let mut covered = 0u64;
    let mut used = [false; PIECES];
    for _ in 0..k.min(PIECES) {
        let fits: Vec<&Placement> = all
            .iter()
            .filter(|p| !used[p.piece as usize] && p.mask() & covered == 0)
            .collect();
        if fits.is_empty() {
            break;
        }
        let p = fits[rng.below(fits.len())];
        board.place(p.piece, &p.cells);
        covered |= p.mask();
        used[p.piece as usize] = true;
    }
    board
}

/// A random solution: depth-first search with the children shuffled.
fn random_solution<T: Table>(table: &T, rng: &mut Rng) -> [u8; 50] {
    fn go<T: Table>(table: &T, rng: &mut Rng, board: u64, placed: &mut Vec<u64>) -> bool {
        if board & CELL_MASK == CELL_MASK {
            return true;
        }
        let mut next = children(table, board);
        rng.shuffle(&mut next);
        for m in next {
            placed.push(m);
            if go(table, rng, board | m, placed) {
                return true;
            }
            placed.pop();
        }
        false
    }
    let mut placed = Vec::new();
    // The empty board has solutions, so the search always finds one.
    go(table, rng, 0, &mut placed);
    crate::search::solution_of(&placed).0
}

/// Named inputs at the edges: no search, one solution wanted, a board already
/// solved, one piece missing, and a board whose corner cell is cut off.
pub fn edge_cases() -> Vec<(&'static str, Puzzle)> {
    let solved = partial(PIECES, 1, 1)[0].board;
    let one_missing = partial(PIECES - 1, 2, 1)[0].board;
    let mut corner = PartialBoard::empty();
    // Cell 0 has two neighbours, 1 and 5: a piece on both isolates it.
    if let Some(p) = placements()
        .iter()
        .find(|p| p.mask() & 0b100011 == 0b100010)
    {
        corner.place(p.piece, &p.cells);
    }
    vec![
        (
            "limit-0",
            Puzzle {
                limit: 0,
                board: PartialBoard::empty(),
            },
        ),
        (
            "limit-1",
            Puzzle {
                limit: 1,
                board: PartialBoard::empty(),
            },
        ),
        (
            "solved",
            Puzzle {
                limit: ALL,
                board: solved,
            },
        ),
        (
            "one-missing",
            Puzzle {
                limit: ALL,
                board: one_missing,
            },
        ),
        (
            "corner-cut-off",
            Puzzle {
                limit: ALL,
                board: corner,
            },
        ),
    ]
}
