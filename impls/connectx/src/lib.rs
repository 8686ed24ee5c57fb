//! ConnectX (Connect Four on any W×H board, K in a row): win detection and
//! perft kernels, from Kaggle's list-board functions to bitboards and SIMD.
//!
//! Two kernels share one [`Position`] type: [`WinCheck`] says who has K
//! aligned in a batch of positions (0, 1 or 2), and [`Perft`] counts move
//! sequences. Each kernel has a registry ([`variants`], [`perft_variants`])
//! listing its implementations, the oracle first.
//!
//! Boards up to `W*(H+1) <= 128` bits are supported; every bitboard algorithm
//! is written once over the [`Bits`] word trait and runs on `u64` when the
//! board fits (the fast path), on `u128` otherwise.
//!
//! A [`Position`] stores both players' bitboards ready-made, so the kernels
//! measure win detection, not parsing; the `kaggle-list` oracle converts them
//! to Kaggle's list board inside its timed call (an agent receives a list
//! board, and the conversion is a small part of its cost). Positions can only
//! be built by legal play, so at most the player who moved last has K
//! aligned; `simd-mover` relies on that, every other variant checks both.

// docs.rs labels each item with the feature or target it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod bits;
mod config;
pub mod inputs;
pub mod kaggle;
pub mod perft;
mod position;
pub mod win;

use std::fmt;

pub use bits::Bits;
pub use config::{Config, Geometry};
pub use position::{MoveError, PerftInput, Position};

/// An input error: a one-line message naming the input and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    input: String,
    reason: String,
}

impl Error {
    fn new(input: impl Into<String>, reason: impl Into<String>) -> Error {
        Error {
            input: input.into(),
            reason: reason.into(),
        }
    }

    /// What is wrong, without the input.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Debug quoting escapes newlines, keeping the message on one line.
        write!(f, "{:?}: {}", self.input, self.reason)
    }
}

impl std::error::Error for Error {}

/// Batch win detection.
pub trait WinCheck: Send + Sync {
    /// Writes, for each position, who has K stones aligned: `0` nobody, `1`
    /// or `2` that player. Positions may mix configurations.
    ///
    /// # Panics
    /// When `positions` and `out` differ in length.
    fn winners(&self, positions: &[Position], out: &mut [u8]);

    /// [`winners`](WinCheck::winners) for one position.
    fn winner(&self, position: &Position) -> u8 {
        let mut out = [0];
        self.winners(std::slice::from_ref(position), &mut out);
        out[0]
    }
}

/// Perft: counts move sequences (see [`perft`] for the definition).
pub trait Perft: Send + Sync {
    /// The number of legal move sequences of length `depth` from `position`
    /// in which no proper prefix ended the game.
    fn perft(&self, position: &Position, depth: u32) -> u64;
}

/// A registered [`WinCheck`] implementation.
pub struct Variant {
    /// Short name, as used on the command line.
    pub name: &'static str,
    /// One line: the idea.
    pub description: &'static str,
    /// CPU features the variant needs (empty for portable code).
    pub features: &'static [&'static str],
    /// Builds the kernel; `None` when this CPU lacks `features`.
    pub make: fn() -> Option<Box<dyn WinCheck>>,
}

/// A registered [`Perft`] implementation.
pub struct PerftVariant {
    /// Short name, as used on the command line.
    pub name: &'static str,
    /// One line: the idea.
    pub description: &'static str,
    /// CPU features the variant needs (empty for portable code).
    pub features: &'static [&'static str],
    /// Builds the kernel; `None` when this CPU lacks `features`.
    pub make: fn() -> Option<Box<dyn Perft>>,
}

/// Every win detection variant: the oracle (`kaggle-list`) first, then
/// roughly slowest to fastest.
pub fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "kaggle-list",
            description: "Kaggle's list board and is_win line counting through every stone (oracle)",
            features: &[],
            make: || Some(Box::new(win::kaggle_list::KaggleList)),
        },
        Variant {
            name: "gameover-masks",
            description: "every winning line as a precomputed mask; a win is (stones & m) == m",
            features: &[],
            make: || Some(Box::new(win::gameover_masks::GameoverMasks)),
        },
        Variant {
            name: "shift",
            description: "Tromp/Pons shift-and in four directions, log-doubling the run to K (BMI2 build when the CPU has it)",
            features: &[],
            make: || Some(Box::new(win::shift::Shift::new())),
        },
        // The AVX2 variants are listed off x86-64 too, unavailable there by
        // their feature names.
        Variant {
            name: "simd",
            description: "AVX2: both players of two positions in the four lanes, shift-and in step",
            features: &["avx2"],
            #[cfg(target_arch = "x86_64")]
            make: || win::simd::pairs::Avx2::new().map(|k| Box::new(k) as Box<dyn WinCheck>),
            #[cfg(not(target_arch = "x86_64"))]
            make: || None,
        },
        Variant {
            name: "simd-mover",
            description: "AVX2: only the last mover (nobody else can have a line), four positions a vector",
            features: &["avx2"],
            #[cfg(target_arch = "x86_64")]
            make: || {
                win::simd::last_mover::Avx2LastMover::new()
                    .map(|k| Box::new(k) as Box<dyn WinCheck>)
            },
            #[cfg(not(target_arch = "x86_64"))]
            make: || None,
        },
    ]
}

/// Every perft variant: the oracle (`list`) first, then faster ones.
pub fn perft_variants() -> Vec<PerftVariant> {
    vec![
        PerftVariant {
            name: "list",
            description: "Kaggle's list board: play, is_win through the last stone, undo (oracle)",
            features: &[],
            make: || Some(Box::new(perft::list::List)),
        },
        PerftVariant {
            name: "bitboard",
            description: "bitboards: mask + bottom move generation, shift win test, every move played",
            features: &[],
            make: || Some(Box::new(perft::bitboard::Bitboard)),
        },
        PerftVariant {
            name: "bitboard-bulk",
            description: "bitboards, the last ply counted with a popcount instead of played",
            features: &[],
            make: || Some(Box::new(perft::bitboard_bulk::BitboardBulk)),
        },
        PerftVariant {
            name: "bitboard-threats",
            description: "bitboards, one winning-cell mask per node; the last two plies counted, not played",
            features: &[],
            make: || Some(Box::new(perft::bitboard_threats::BitboardThreats)),
        },
    ]
}
