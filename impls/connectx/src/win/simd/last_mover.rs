//! `simd-mover`: only the player who moved last, of four positions per
//! vector — half the shift work of [`super::pairs`].
//!
//! This relies on the rules, not on the board: a game stops at its first
//! win, so in any position reached by legal play (the only kind a
//! [`Position`] holds) nobody but the last mover can have K aligned. The
//! positions are loaded as player pairs like [`super::pairs`] and the
//! movers' boards picked out with one lane permutation per pair of
//! positions, chosen by the four plies' parities.

use std::arch::x86_64::{
    __m256i, _mm256_blend_epi32, _mm256_permutevar8x32_epi32, _mm256_setr_epi32,
};

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

/// Bit i set when position i of a chunk has an odd ply count: player 1
/// moved last (the empty board counts as player 2's, whose board is empty).
#[inline(always)]
fn odd_plies(chunk: &[Position]) -> usize {
    chunk
        .iter()
        .enumerate()
        .fold(0, |bits, (i, p)| bits | ((p.plies() & 1) << i))
}

/// Per parity pattern, the 32-bit lane indices that move each position's
/// mover word into lane i: positions 0 and 2 sit in lanes 0-1 of their
/// pair vector, positions 1 and 3 in lanes 2-3; player 1 first.
const PICK: [[i32; 8]; 16] = {
    let mut table = [[0; 8]; 16];
    let mut odd = 0;
    while odd < 16 {
        let mut i = 0;
        while i < 4 {
            let lane = 2 * (i % 2) + if odd >> i & 1 == 1 { 0 } else { 1 };
            table[odd][2 * i] = 2 * lane as i32;
            table[odd][2 * i + 1] = 2 * lane as i32 + 1;
            i += 1;
        }
        odd += 1;
    }
    table
};

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
    unsafe fn boards<const WIDE: bool>(chunk: &[Position]) -> [[__m256i; 2]; 2] {
        let [ab, cd] = [
            super::pair::<WIDE>(&chunk[0], &chunk[1]),
            super::pair::<WIDE>(&chunk[2], &chunk[3]),
        ];
        let p = &PICK[odd_plies(chunk)];
        let pick = _mm256_setr_epi32(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
        // Lanes 0-1 from the first pair, 2-3 from the second.
        let movers = |ab: __m256i, cd: __m256i| {
            _mm256_blend_epi32::<0b1111_0000>(
                _mm256_permutevar8x32_epi32(ab, pick),
                _mm256_permutevar8x32_epi32(cd, pick),
            )
        };
        let lo = movers(ab[0], cd[0]);
        let hi = if WIDE { movers(ab[1], cd[1]) } else { ab[1] };
        [[lo, hi], [lo, hi]]
    }

    #[inline(always)]
    fn write(empty_lanes: usize, chunk: &[Position], out: &mut [u8]) {
        out.copy_from_slice(&OUTPUT[empty_lanes | odd_plies(chunk) << 4]);
    }
}
