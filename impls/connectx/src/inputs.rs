//! Deterministic inputs: positions from seeded random play, perft queries,
//! and hand-picked edge cases.
//!
//! Everything is a pure function of its arguments and a `u64` seed (a
//! self-contained splitmix64 generator), so an input set named on the
//! command line means the same positions on every machine.

use crate::{Config, MoveError, PerftInput, Position};

/// The configurations the input sets use, the default (7×6 K=4) first.
pub fn configs() -> Vec<Config> {
    ["7x6k4", "5x4k3", "8x7k5", "9x6k4", "10x10k5"]
        .into_iter()
        .map(|s| s.parse().expect("valid built-in configuration"))
        .collect()
}

/// splitmix64: tiny, fast, and good enough to pick columns.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; the bias is negligible for n <= 64).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// Plays uniformly random legal moves from the empty board for up to
/// `plies` plies, stopping early when the game ends. Returns the moves
/// (0-based columns); the final position may be terminal.
fn random_moves(config: Config, plies: usize, rng: &mut SplitMix64) -> (Position, Vec<usize>) {
    let mut position = Position::empty(config);
    let mut moves = Vec::with_capacity(plies);
    while moves.len() < plies && !position.is_over() {
        let legal = position.legal_moves();
        let column = legal[rng.below(legal.len())];
        position = position.play(column).expect("a legal move");
        moves.push(column);
    }
    (position, moves)
}

/// One random game of up to `plies` plies: the moves played, 0-based.
pub fn random_game(config: Config, plies: usize, seed: u64) -> Vec<usize> {
    random_moves(config, plies, &mut SplitMix64(seed)).1
}

/// `n` positions, each reached by uniformly random legal play for `plies`
/// plies or until its game ended (so some may be won or drawn).
pub fn random(config: Config, plies: usize, seed: u64, n: usize) -> Vec<Position> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| random_moves(config, plies, &mut rng).0)
        .collect()
}

/// perft from the empty board of `config`.
pub fn perft_from_empty(config: Config, depth: u32) -> PerftInput {
    PerftInput {
        position: Position::empty(config),
        depth,
    }
}

/// `n` perft queries of `depth` from random positions after `plies` plies;
/// finished games are skipped (their perft is 0 for any depth above 0).
pub fn perft_random(
    config: Config,
    plies: usize,
    depth: u32,
    seed: u64,
    n: usize,
) -> Vec<PerftInput> {
    let mut rng = SplitMix64(seed);
    std::iter::repeat_with(|| random_moves(config, plies, &mut rng).0)
        .filter(|position| !position.is_over())
        .take(n)
        .map(|position| PerftInput { position, depth })
        .collect()
}

/// The first seeded random game that fills the board without a winner.
fn first_draw(config: Config) -> Position {
    let mut rng = SplitMix64(0);
    loop {
        let (position, _) = random_moves(config, config.cells(), &mut rng);
        if position.play(0) == Err(MoveError::GameOver(0)) {
            return position;
        }
    }
}

/// Named edge cases: empty boards, wins in each direction for either
/// player, full boards, K = 1, and boards at the 64- and 128-bit limits.
pub fn edge_cases() -> Vec<(&'static str, Position)> {
    let cases = [
        ("empty 7x6", "7x6k4:"),
        ("vertical win, player 1", "7x6k4:1212121"),
        ("vertical win, player 2", "7x6k4:12121232"),
        ("horizontal win, player 1", "7x6k4:1122334"),
        ("rising diagonal win, player 1", "7x6k4:12234334544"),
        ("falling diagonal win, player 1", "7x6k4:76654554344"),
        ("three in a row, nobody has four", "7x6k4:112233"),
        ("k = 1: the first stone wins", "3x3k1:2"),
        ("single column, full, drawn", "1x5k3:11111"),
        ("kaggle 5x4k3 vertical win", "5x4k3:23232"),
        ("64-bit board, full last column", "8x7k5:8888888"),
        (
            "128-bit board, full last column",
            "8x15k5:8,8,8,8,8,8,8,8,8,8,8,8,8,8,8",
        ),
        ("64x1 row, horizontal win", "64x1k4:1,10,2,11,3,12,4"),
        (
            "10x10 vertical win in the high half",
            "10x10k5:10,1,10,1,10,1,10,1,10",
        ),
    ];
    let mut out: Vec<(&'static str, Position)> = cases
        .into_iter()
        .map(|(name, text)| (name, text.parse().expect("valid built-in edge case")))
        .collect();
    out.push(("7x6 full board, draw", first_draw(Config::STANDARD)));
    out.push((
        "5x4k3 full board, draw",
        first_draw("5x4k3".parse().expect("valid")),
    ));
    out
}
