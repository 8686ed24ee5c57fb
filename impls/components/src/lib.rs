//! Connected components (4-neighbour) of a 6×12 bitboard, in several interchangeable
//! implementations behind one [`Labeler`] trait.
//!
//! A [`Board`] holds one bit per cell in the low 72 bits of a `u128` (bit = `row * 6 + col`,
//! row 0 at the top). Every labeler writes the components as masks in canonical order (sorted
//! by lowest set bit) into a [`Components`]; [`variants`] lists them all with the oracle first.

// docs.rs labels each item with the feature or target it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

use std::fmt;
use std::str::FromStr;

mod bit_bfs;
mod bits;
mod flood;
mod groups4;
pub mod inputs;
mod naive_bfs;
mod row_table;
mod simd;
mod swar;

/// One 6×12 bitboard: bit `row * WIDTH + col` is the cell in `row` (0 = top) and `col`
/// (0 = left). Bits at and above [`Board::CELLS`] are always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board(u128);

impl Board {
    /// Number of columns.
    pub const WIDTH: usize = 6;
    /// Number of rows.
    pub const HEIGHT: usize = 12;
    /// Number of cells (`WIDTH * HEIGHT`).
    pub const CELLS: usize = 72;
    /// The mask of all valid cells.
    pub const FULL: u128 = (1 << Self::CELLS) - 1;

    /// The board with the given bits, or `None` if any bit at or above [`Board::CELLS`] is set.
    pub const fn new(bits: u128) -> Option<Board> {
        if bits & !Self::FULL == 0 {
            Some(Board(bits))
        } else {
            None
        }
    }

    /// The cells as a mask.
    pub fn bits(self) -> u128 {
        self.0
    }

    /// The board as 12 lines (top row first) of `#` (set) and `.` (empty), for error reports.
    pub fn picture(&self) -> String {
        let mut s = String::with_capacity(Self::HEIGHT * (Self::WIDTH + 1));
        for row in 0..Self::HEIGHT {
            if row > 0 {
                s.push('\n');
            }
            self.push_row(&mut s, row);
        }
        s
    }

    fn push_row(&self, s: &mut String, row: usize) {
        for col in 0..Self::WIDTH {
            let set = self.0 >> (row * Self::WIDTH + col) & 1 == 1;
            s.push(if set { '#' } else { '.' });
        }
    }
}

/// Prints the 12 rows (top first) of `#`/`.` separated by `/`, a form [`Board::from_str`] reads.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(Self::HEIGHT * (Self::WIDTH + 1));
        for row in 0..Self::HEIGHT {
            if row > 0 {
                s.push('/');
            }
            self.push_row(&mut s, row);
        }
        f.write_str(&s)
    }
}

/// Why a string is not a [`Board`]. Rows are numbered 1 to 12 from the top in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// The input is empty (or only whitespace).
    Empty,
    /// The picture form does not have 12 rows.
    RowCount(usize),
    /// A row of the picture form does not have 6 cells.
    RowLength {
        /// 1-based row number from the top.
        row: usize,
        /// Number of characters found.
        cells: usize,
    },
    /// A character other than `#`, `1`, `.`, `0` in the picture form.
    BadChar {
        /// 1-based row number from the top.
        row: usize,
        /// The offending character.
        ch: char,
    },
    /// The hex form has no digits or a non-hex character.
    BadHex,
    /// The hex form sets a bit at or above 72.
    HighBits,
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(
                f,
                "empty board: expected 12 rows separated by '/' or a 0x hex mask"
            ),
            Self::RowCount(n) => write!(f, "found {n} rows separated by '/', expected 12"),
            Self::RowLength { row, cells } => {
                write!(f, "row {row} has {cells} cells, expected 6")
            }
            Self::BadChar { row, ch } => write!(
                f,
                "bad character {ch:?} in row {row}, expected '#' or '1' (set), '.' or '0' (empty)"
            ),
            Self::BadHex => write!(f, "bad hex digits: expected 0x followed by hex digits"),
            Self::HighBits => write!(f, "bits above 71 are set: a board has only 72 cells"),
        }
    }
}

impl std::error::Error for ParseBoardError {}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Reads either the picture form (12 rows of 6 cells separated by `/`, top row first,
    /// `#`/`1` set and `.`/`0` empty) or a hex mask `0x…`. Surrounding whitespace is ignored.
    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseBoardError::Empty);
        }
        if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            return parse_hex(hex);
        }
        let rows = s.split('/').count();
        if rows != Board::HEIGHT {
            return Err(ParseBoardError::RowCount(rows));
        }
        let mut bits = 0u128;
        for (r, row) in s.split('/').enumerate() {
            let cells = row.chars().count();
            if cells != Board::WIDTH {
                return Err(ParseBoardError::RowLength { row: r + 1, cells });
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '#' | '1' => bits |= 1 << (r * Board::WIDTH + c),
                    '.' | '0' => {}
                    _ => return Err(ParseBoardError::BadChar { row: r + 1, ch }),
                }
            }
        }
        Ok(Board(bits))
    }
}

fn parse_hex(hex: &str) -> Result<Board, ParseBoardError> {
    // `from_str_radix` would accept a sign, so check the digits ourselves.
    if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ParseBoardError::BadHex);
    }
    let digits = hex.trim_start_matches('0');
    if digits.len() > 32 {
        return Err(ParseBoardError::HighBits);
    }
    let bits = u128::from_str_radix(if digits.is_empty() { "0" } else { digits }, 16)
        .map_err(|_| ParseBoardError::BadHex)?;
    Board::new(bits).ok_or(ParseBoardError::HighBits)
}

/// The most components a board can have (a checkerboard).
pub const MAX_COMPONENTS: usize = Board::CELLS / 2;

/// The components of one board: up to [`MAX_COMPONENTS`] masks, in the order pushed.
///
/// Labelers leave them in canonical order (by lowest set bit); equality compares the list.
#[derive(Clone, Copy)]
pub struct Components {
    /// The masks, then one spare slot: a labeler may write junk there (one past the last
    /// component of a full board), which lets its output loops do without branches.
    masks: [u128; MAX_COMPONENTS + 1],
    len: u8,
}

/// The spare slot of [`Components::masks`].
const SPARE: usize = MAX_COMPONENTS;

impl Components {
    /// An empty list.
    pub const fn new() -> Components {
        Components {
            masks: [0; MAX_COMPONENTS + 1],
            len: 0,
        }
    }

    /// The masks.
    pub fn as_slice(&self) -> &[u128] {
        &self.masks[..self.len as usize]
    }

    /// The number of masks.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no masks.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a mask.
    ///
    /// # Panics
    /// If the list already holds [`MAX_COMPONENTS`] masks.
    #[inline]
    pub fn push(&mut self, mask: u128) {
        assert!(
            self.len() < MAX_COMPONENTS,
            "more than {MAX_COMPONENTS} components"
        );
        self.masks[self.len as usize] = mask;
        self.len += 1;
    }

    /// Removes all masks.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Sorts the masks by lowest set bit, the canonical order.
    pub fn sort_canonical(&mut self) {
        let len = self.len as usize;
        self.masks[..len].sort_unstable_by_key(|m| m.trailing_zeros());
    }

    /// Keeps only the masks for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(u128) -> bool) {
        let mut n = 0;
        for i in 0..self.len as usize {
            let m = self.masks[i];
            if keep(m) {
                self.masks[n] = m;
                n += 1;
            }
        }
        self.len = n as u8;
    }
}

impl Default for Components {
    fn default() -> Components {
        Components::new()
    }
}

impl PartialEq for Components {
    fn eq(&self, other: &Components) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Components {}

impl fmt::Debug for Components {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.as_slice().iter().map(|m| format!("{m:#x}")))
            .finish()
    }
}

/// The spec's output form: lowercase `0x` hex masks separated by single spaces; empty for none.
impl fmt::Display for Components {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{m:#x}")?;
        }
        Ok(())
    }
}

/// A connected-components algorithm.
pub trait Labeler: Send + Sync {
    /// Overwrites `out` with the components of `board` in canonical order.
    fn label(&self, board: Board, out: &mut Components);

    /// Labels every board: `out[i]` gets the components of `boards[i]`.
    ///
    /// # Panics
    /// If `out.len() != boards.len()`.
    fn label_batch(&self, boards: &[Board], out: &mut [Components]) {
        assert_eq!(
            boards.len(),
            out.len(),
            "label_batch: boards and out differ in length"
        );
        for (&b, o) in boards.iter().zip(out.iter_mut()) {
            self.label(b, o);
        }
    }
}

/// One registered implementation.
#[derive(Clone, Copy)]
pub struct Variant {
    /// Short name, e.g. `flood`.
    pub name: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
    /// CPU features it needs (empty for portable code).
    pub features: &'static [&'static str],
    /// Builds it, or `None` when this CPU lacks `features`.
    pub make: fn() -> Option<Box<dyn Labeler>>,
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant")
            .field("name", &self.name)
            .field("features", &self.features)
            .finish_non_exhaustive()
    }
}

fn boxed<L: Labeler + 'static>(l: L) -> Option<Box<dyn Labeler>> {
    Some(Box::new(l))
}

/// Every implementation of the baseline problem, the oracle (`naive-bfs`) first, then roughly
/// slowest to fastest.
pub fn variants() -> Vec<Variant> {
    let mut v = vec![
        Variant {
            name: "naive-bfs",
            description: "textbook BFS over a 72-cell array with an explicit queue (the oracle)",
            features: &[],
            make: || boxed(naive_bfs::NaiveBfs),
        },
        Variant {
            name: "bit-bfs",
            description: "BFS per cell index over the bitboard, the seed's GetComponentsBFS",
            features: &[],
            make: || boxed(bit_bfs::BitBfs),
        },
        Variant {
            name: "row-table",
            description: "row-by-row scan with a 4096-entry two-row transition table, merges",
            features: &[],
            make: || boxed(row_table::RowTable::new()),
        },
        Variant {
            name: "flood",
            description: "lowest set bit grown by masked shifts until fixpoint, repeated",
            features: &[],
            make: || boxed(flood::Flood),
        },
        Variant {
            name: "swar",
            description: "isolated cells placed by rank, two-row component table, u64-window dilation, run fills",
            features: &[],
            make: || boxed(swar::Swar::new()),
        },
    ];
    v.extend(simd::variants());
    v
}

/// The optional `groups4` problem (Smash the Code): only components of at least 4 cells, in
/// canonical order. Its own oracle (`groups4-naive-bfs`) first, then the fast variants.
pub fn groups4_variants() -> Vec<Variant> {
    groups4::variants()
}
