//! Adapters for `impls/connectx`: batch win detection (`connectx`) and perft
//! (`connectx-perft`) on ConnectX boards of any size.
//!
//! Both workloads name their input sets after a configuration, so one file
//! holds the shared set-name grammar: `CONFIG/random:PLIES` for positions,
//! `CONFIG/perft:D` and `CONFIG/random:PLIES/perft:D` for perft queries.

use crate::sets::{InputSet, Member};
use crate::workload::{Solve, VariantInfo, Workload};
use connectx::{Config, PerftInput, Position, WinCheck, inputs};

/// Win detection: who has K aligned, per position.
pub struct WinDetection;

/// Perft: legal move sequences of a given length.
pub struct PerftCount;

/// The `connectx` workload.
pub const WIN: WinDetection = WinDetection;

/// The `connectx-perft` workload.
pub const PERFT: PerftCount = PerftCount;

const CONFIG_HELP: &str = "CONFIG is WxHkK (7x6k4, 5x4k3, 8x7k5, 9x6k4, 10x10k5 or any board \
                           with W*(H+1) <= 128) and may be left out for 7x6k4";

/// Splits `CONFIG/rest` (the configuration is optional, 7x6k4 by default).
fn split_config(name: &str) -> Result<(Config, &str), String> {
    match name.split_once('/') {
        Some((config, rest)) if !config.contains(':') => {
            let config = config.parse::<Config>().map_err(|e| e.to_string())?;
            Ok((config, rest))
        }
        _ => Ok((Config::STANDARD, name)),
    }
}

/// Parses the number after `key:` in `part`, e.g. `random:20`.
fn number(part: &str, key: &str) -> Option<Result<usize, String>> {
    let value = part.strip_prefix(key)?.strip_prefix(':')?;
    Some(
        value
            .parse()
            .map_err(|_| format!("{key}:{value}: '{value}' is not a number")),
    )
}

/// Random positions after `plies` plies, or the reason the name is wrong.
fn random_positions(
    config: Config,
    part: &str,
    seed: u64,
    n: usize,
) -> Option<Result<(usize, Vec<Position>), String>> {
    let plies = match number(part, "random")? {
        Ok(p) => p,
        Err(e) => return Some(Err(e)),
    };
    if plies > config.cells() {
        return Some(Err(format!(
            "random:{plies}: a {config} game has at most {} plies",
            config.cells()
        )));
    }
    Some(Ok((plies, inputs::random(config, plies, seed, n))))
}

/// A board picture: rows top first, `X` player 1, `O` player 2.
fn picture(position: &Position) -> String {
    let list = position.to_kaggle_list();
    let mut text = position.to_string();
    for row in list.chunks(position.config().columns()) {
        text.push('\n');
        text.extend(row.iter().map(|&v| match v {
            1 => 'X',
            2 => 'O',
            _ => '.',
        }));
    }
    text
}

/// Positions one step simpler: the same game with one move left out, where
/// the remaining moves are still legal.
fn shrink_position(position: &Position) -> Vec<Position> {
    let moves = position.moves();
    (0..moves.len())
        .rev()
        .filter_map(|skip| {
            let fewer: Vec<usize> = moves
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, &c)| c)
                .collect();
            Position::from_moves(position.config(), &fewer).ok()
        })
        .collect()
}

struct WinBatch(Box<dyn WinCheck>);

impl Solve<Position, u8> for WinBatch {
    fn solve_batch(&mut self, inputs: &[Position], out: &mut [u8]) {
        self.0.winners(inputs, out);
    }
}

impl Workload for WinDetection {
    type Input = Position;
    type Output = u8;

    fn name(&self) -> &'static str {
        "connectx"
    }
    fn description(&self) -> &'static str {
        "ConnectX win detection on any W×H board, K in a row: 0 nobody, 1 or 2 (Kaggle rules)"
    }
    fn unit(&self) -> &'static str {
        "positions"
    }

    fn variants(&self) -> Vec<VariantInfo> {
        connectx::variants()
            .iter()
            .map(|v| VariantInfo::new(v.name, v.description, v.features))
            .collect()
    }
    fn default_variant(&self) -> &'static str {
        "shift"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Position, u8>>> {
        let v = connectx::variants()
            .into_iter()
            .find(|v| v.name == variant)?;
        Some(Box::new(WinBatch((v.make)()?)))
    }

    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::text(
            "CONFIG/random:PLIES",
            "positions after PLIES uniformly random legal plies (fewer when the game \
             ended first); e.g. 7x6k4/random:20, 10x10k5/random:40",
        )]
    }
    fn bench_sets(&self, quick: bool) -> Vec<String> {
        let sets: &[&str] = if quick {
            &["7x6k4/random:20", "10x10k5/random:40"]
        } else {
            &[
                "7x6k4/random:20",
                "7x6k4/random:42",
                "5x4k3/random:10",
                "8x7k5/random:28",
                "9x6k4/random:27",
                "10x10k5/random:40",
            ]
        };
        sets.iter().map(|s| s.to_string()).collect()
    }
    fn check_sets(&self) -> Vec<String> {
        inputs::configs()
            .into_iter()
            .flat_map(|c| {
                let cells = c.cells();
                [cells / 4, cells / 2, cells].map(move |p| format!("{c}/random:{p}"))
            })
            .collect()
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Position>, String> {
        let (config, rest) = split_config(set.name())?;
        match random_positions(config, rest, seed, n) {
            Some(result) => result.map(|(_, positions)| positions),
            None => Err(format!(
                "unknown input set (known: CONFIG/random:PLIES; {CONFIG_HELP})"
            )),
        }
    }
    fn edge_cases(&self) -> Vec<(String, Position)> {
        inputs::edge_cases()
            .into_iter()
            .map(|(label, position)| (label.to_owned(), position))
            .collect()
    }

    fn parse_input(&self, text: &str) -> Result<Position, String> {
        text.parse()
            .map_err(|e: connectx::Error| e.reason().to_owned())
    }
    fn format_input(&self, input: &Position) -> String {
        input.to_string()
    }
    fn picture(&self, input: &Position) -> String {
        picture(input)
    }
    fn format_output(&self, output: &u8) -> String {
        output.to_string()
    }
    fn same(&self, a: &u8, b: &u8) -> bool {
        a == b
    }
    fn shrink(&self, input: &Position) -> Vec<Position> {
        shrink_position(input)
    }
    #[cfg(feature = "fuzz")]
    fn arbitrary_inputs(
        &self,
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<Vec<Position>> {
        Ok(decode::positions(u))
    }
}

/// Search nodes a variant may visit before the cost model skips it: the
/// list oracle runs at roughly 30–40 ns a node, the bitboards at a few.
fn node_budget(variant: &str) -> f64 {
    if variant == "list" { 1e8 } else { 2e9 }
}

impl Workload for PerftCount {
    type Input = PerftInput;
    type Output = u64;

    fn name(&self) -> &'static str {
        "connectx-perft"
    }
    fn description(&self) -> &'static str {
        "ConnectX perft: legal move sequences of length D, games stopping at a win or a full board"
    }
    fn unit(&self) -> &'static str {
        "nodes"
    }

    fn variants(&self) -> Vec<VariantInfo> {
        connectx::perft_variants()
            .iter()
            .map(|v| VariantInfo::new(v.name, v.description, v.features))
            .collect()
    }
    fn default_variant(&self) -> &'static str {
        "bitboard-threats"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<PerftInput, u64>>> {
        let v = connectx::perft_variants()
            .into_iter()
            .find(|v| v.name == variant)?;
        let perft = (v.make)()?;
        Some(Box::new(move |input: &PerftInput| {
            perft.perft(&input.position, input.depth)
        }))
    }

    fn input_sets(&self) -> Vec<InputSet> {
        // One grammar reads both: `generate` parses the name.
        vec![
            InputSet::text(
                "CONFIG/perft:D",
                "perft(D) from the empty board (one input); e.g. 7x6k4/perft:9",
            ),
            InputSet::text(
                "CONFIG/random:PLIES/perft:D",
                "perft(D) from positions after PLIES random plies (games still going); \
                 e.g. 7x6k4/random:10/perft:6",
            ),
        ]
    }
    fn bench_sets(&self, quick: bool) -> Vec<String> {
        let sets: &[&str] = if quick {
            &["7x6k4/perft:7", "7x6k4/random:10/perft:5"]
        } else {
            &[
                "7x6k4/perft:9",
                "7x6k4/random:10/perft:6",
                "10x10k5/random:20/perft:5",
            ]
        };
        sets.iter().map(|s| s.to_string()).collect()
    }
    fn check_sets(&self) -> Vec<String> {
        [
            "7x6k4/perft:7",
            "7x6k4/random:8/perft:4",
            "5x4k3/random:4/perft:5",
            "8x7k5/random:12/perft:4",
            "9x6k4/random:12/perft:4",
            "10x10k5/random:30/perft:3",
        ]
        .map(String::from)
        .to_vec()
    }
    fn bench_batch(&self, quick: bool) -> usize {
        // One perft input is a whole search, not a single position.
        if quick { 4 } else { 16 }
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<PerftInput>, String> {
        let unknown = || {
            format!(
                "unknown input set (known: CONFIG/perft:D, CONFIG/random:PLIES/perft:D; \
                 {CONFIG_HELP})"
            )
        };
        let (config, rest) = split_config(set.name())?;
        let (start, depth) = rest.rsplit_once('/').unwrap_or(("", rest));
        let depth = number(depth, "perft").ok_or_else(unknown)??;
        let depth = u32::try_from(depth).map_err(|_| format!("perft:{depth} is too deep"))?;
        if start.is_empty() {
            return Ok(vec![inputs::perft_from_empty(config, depth)]);
        }
        let plies = number(start, "random").ok_or_else(unknown)??;
        if plies >= config.cells() {
            return Err(format!(
                "random:{plies}: a {config} game still going has fewer than {} plies",
                config.cells()
            ));
        }
        Ok(inputs::perft_random(config, plies, depth, seed, n))
    }
    fn edge_cases(&self) -> Vec<(String, PerftInput)> {
        inputs::edge_cases()
            .into_iter()
            .map(|(label, position)| {
                (
                    format!("{label}, depth 2"),
                    PerftInput { position, depth: 2 },
                )
            })
            .collect()
    }

    fn parse_input(&self, text: &str) -> Result<PerftInput, String> {
        text.parse()
            .map_err(|e: connectx::Error| e.reason().to_owned())
    }
    fn format_input(&self, input: &PerftInput) -> String {
        input.to_string()
    }
    fn picture(&self, input: &PerftInput) -> String {
        format!("{}\ndepth {}", picture(&input.position), input.depth)
    }
    fn format_output(&self, output: &u64) -> String {
        output.to_string()
    }
    fn same(&self, a: &u64, b: &u64) -> bool {
        a == b
    }
    fn elements(&self, _input: &PerftInput, output: &u64) -> u64 {
        *output
    }
    fn skip(&self, variant: &str, input: &PerftInput) -> Option<String> {
        // W^D bounds the leaves (fewer once columns fill or games end).
        let moves = input.position.legal_moves().len() as f64;
        let estimate = moves.powf(f64::from(input.depth));
        let budget = node_budget(variant);
        (estimate > budget).then(|| {
            format!(
                "perft({}) from a position with {moves} moves is up to {estimate:.1e} nodes, \
                 over {variant}'s budget of {budget:.0e}",
                input.depth
            )
        })
    }
    fn shrink(&self, input: &PerftInput) -> Vec<PerftInput> {
        let shallower = (input.depth > 0).then(|| PerftInput {
            depth: input.depth - 1,
            ..*input
        });
        shallower
            .into_iter()
            .chain(
                shrink_position(&input.position)
                    .into_iter()
                    .map(|position| PerftInput { position, ..*input }),
            )
            .collect()
    }
    #[cfg(feature = "fuzz")]
    fn arbitrary_inputs(
        &self,
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<Vec<PerftInput>> {
        Ok(vec![decode::perft(u)])
    }
}

/// The fuzz decoders: a configuration and a legal game for each position.
///
/// Configurations are either the input sets' standard ones or any `W×H kK`
/// with `W*(H+1) <= 128` and `1 <= K <= max(W, H)`, so both the `u64` and
/// the `u128` bitboard paths and degenerate boards (one row, one column,
/// K = 1) come up. Each move byte names a column; a full column passes the
/// move on to the next one that is open, so every byte string is a legal
/// game, played until the bytes run out or the game ends.
#[cfg(feature = "fuzz")]
mod decode {
    use crate::fuzz::byte;
    use arbitrary::Unstructured;
    use connectx::{Config, PerftInput, Position, kaggle};
    use std::sync::LazyLock;

    /// The most positions in one win-detection batch (SIMD variants may
    /// take several positions at once).
    pub const MAX_BATCH: usize = 8;

    /// The most nodes a perft query may make the oracle visit, bounded from
    /// above by counting move sequences that only respect column heights.
    pub const MAX_NODES: u128 = 20_000;

    /// The deepest perft asked for before the cost bound.
    const MAX_DEPTH: u8 = 16;

    /// Config bytes below this pick a standard configuration.
    const CUSTOM: u8 = 128;

    static CONFIGS: LazyLock<Vec<Config>> = LazyLock::new(connectx::inputs::configs);

    /// 1 to [`MAX_BATCH`] positions, possibly of different configurations.
    pub fn positions(u: &mut Unstructured<'_>) -> Vec<Position> {
        let n = 1 + usize::from(byte(u)) % MAX_BATCH;
        (0..n).map(|_| position(u, "connectx")).collect()
    }

    /// A perft query within [`MAX_NODES`].
    pub fn perft(u: &mut Unstructured<'_>) -> PerftInput {
        let (config, moves) = game(u);
        let depth = u32::from(byte(u) % MAX_DEPTH);
        let depth = (0..=depth)
            .rev()
            .find(|&d| node_bound(config, &moves, d) <= MAX_NODES)
            .unwrap_or(0);
        let position = from_moves(config, &moves, "connectx-perft");
        PerftInput { position, depth }
    }

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

    /// A configuration and a legal game in it (0-based columns).
    ///
    /// The moves are played with Kaggle's list rules (the oracle's own),
    /// not with [`Position`], so a bug in the position type shows up as a
    /// finding with a reproduction instead of a wrong decoding.
    fn game(u: &mut Unstructured<'_>) -> (Config, Vec<usize>) {
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
        (config, moves)
    }

    fn position(u: &mut Unstructured<'_>, workload: &str) -> Position {
        let (config, moves) = game(u);
        from_moves(config, &moves, workload)
    }

    /// The position after a legal game; panics with the game's text when
    /// the position type rejects a game Kaggle's rules allow (`solve` parses
    /// positions with the same type, so win detection reproduces it).
    fn from_moves(config: Config, moves: &[usize], workload: &str) -> Position {
        Position::from_moves(config, moves).unwrap_or_else(|e| {
            let sep = if config.columns() > 9 { "," } else { "" };
            let moves: Vec<String> = moves.iter().map(|c| (c + 1).to_string()).collect();
            let text = format!("{config}:{}", moves.join(sep));
            panic!(
                "{workload}: Position::from_moves rejects a legal game: {e}\n  \
                 input: {text}\nreproduce:\n  {repro}",
                repro = crate::fuzz::solve_line("connectx", None, std::slice::from_ref(&text)),
            )
        })
    }

    /// An upper bound on the nodes of a perft search of `depth` after
    /// `moves`: the move sequences of every length up to `depth` that only
    /// respect how much room each column has left (wins only cut the real
    /// tree further).
    fn node_bound(config: Config, moves: &[usize], depth: u32) -> u128 {
        let depth = depth.min(config.cells() as u32) as usize;
        let mut room = vec![config.rows(); config.columns()];
        for &c in moves {
            room[c] -= 1;
        }
        let mut binom = vec![vec![0u128; depth + 1]; depth + 1];
        for n in 0..=depth {
            binom[n][0] = 1;
            for k in 1..=n {
                binom[n][k] = binom[n - 1][k - 1].saturating_add(binom[n - 1][k]);
            }
        }
        // ways[j]: sequences of j moves into the columns merged so far; a
        // new column with room r takes any k <= r of the j moves, in C(j, k)
        // ways.
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
}
