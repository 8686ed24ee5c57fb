//! The text formats of the spec: partial boards (50 characters, a digit per
//! covered cell, `.` for empty), solutions (50 digits), `solve` inputs
//! (`N` or `N BOARD`) and the solver output (`COUNT MIN MAX`, or the
//! Benchmarks Game text).

use std::fmt;
use std::str::FromStr;

use crate::geometry::{CELLS, COLS, PIECE_SIZE, PIECES, ROWS, placements};

/// A board whose cells are either empty or covered by a piece; every piece on
/// it is a valid placement (checked by [`FromStr`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PartialBoard {
    cells: [Option<u8>; CELLS],
}

impl PartialBoard {
    /// The empty board: the puzzle itself.
    pub const fn empty() -> PartialBoard {
        PartialBoard {
            cells: [None; CELLS],
        }
    }

    /// The piece covering `cell`, if any.
    pub fn get(&self, cell: usize) -> Option<u8> {
        self.cells[cell]
    }

    /// Whether no piece is placed.
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(Option::is_none)
    }

    /// The pieces on the board as `(piece, cell bitmask)`, by piece number.
    pub fn pieces(&self) -> Vec<(u8, u64)> {
        let mut masks = [0u64; PIECES];
        for (cell, piece) in self.cells.iter().enumerate() {
            if let Some(p) = piece {
                masks[*p as usize] |= 1 << cell;
            }
        }
        (0..PIECES as u8)
            .zip(masks)
            .filter(|&(_, m)| m != 0)
            .collect()
    }

    /// Puts `piece` on `cells`; the caller guarantees they are a valid
    /// placement on empty cells and the piece is not on the board yet.
    pub(crate) fn place(&mut self, piece: u8, cells: &[u8]) {
        for &c in cells {
            debug_assert!(self.cells[c as usize].is_none());
            self.cells[c as usize] = Some(piece);
        }
    }
}

impl Default for PartialBoard {
    fn default() -> Self {
        PartialBoard::empty()
    }
}

/// Why a board, solution or `solve` input was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    input: String,
    problem: String,
}

impl ParseError {
    fn new(input: &str, problem: impl Into<String>) -> ParseError {
        // Keep the message on one line and of sane length whatever the input.
        let mut shown: String = input.chars().take(60).collect();
        if shown.len() < input.len() {
            shown.push('…');
        }
        ParseError {
            input: shown.escape_debug().to_string(),
            problem: problem.into(),
        }
    }
}

impl ParseError {
    /// What is wrong, without the input (for callers that name it themselves).
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid meteor input \"{}\": {}",
            self.input, self.problem
        )
    }
}

impl std::error::Error for ParseError {}

impl FromStr for PartialBoard {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let len = s.chars().count();
        if len != CELLS {
            return Err(ParseError::new(
                s,
                format!("a board has {CELLS} cells, got {len} characters"),
            ));
        }
        let mut board = PartialBoard::empty();
        for (cell, ch) in s.chars().enumerate() {
            board.cells[cell] = match ch {
                '.' => None,
                '0'..='9' => Some(ch as u8 - b'0'),
                _ => {
                    return Err(ParseError::new(
                        s,
                        format!(
                            "unknown character {ch:?} at cell {cell} (expected a digit or '.')"
                        ),
                    ));
                }
            };
        }
        let valid: Vec<(u8, u64)> = placements().iter().map(|p| (p.piece, p.mask())).collect();
        for (piece, mask) in board.pieces() {
            let n = mask.count_ones() as usize;
            if n != PIECE_SIZE {
                return Err(ParseError::new(
                    s,
                    format!("piece {piece} covers {n} cells, not {PIECE_SIZE}"),
                ));
            }
            if !valid.contains(&(piece, mask)) {
                return Err(ParseError::new(
                    s,
                    format!("the cells of piece {piece} are not a placement of that piece"),
                ));
            }
        }
        Ok(board)
    }
}

impl fmt::Display for PartialBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in &self.cells {
            match cell {
                Some(p) => write!(f, "{p}")?,
                None => f.write_str(".")?,
            }
        }
        Ok(())
    }
}

/// A completely covered board: the piece number of every cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Solution(pub [u8; CELLS]);

impl Solution {
    /// The same solution with the board turned by 180° (cell `i` → `49 − i`).
    pub fn rotated(&self) -> Solution {
        let mut cells = self.0;
        cells.reverse();
        Solution(cells)
    }

    /// The board in the Benchmarks Game layout: one line per row, every cell
    /// followed by a space, odd rows indented by one space.
    pub fn to_grid(&self) -> String {
        let mut out = String::with_capacity(ROWS * (2 * COLS + 2));
        for (r, row) in self.0.chunks(COLS).enumerate() {
            if r % 2 == 1 {
                out.push(' ');
            }
            for &p in row {
                out.push((b'0' + p) as char);
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|&p| write!(f, "{p}"))
    }
}

impl FromStr for Solution {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let board: PartialBoard = s.parse()?;
        let mut cells = [0; CELLS];
        for (cell, out) in cells.iter_mut().enumerate() {
            *out = board
                .get(cell)
                .ok_or_else(|| ParseError::new(s, format!("cell {cell} is empty")))?;
        }
        Ok(Solution(cells))
    }
}

/// One `solve` input: find up to `limit` completions of `board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Stop once at least this many solutions were found (see [`crate::Solver`]).
    pub limit: usize,
    /// The pre-placed pieces.
    pub board: PartialBoard,
}

impl FromStr for Puzzle {
    type Err = ParseError;

    /// `N` (the empty board) or `N BOARD`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let limit = words
            .next()
            .ok_or_else(|| ParseError::new(s, "expected `N` or `N BOARD`"))?;
        let limit = limit.parse().map_err(|_| {
            ParseError::new(
                s,
                format!("the solution limit {limit:?} is not a non-negative integer"),
            )
        })?;
        let board = match words.next() {
            Some(b) => b
                .parse()
                .map_err(|e: ParseError| ParseError::new(s, e.problem))?,
            None => PartialBoard::empty(),
        };
        if words.next().is_some() {
            return Err(ParseError::new(
                s,
                "expected `N` or `N BOARD`, got more words",
            ));
        }
        Ok(Puzzle { limit, board })
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.board.is_empty() {
            write!(f, "{}", self.limit)
        } else {
            write!(f, "{} {}", self.limit, self.board)
        }
    }
}

/// What a solver found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Solutions {
    /// How many solutions were found (exact; see [`crate::Solver`] for the limit).
    pub count: usize,
    /// The smallest solution found (as a 50-digit string), `None` when `count == 0`.
    pub min: Option<Solution>,
    /// The largest solution found, `None` when `count == 0`.
    pub max: Option<Solution>,
    /// Search nodes visited: calls of the recursive search, the root included.
    pub nodes: u64,
}

impl Solutions {
    /// The Benchmarks Game output: `COUNT solutions found`, a blank line, then
    /// the smallest and the largest solution as grids, each followed by a
    /// blank line (just the first two lines when nothing was found).
    pub fn benchmark_text(&self) -> String {
        let mut out = format!("{} solutions found\n\n", self.count);
        for s in [self.min, self.max].into_iter().flatten() {
            out.push_str(&s.to_grid());
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Solutions {
    /// `COUNT MIN MAX`, with `-` for MIN and MAX when nothing was found.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (Some(min), Some(max)) => write!(f, "{} {min} {max}", self.count),
            _ => write!(f, "{} - -", self.count),
        }
    }
}
