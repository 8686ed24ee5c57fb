//! The `connectx` and `connectx-perft` targets: a configuration and a legal
//! move sequence, every win detector against `kaggle-list` and every perft
//! counter against `list`.
//!
//! Configurations are either the input sets' standard ones or any `W×H kK`
//! with `W*(H+1) <= 128` and `1 <= K <= max(W, H)`, so both the `u64` and the
//! `u128` bitboard paths and degenerate boards (one row, one column, K = 1)
//! come up. Each move byte names a column; a full column passes the move on to
//! the next one that is open, so every byte string is a legal game, played
//! until the bytes run out or the game ends.

use crate::{Built, Mismatch, build_all, byte};
use ::connectx::{Config, Perft, Position, WinCheck, kaggle};
use arbitrary::{Arbitrary, Unstructured};
use std::fmt;
use std::sync::LazyLock;

/// The most positions in one win-detection case (SIMD variants may take
/// several positions at once).
pub const MAX_BATCH: usize = 8;

/// The most nodes a perft case may make the oracle visit, bounded from above
/// by counting move sequences that only respect column heights.
pub const MAX_NODES: u128 = 20_000;

/// The deepest perft a case asks for before the cost bound.
const MAX_DEPTH: u8 = 16;

/// Config bytes below this pick a standard configuration.
const CUSTOM: u8 = 128;

static CONFIGS: LazyLock<Vec<Config>> = LazyLock::new(::connectx::inputs::configs);

static WIN: LazyLock<Vec<Built<dyn WinCheck>>> =
    LazyLock::new(|| build_all(::connectx::variants(), |v| (v.name, (v.make)())));

static PERFT: LazyLock<Vec<Built<dyn Perft>>> =
    LazyLock::new(|| build_all(::connectx::perft_variants(), |v| (v.name, (v.make)())));

fn config(u: &mut Unstructured<'_>) -> Config {
    let b = byte(u);
    if b < CUSTOM {
        return CONFIGS[usize::from(b) % CONFIGS.len()];
    }
    let w = 1 + usize::from(byte(u)) % 64;
    let h = 1 + usize::from(byte(u)) % (128 / w - 1);
    let k = 1 + usize::from(byte(u)) % w.max(h);
    Config::new(w, h, k).expect("W*(H+1) <= 128 and 1 <= K <= max(W, H)")
}

/// A legal game: a configuration and its moves (0-based columns).
///
/// Decoding plays the moves with Kaggle's list rules (the oracle's own), not
/// with [`Position`], so a bug in the position type shows up as a finding with
/// a reproduction instead of a crash inside the decoder.
#[derive(Clone, PartialEq, Eq)]
pub struct Game {
    /// The board size and K.
    pub config: Config,
    /// The columns played, 0-based, player 1 first.
    pub moves: Vec<usize>,
}

impl Game {
    /// The spec's position text, `WxHkK:MOVES` (1-based columns, separated by
    /// commas when there are more than 9).
    pub fn text(&self) -> String {
        let sep = if self.config.columns() > 9 { "," } else { "" };
        let moves: Vec<String> = self.moves.iter().map(|c| (c + 1).to_string()).collect();
        format!("{}:{}", self.config, moves.join(sep))
    }

    /// The position after the moves; panics with the game's text when the
    /// position type rejects a game Kaggle's rules allow.
    pub fn position(&self, workload: &str) -> Position {
        Position::from_moves(self.config, &self.moves).unwrap_or_else(|e| {
            panic!(
                "{workload}: Position::from_moves rejects a legal game: {e}\n  \
                 input: {text}\nreproduce:\n  {repro}",
                text = self.text(),
                repro = crate::solve_command(workload, "kaggle-list", &self.text()),
            )
        })
    }
}

fn game(u: &mut Unstructured<'_>) -> Game {
    let config = config(u);
    let w = config.columns();
    let mut board = vec![0u8; config.cells()];
    let mut moves = Vec::new();
    for _ in 0..byte(u) {
        let first = usize::from(byte(u)) % w;
        let column = (0..w)
            .map(|i| (first + i) % w)
            .find(|&c| kaggle::is_legal(&board, c))
            .expect("a game that is not over has an open column");
        let mark = 1 + (moves.len() % 2) as u8;
        let row = kaggle::play(&mut board, config, column, mark).expect("a legal column");
        moves.push(column);
        if kaggle::is_win(&board, config, row, column, mark) || kaggle::is_full(&board) {
            break;
        }
    }
    Game { config, moves }
}

fn encode_game(game: &Game, out: &mut Vec<u8>) {
    let config = game.config;
    match CONFIGS.iter().position(|&c| c == config) {
        Some(i) => out.push(i as u8),
        None => out.extend([
            CUSTOM,
            (config.columns() - 1) as u8,
            (config.rows() - 1) as u8,
            (config.inarow() - 1) as u8,
        ]),
    }
    out.push(game.moves.len() as u8);
    out.extend(game.moves.iter().map(|&c| c as u8));
}

/// The game that reaches `position` (for the seeds, which come as positions).
fn game_of(position: &Position) -> Game {
    Game {
        config: position.config(),
        moves: position.moves(),
    }
}

/// A batch of games for the win detectors.
#[derive(Clone, PartialEq, Eq)]
pub struct WinCase {
    /// The games, 1 to [`MAX_BATCH`], possibly of different configurations.
    pub games: Vec<Game>,
}

impl<'a> Arbitrary<'a> for WinCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<WinCase> {
        let n = 1 + usize::from(byte(u)) % MAX_BATCH;
        Ok(WinCase {
            games: (0..n).map(|_| game(u)).collect(),
        })
    }
}

impl WinCase {
    /// The bytes that decode to these games.
    ///
    /// # Panics
    /// If there are no games or more than [`MAX_BATCH`].
    pub fn encode(&self) -> Vec<u8> {
        assert!((1..=MAX_BATCH).contains(&self.games.len()));
        let mut out = vec![(self.games.len() - 1) as u8];
        for g in &self.games {
            encode_game(g, &mut out);
        }
        out
    }

    /// Runs every win detector, one position at a time and on the whole
    /// batch; panics on the first answer that differs from the oracle's.
    pub fn check(&self) {
        let positions: Vec<Position> = self.games.iter().map(|g| g.position("connectx")).collect();
        let (oracle, rest) = WIN.split_first().expect("a registry has its oracle");
        let n = positions.len();
        let mut expected = vec![0; n];
        oracle.imp.winners(&positions, &mut expected);
        let mut batch = vec![0; n];
        for v in rest {
            v.imp.winners(&positions, &mut batch);
            for (i, pos) in positions.iter().enumerate() {
                let one = v.imp.winner(pos);
                let (got, context) = if one != expected[i] {
                    (one, String::new())
                } else if batch[i] != expected[i] {
                    (batch[i], format!("position {} of a batch of {n}", i + 1))
                } else {
                    continue;
                };
                Mismatch {
                    workload: "connectx",
                    oracle: oracle.name,
                    variant: v.name,
                    input: self.games[i].text(),
                    expected: expected[i].to_string(),
                    got: got.to_string(),
                    context,
                }
                .fail();
            }
        }
    }
}

/// The reproduction: one `bitbench solve` with every position of the batch.
impl fmt::Debug for WinCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bitbench solve connectx")?;
        for g in &self.games {
            write!(f, " {}", crate::shell_quote(&g.text()))?;
        }
        Ok(())
    }
}

/// A perft query within the oracle's cost bound.
#[derive(Clone, PartialEq, Eq)]
pub struct PerftCase {
    /// The game reaching the root position.
    pub game: Game,
    /// The perft depth.
    pub depth: u32,
}

/// An upper bound on the nodes of a perft search of `depth` after `game`: the
/// move sequences of every length up to `depth` that only respect how much
/// room each column has left (wins only cut the real tree further).
pub fn node_bound(game: &Game, depth: u32) -> u128 {
    let config = game.config;
    let depth = depth.min(config.cells() as u32) as usize;
    let mut room = vec![config.rows(); config.columns()];
    for &c in &game.moves {
        room[c] -= 1;
    }
    let mut binom = vec![vec![0u128; depth + 1]; depth + 1];
    for n in 0..=depth {
        binom[n][0] = 1;
        for k in 1..=n {
            binom[n][k] = binom[n - 1][k - 1].saturating_add(binom[n - 1][k]);
        }
    }
    // ways[j]: sequences of j moves into the columns merged so far; a new
    // column with room r takes any k <= r of the j moves, in C(j, k) ways.
    let mut ways = vec![0u128; depth + 1];
    ways[0] = 1;
    for r in room {
        let mut next = vec![0u128; depth + 1];
        for (j, slot) in next.iter_mut().enumerate() {
            for k in 0..=r.min(j) {
                *slot = slot.saturating_add(ways[j - k].saturating_mul(binom[j][k]));
            }
        }
        ways = next;
    }
    ways.iter().fold(0u128, |sum, &n| sum.saturating_add(n))
}

/// The deepest depth up to `depth` within [`MAX_NODES`].
fn bounded_depth(game: &Game, depth: u32) -> u32 {
    (0..=depth)
        .rev()
        .find(|&d| node_bound(game, d) <= MAX_NODES)
        .unwrap_or(0)
}

impl<'a> Arbitrary<'a> for PerftCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<PerftCase> {
        let game = game(u);
        let depth = bounded_depth(&game, u32::from(byte(u) % MAX_DEPTH));
        Ok(PerftCase { game, depth })
    }
}

impl PerftCase {
    /// The spec's text of the input, `POSITION DEPTH`.
    pub fn text(&self) -> String {
        format!("{} {}", self.game.text(), self.depth)
    }

    /// The bytes that decode to this case, or `None` when its depth is past
    /// the cost bound or what the decoder can pick.
    pub fn encode(&self) -> Option<Vec<u8>> {
        if self.depth >= u32::from(MAX_DEPTH) || bounded_depth(&self.game, self.depth) != self.depth
        {
            return None;
        }
        let mut out = Vec::new();
        encode_game(&self.game, &mut out);
        out.push(self.depth as u8);
        Some(out)
    }

    /// Runs every perft counter; panics on the first count that differs from
    /// the oracle's.
    pub fn check(&self) {
        let position = self.game.position("connectx-perft");
        let (oracle, rest) = PERFT.split_first().expect("a registry has its oracle");
        let expected = oracle.imp.perft(&position, self.depth);
        for v in rest {
            let got = v.imp.perft(&position, self.depth);
            if got != expected {
                Mismatch {
                    workload: "connectx-perft",
                    oracle: oracle.name,
                    variant: v.name,
                    input: self.text(),
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
impl fmt::Debug for PerftCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bitbench solve connectx-perft {}",
            crate::shell_quote(&self.text())
        )
    }
}

/// Win-detection seeds: every edge case of the crate on its own, and all of
/// them in batches.
pub fn win_seeds() -> Vec<(String, WinCase)> {
    let edges: Vec<(&str, Game)> = ::connectx::inputs::edge_cases()
        .iter()
        .map(|(label, p)| (*label, game_of(p)))
        .collect();
    let mut out: Vec<(String, WinCase)> = edges
        .iter()
        .map(|(label, g)| {
            let games = vec![g.clone()];
            (label.to_string(), WinCase { games })
        })
        .collect();
    for (i, chunk) in edges.chunks(MAX_BATCH).enumerate() {
        let games = chunk.iter().map(|(_, g)| g.clone()).collect();
        out.push((format!("batch-{}", i + 1), WinCase { games }));
    }
    out
}

/// Perft seeds: every edge case and the spec's empty boards (the default and
/// Kaggle's 5×4 K=3), each at the deepest depth under the cost bound.
pub fn perft_seeds() -> Vec<(String, PerftCase)> {
    let mut positions: Vec<(String, Position)> = ::connectx::inputs::edge_cases()
        .into_iter()
        .map(|(label, p)| (label.to_owned(), p))
        .collect();
    for text in ["7x6k4:", "5x4k3:", "5x4k3:1212"] {
        positions.push((
            format!("spec {text}"),
            text.parse().expect("spec positions parse"),
        ));
    }
    positions
        .into_iter()
        .map(|(label, position)| {
            let game = game_of(&position);
            let depth = bounded_depth(&game, u32::from(MAX_DEPTH) - 1);
            (label, PerftCase { game, depth })
        })
        .collect()
}
