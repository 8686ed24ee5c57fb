//! `simd-mover`: only the player who moved last, of four positions per
//! vector — half the shift work of [`super::pairs`].
//!
//! This relies on the rules, not on the board: a game stops at its first
//! win, so in any position reached by legal play (the only kind a
//! [`Position`] holds) nobody but the last mover can have K aligned. The
//! four positions' words are regrouped into a vector of player 1 boards,
//! one of player 2 boards and one of ply counts, and a blend on the ply
//! parity picks each lane's mover: no scalar work per position.

use std::arch::x86_64::{
    __m256i, _mm256_blendv_pd, _mm256_castpd_si256, _mm256_castsi256_pd, _mm256_movemask_pd,
    _mm256_setzero_si256,
};

use super::{CHUNK, Layout};
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

/// Answers from the empty-lane mask (bits 0-3) and the parities (bits
/// 4-7): a lane with a line belongs to player 1 on odd plies, else 2.
const OUTPUT: [[u8; 4]; 256] = {
    let mut table = [[0; 4]; 256];
    let mut index = 0;
    while index < 256 {
        let mut i = 0;
        while i < 4 {
            let has_line = index >> i & 1 == 0;
            let odd = index >> (4 + i) & 1 == 1;
            table[index][i] = if !has_line {
                0
            } else if odd {
                1
            } else {
                2
            };
            i += 1;
        }
        index += 1;
    }
    table
};

struct LastMover;

impl Layout for LastMover {
    const VECTORS: usize = 1;

    #[target_feature(enable = "avx2")]
    unsafe fn boards<const WIDE: bool>(chunk: &[Position; CHUNK]) -> ([[__m256i; 2]; 2], usize) {
        // The last word's sign bit is the ply parity (odd: player 1 moved
        // last), which is what `blendv` selects on.
        let odd = _mm256_castsi256_pd(super::metas(chunk));
        let mover = |[p1, p2]: [__m256i; 2]| {
            _mm256_castpd_si256(_mm256_blendv_pd(
                _mm256_castsi256_pd(p2),
                _mm256_castsi256_pd(p1),
                odd,
            ))
        };
        let lo = mover(super::players::<0>(chunk));
        let hi = if WIDE {
            mover(super::players::<2>(chunk))
        } else {
            _mm256_setzero_si256()
        };
        ([[lo, hi]; 2], _mm256_movemask_pd(odd) as usize)
    }

    #[inline(always)]
    fn write(empty_lanes: usize, odd: usize, out: &mut [u8; CHUNK]) {
        *out = OUTPUT[empty_lanes | odd << 4];
    }
}
