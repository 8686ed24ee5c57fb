//! Deterministic problem sets: the 12 official tests (problems only — their
//! expected answers live in the tests), the empty board at any depth, and
//! seeded samples of boards of a given rank (dice sum) for the rank-by-depth
//! sweep.

use crate::{Board, Problem};

/// The contest's 12 official tests, in order.
pub fn official() -> Vec<Problem> {
    [
        "20 060/222/161",
        "20 506/450/064",
        "1 555/005/555",
        "1 616/101/616",
        "8 606/000/615",
        "24 300/362/102",
        "36 604/202/400",
        "32 000/054/105",
        "40 004/024/134",
        "40 054/030/030",
        "20 051/000/401",
        "20 100/352/100",
    ]
    .iter()
    .map(|s| s.parse().expect("official tests parse"))
    .collect()
}

/// The empty board at `depth`.
pub fn empty(depth: u32) -> Problem {
    Problem {
        depth,
        board: Board::EMPTY,
    }
}

/// Boundary problems: no moves, a full board, one move, a depth far beyond
/// any game, a lone centre capture.
pub fn edge_cases() -> Vec<(&'static str, Problem)> {
    [
        ("depth 0", "0 123/456/012"),
        ("full board", "30 123/456/123"),
        ("one move from empty", "1 000/000/000"),
        ("last cell, no capture", "5 666/666/660"),
        ("depth beyond any game", "4294967295 666/606/666"),
        ("every centre capture", "2 010/101/010"),
        ("corner captures", "3 101/000/101"),
    ]
    .iter()
    .map(|&(name, s)| (name, s.parse().expect("edge cases parse")))
    .collect()
}

/// splitmix64: a tiny, well-mixed generator, so inputs need no rand crate.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny modulo bias does not matter
    /// for test inputs.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A random board whose dice sum to `rank` (at most 54). It is not full
/// unless it has to be (rank above 48): a full board is a trivial problem.
pub fn random_board_of_rank(rng: &mut SplitMix64, rank: u32) -> Board {
    assert!(rank <= 54, "rank {rank} is above 54 (nine sixes)");
    let max_dice = if rank <= 48 { rank.min(8) } else { 9 };
    let min_dice = rank.div_ceil(6);
    let dice = min_dice + rng.below(u64::from(max_dice - min_dice + 1)) as u32;
    // Choose `dice` distinct cells (a partial Fisher-Yates shuffle).
    let mut order: [usize; 9] = std::array::from_fn(|i| i);
    for i in 0..dice as usize {
        let j = i + rng.below(9 - i as u64) as usize;
        order.swap(i, j);
    }
    let mut cells = [0u8; 9];
    for &cell in &order[..dice as usize] {
        cells[cell] = 1;
    }
    // Hand out the rest of the rank one pip at a time to dice below 6.
    for _ in dice..rank {
        loop {
            let cell = order[rng.below(u64::from(dice)) as usize];
            if cells[cell] < 6 {
                cells[cell] += 1;
                break;
            }
        }
    }
    Board::from_cells(cells).expect("dice stay within 1..=6")
}

/// `n` seeded random boards of rank `rank`, each solved at `depth`: one cell
/// of the rank-by-depth sweep. The same arguments give the same problems.
pub fn rank(rank: u32, depth: u32, seed: u64, n: usize) -> Vec<Problem> {
    // Mix rank and depth into the seed so cells of the sweep differ.
    let mut rng = SplitMix64::new(seed ^ u64::from(rank) << 32 ^ u64::from(depth) << 48);
    (0..n)
        .map(|_| Problem {
            depth,
            board: random_board_of_rank(&mut rng, rank),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_boards_have_the_rank_and_repeat() {
        for r in 0..=54 {
            let a = rank(r, 10, 42, 20);
            assert_eq!(a, rank(r, 10, 42, 20));
            for p in &a {
                assert_eq!(p.board.rank(), r, "{}", p.board);
                assert_eq!(p.board.is_full(), r > 48, "{}", p.board);
                assert_eq!(p.depth, 10);
            }
        }
        assert_ne!(rank(10, 10, 1, 5), rank(10, 10, 2, 5));
        assert_ne!(
            rank(10, 10, 1, 5),
            rank(10, 11, 1, 5)
                .iter()
                .map(|p| Problem { depth: 10, ..*p })
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn official_has_twelve() {
        assert_eq!(official().len(), 12);
        assert_eq!(empty(7).to_string(), "7 000/000/000");
        assert!(!edge_cases().is_empty());
    }
}
