//! `simd-mover`: only the player who moved last, of four positions per
//! vector — half the work of [`super::pairs`].
//!
//! This relies on the rules, not on the board: a game stops at its first
//! win, so in any position reached by legal play (the only kind a
//! [`Position`] holds) nobody but the last mover can have K aligned.

use super::Layout;
use crate::{Position, WinCheck};

/// Last-mover AVX2 win detection; [`Avx2LastMover::new`] checks the CPU.
pub struct Avx2LastMover {
    _detected: (),
}

impl Avx2LastMover {
    /// `Some` when this CPU supports AVX2.
    pub fn new() -> Option<Avx2LastMover> {
        is_x86_feature_detected!("avx2").then_some(Avx2LastMover { _detected: () })
    }
}

impl WinCheck for Avx2LastMover {
    fn winners(&self, positions: &[Position], out: &mut [u8]) {
        // SAFETY: an `Avx2LastMover` exists only when the CPU supports AVX2.
        unsafe { super::winners::<LastMover>(positions, out) }
    }
}

struct LastMover;

/// Index (0 or 1) of the player who moved last; the empty board picks
/// player 2's board, which is empty too.
#[inline(always)]
fn last(position: &Position) -> usize {
    (position.plies() + 1) & 1
}

impl Layout for LastMover {
    const CHUNK: usize = 4;
    const VECTORS: usize = 1;

    #[inline(always)]
    fn lanes(chunk: &[Position]) -> [[[u64; 4]; 2]; 2] {
        let lo = std::array::from_fn(|i| chunk[i].low_halves()[last(&chunk[i])]);
        let hi = std::array::from_fn(|i| chunk[i].high_halves()[last(&chunk[i])]);
        [[lo, hi], [[0; 4]; 2]]
    }

    #[inline(always)]
    fn write(empty_lanes: usize, chunk: &[Position], out: &mut [u8]) {
        for (i, (position, out)) in chunk.iter().zip(out).enumerate() {
            let has_line = (empty_lanes >> i) & 1 == 0;
            *out = u8::from(has_line) * (1 + last(position) as u8);
        }
    }
}
