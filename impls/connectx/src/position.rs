//! The position type: a configuration plus both players' bitboards.
//!
//! Positions are only ever built by legal play (from a move list, or from a
//! Kaggle list board that a legal game can reach), so at most the player who
//! moved last has K aligned. The bitboards are stored ready-made so the win
//! detection kernels measure win detection, not parsing.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use crate::Error;
use crate::bits::{Bits, each_bit};
use crate::config::{Config, Geometry};

/// Runs `$body` with the type alias `$b` bound to the narrowest word that
/// holds `$config`'s board: `u64` when `W*(H+1) <= 64`, else `u128`.
macro_rules! by_word {
    ($config:expr, $b:ident => $body:expr) => {
        if $config.fits_u64() {
            type $b = u64;
            $body
        } else {
            type $b = u128;
            $body
        }
    };
}
pub(crate) use by_word;

/// A ConnectX position reached by legal play.
///
/// The layout is fixed (`repr(C)`, no padding) as five 64-bit words:
/// `[player 1 low, player 2 low, player 1 high, player 2 high, config |
/// plies.rotate_right(1) << 32]`. The `u64` fast path reads the first 16
/// bytes, and the SIMD kernels load words of four positions at once and
/// regroup them in registers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Position {
    lo: [u64; 2],
    hi: [u64; 2],
    config: Config,
    // The ply count rotated right by one bit, so that its parity is the
    // sign bit of the last word, which SIMD blends and movemasks read as
    // is. A full word rather than a byte so the struct has no padding: the
    // SIMD kernels read whole words, which must all be initialised.
    plies_rotated: u32,
}

/// 64-bit words per [`Position`].
pub(crate) const WORDS: usize = 5;

/// The index of the word holding the configuration (low half) and the ply
/// count (high half) in a [`Position`]; its sign bit is set when the ply
/// count is odd (player 1 moved last).
pub(crate) const META: usize = 4;

// The SIMD kernels rely on this layout; a change must fail the build.
const _: () = {
    assert!(size_of::<Position>() == WORDS * 8);
    assert!(std::mem::offset_of!(Position, lo) == 0);
    assert!(std::mem::offset_of!(Position, hi) == 16);
    assert!(std::mem::offset_of!(Position, config) == META * 8);
    assert!(std::mem::offset_of!(Position, plies_rotated) == META * 8 + 4);
};

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The column (0-based) is not on the board.
    OutOfRange(usize),
    /// The column (0-based) has no empty cell.
    ColumnFull(usize),
    /// The game already ended: the winner (1 or 2), or 0 for a full-board draw.
    GameOver(u8),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveError::OutOfRange(c) => write!(f, "column {} is not on the board", c + 1),
            MoveError::ColumnFull(c) => write!(f, "column {} is full", c + 1),
            MoveError::GameOver(0) => write!(f, "the game already ended in a draw"),
            MoveError::GameOver(w) => write!(f, "the game already ended: player {w} won"),
        }
    }
}

impl Position {
    /// The empty board of `config`.
    pub fn empty(config: Config) -> Position {
        Position {
            lo: [0; 2],
            hi: [0; 2],
            config,
            plies_rotated: 0,
        }
    }

    /// Plays `moves` (0-based columns) from the empty board.
    pub fn from_moves(config: Config, moves: &[usize]) -> Result<Position, MoveError> {
        moves
            .iter()
            .try_fold(Position::empty(config), |pos, &c| pos.play(c))
    }

    /// The configuration.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Stones on the board.
    pub fn plies(&self) -> usize {
        self.plies_rotated.rotate_left(1) as usize
    }

    /// The player to move next: 1 or 2.
    pub fn to_move(&self) -> u8 {
        1 + (self.plies() % 2) as u8
    }

    /// Both players' stones as words of type `B` (`[player 1, player 2]`).
    ///
    /// `B` must hold the board: `u128` always does, `u64` when
    /// [`Config::fits_u64`].
    #[inline(always)]
    pub fn stones<B: Bits>(&self) -> [B; 2] {
        [
            B::from_halves(self.lo[0], self.hi[0]),
            B::from_halves(self.lo[1], self.hi[1]),
        ]
    }

    /// The low 64-bit halves `[player 1, player 2]`, adjacent in memory.
    #[inline(always)]
    pub fn low_halves(&self) -> &[u64; 2] {
        &self.lo
    }

    /// The high 64-bit halves `[player 1, player 2]` (zero on `u64` boards).
    #[inline(always)]
    pub fn high_halves(&self) -> &[u64; 2] {
        &self.hi
    }

    fn with_stones<B: Bits>(config: Config, stones: [B; 2], plies: usize) -> Position {
        let [(lo0, hi0), (lo1, hi1)] = stones.map(Bits::halves);
        Position {
            lo: [lo0, lo1],
            hi: [hi0, hi1],
            config,
            plies_rotated: (plies as u32).rotate_right(1),
        }
    }

    /// Plays a stone for the player to move in `column` (0-based).
    pub fn play(&self, column: usize) -> Result<Position, MoveError> {
        by_word!(self.config, B => self.play_in::<B>(column))
    }

    fn play_in<B: Bits>(&self, column: usize) -> Result<Position, MoveError> {
        if column >= self.config.columns() {
            return Err(MoveError::OutOfRange(column));
        }
        let geo = Geometry::<B>::new(self.config);
        let stones = self.stones::<B>();
        if let Some(outcome) = outcome(&geo, stones, self.plies()) {
            return Err(MoveError::GameOver(outcome));
        }
        let stride = self.config.rows() as u32 + 1;
        // Two shifts, because a single column can fill the whole word
        // (1×63 on u64, 1×127 on u128) and `ONE << stride` would overflow.
        let column_mask =
            ((B::ONE << (stride - 1)) << 1).wrapping_sub(B::ONE) << (column as u32 * stride);
        let landing = geo.playable(stones[0] | stones[1]) & column_mask;
        if landing == B::ZERO {
            return Err(MoveError::ColumnFull(column));
        }
        let mut stones = stones;
        stones[self.plies() % 2] |= landing;
        Ok(Position::with_stones(self.config, stones, self.plies() + 1))
    }

    /// Whether the game is over (someone has K aligned, or the board is full).
    pub fn is_over(&self) -> bool {
        by_word!(self.config, B => {
            outcome(&Geometry::<B>::new(self.config), self.stones::<B>(), self.plies()).is_some()
        })
    }

    /// The legal moves (0-based columns), empty once the game is over.
    pub fn legal_moves(&self) -> Vec<usize> {
        (0..self.config.columns())
            .filter(|&c| self.play(c).is_ok())
            .collect()
    }

    /// A move sequence (0-based columns) that reaches this position by legal
    /// play. Positions do not store their history; this finds one by undoing
    /// top stones, so it may differ from the sequence the position was built
    /// from (it reaches the same position).
    pub fn moves(&self) -> Vec<usize> {
        by_word!(self.config, B => history::<B>(self.config, self.stones::<B>(), self.plies()))
            .expect("positions are reachable by legal play by construction")
    }

    /// Kaggle's flat list board: row-major from the top-left, `0` empty,
    /// `1`/`2` the players' stones.
    pub fn to_kaggle_list(&self) -> Vec<u8> {
        let mut board = vec![0; self.config.cells()];
        by_word!(self.config, B => fill_kaggle_list(self.config, self.stones::<B>(), &mut board));
        board
    }

    /// Builds a position from Kaggle's flat list board, checking that a legal
    /// game reaches it (stones rest on stones, players alternate, nobody has K
    /// aligned before the last move).
    ///
    /// Finding a move order is a search (see [`Position::moves`]): boards from
    /// real games take microseconds, random colourings of a full 10×10 board
    /// up to about 0.1 s, since dead ends are remembered but can be many.
    pub fn from_kaggle_list(config: Config, board: &[u8]) -> Result<Position, Error> {
        let bad = |reason: String| Error::new(format!("{config} list board {board:?}"), reason);
        if board.len() != config.cells() {
            return Err(bad(format!(
                "has {} cells, expected {}",
                board.len(),
                config.cells()
            )));
        }
        let (w, h) = (config.columns(), config.rows());
        let mut stones = [0u128; 2];
        let mut counts = [0usize; 2];
        for c in 0..w {
            let mut below_empty = false;
            for r in (0..h).rev() {
                match board[c + r * w] {
                    0 => below_empty = true,
                    v @ (1 | 2) if below_empty => {
                        return Err(bad(format!(
                            "stone {v} at row {r}, column {} floats above an empty cell",
                            c + 1
                        )));
                    }
                    v @ (1 | 2) => {
                        stones[usize::from(v - 1)] |= 1 << config.bit_index(r, c);
                        counts[usize::from(v - 1)] += 1;
                    }
                    v => return Err(bad(format!("cell value {v} is not 0, 1 or 2"))),
                }
            }
        }
        if counts[0] != counts[1] && counts[0] != counts[1] + 1 {
            return Err(bad(format!(
                "player 1 has {} stones and player 2 has {}: they must alternate from player 1",
                counts[0], counts[1]
            )));
        }
        let plies = counts[0] + counts[1];
        let position = Position::with_stones(config, stones, plies);
        let reachable = by_word!(config, B => {
            history::<B>(config, position.stones::<B>(), plies).is_some()
        });
        if !reachable {
            return Err(bad("no legal game reaches this board".into()));
        }
        Ok(position)
    }
}

/// The game's end, if it has ended: the winner (1 or 2), or 0 for a draw.
/// Only the player who moved last can have a line in a reachable position.
pub(crate) fn outcome<B: Bits>(geo: &Geometry<B>, stones: [B; 2], plies: usize) -> Option<u8> {
    if plies > 0 && geo.has_line(stones[(plies - 1) % 2]) {
        Some(1 + ((plies - 1) % 2) as u8)
    } else if (stones[0] | stones[1]) == geo.board {
        Some(0)
    } else {
        None
    }
}

fn fill_kaggle_list<B: Bits>(config: Config, stones: [B; 2], board: &mut [u8]) {
    let w = config.columns();
    for r in 0..config.rows() {
        for c in 0..w {
            let bit = B::ONE << config.bit_index(r, c);
            board[c + r * w] = if stones[0] & bit != B::ZERO {
                1
            } else if stones[1] & bit != B::ZERO {
                2
            } else {
                0
            };
        }
    }
}

/// Finds a legal move order reaching `stones` after `plies` moves, or `None`.
///
/// Works backwards, removing a top stone of the player who moved last. Lines
/// never disappear when stones are added, so only the final position may hold
/// one (the last mover's) and its last stone must break every line; after
/// that only the alternation of colours constrains the order. Dead ends are
/// remembered by their occupancy, which identifies a sub-position.
fn history<B: Bits>(config: Config, stones: [B; 2], plies: usize) -> Option<Vec<usize>> {
    let geo = Geometry::<B>::new(config);
    let stride = config.rows() as u32 + 1;
    let mut order = Vec::with_capacity(plies);
    let mut failed = HashSet::new();
    if plies == 0 {
        return Some(order);
    }
    let last = (plies - 1) % 2;
    if geo.has_line(stones[1 - last]) {
        return None;
    }
    let occupied = stones[0] | stones[1];
    let tops = stones[last] & !(occupied >> 1);
    for bit in each_bit(tops) {
        let mut before = stones;
        before[last] = before[last] ^ bit;
        if geo.has_line(before[last]) {
            continue;
        }
        order.push((bit.trailing_zeros() / stride) as usize);
        if unwind(before, plies - 1, stride, &mut failed, &mut order) {
            order.reverse();
            return Some(order);
        }
        order.pop();
    }
    None
}

fn unwind<B: Bits>(
    stones: [B; 2],
    plies: usize,
    stride: u32,
    failed: &mut HashSet<B>,
    order: &mut Vec<usize>,
) -> bool {
    if plies == 0 {
        return true;
    }
    let occupied = stones[0] | stones[1];
    if failed.contains(&occupied) {
        return false;
    }
    let last = (plies - 1) % 2;
    for bit in each_bit(stones[last] & !(occupied >> 1)) {
        let mut before = stones;
        before[last] = before[last] ^ bit;
        order.push((bit.trailing_zeros() / stride) as usize);
        if unwind(before, plies - 1, stride, failed, order) {
            return true;
        }
        order.pop();
    }
    failed.insert(occupied);
    false
}

impl fmt::Debug for Position {
    /// The fields with the ply count as a number (it is stored rotated).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("lo", &self.lo)
            .field("hi", &self.hi)
            .field("config", &self.config)
            .field("plies", &self.plies())
            .finish()
    }
}

impl fmt::Display for Position {
    /// `WxHkK:MOVES` with 1-based columns: one digit each for W <= 9, comma
    /// separated otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.config)?;
        let sep = if self.config.columns() > 9 { "," } else { "" };
        for (i, c) in self.moves().into_iter().enumerate() {
            let sep = if i == 0 { "" } else { sep };
            write!(f, "{sep}{}", c + 1)?;
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = Error;

    /// Parses `WxHkK:MOVES`; MOVES are 1-based columns, one digit each, or
    /// comma separated (required when W > 9). Surrounding space is ignored.
    fn from_str(s: &str) -> Result<Position, Error> {
        let bad = |reason: String| Error::new(s, reason);
        let (config, moves) = s
            .trim()
            .split_once(':')
            .ok_or_else(|| bad("expected WxHkK:MOVES, e.g. 7x6k4:4453".into()))?;
        let config: Config = config.parse().map_err(|e: Error| bad(e.reason))?;
        let moves = moves.trim();
        let tokens: Vec<&str> = if moves.is_empty() {
            Vec::new()
        } else if moves.contains(',') || config.columns() > 9 {
            moves.split(',').map(str::trim).collect()
        } else {
            moves
                .char_indices()
                .map(|(i, ch)| &moves[i..i + ch.len_utf8()])
                .collect()
        };
        let mut pos = Position::empty(config);
        for (i, token) in tokens.iter().enumerate() {
            let column = token
                .parse::<usize>()
                .ok()
                .filter(|c| (1..=config.columns()).contains(c))
                .ok_or_else(|| {
                    bad(format!(
                        "move {} {token:?} is not a column 1..={}",
                        i + 1,
                        config.columns()
                    ))
                })?;
            pos = pos
                .play(column - 1)
                .map_err(|e| bad(format!("move {} (column {column}): {e}", i + 1)))?;
        }
        Ok(pos)
    }
}

/// A `connectx-perft` query: `POSITION DEPTH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PerftInput {
    /// Where the search starts.
    pub position: Position,
    /// How many plies to search.
    pub depth: u32,
}

impl fmt::Display for PerftInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.position, self.depth)
    }
}

impl FromStr for PerftInput {
    type Err = Error;

    /// Parses `POSITION DEPTH`, e.g. `7x6k4: 8` or `7x6k4:4453 5`.
    fn from_str(s: &str) -> Result<PerftInput, Error> {
        let bad = |reason: String| Error::new(s, reason);
        let (position, depth) = s
            .trim()
            .rsplit_once(char::is_whitespace)
            .ok_or_else(|| bad("expected POSITION DEPTH, e.g. \"7x6k4: 8\"".into()))?;
        let depth = depth
            .parse()
            .map_err(|_| bad(format!("depth {depth:?} is not a number")))?;
        let position = position.parse().map_err(|e: Error| bad(e.reason))?;
        Ok(PerftInput { position, depth })
    }
}
