//! `simd`: both players of two positions per vector, lanes
//! `[p1 of a, p2 of a, p1 of b, p2 of b]`, two vectors per step. The
//! position layout keeps both players' low words adjacent, so a pair of
//! positions is two 16-byte loads, and the 8-bit result of a step indexes a
//! table of its four answers.

use std::arch::x86_64::__m256i;

use super::{CHUNK, Layout};
use crate::{Position, WinCheck};

/// Both-player AVX2 win detection; [`Avx2::new`] checks the CPU.
pub struct Avx2 {
    _detected: (),
}

impl Avx2 {
    /// `Some` when this CPU supports AVX2.
    pub fn new() -> Option<Avx2> {
        is_x86_feature_detected!("avx2").then_some(Avx2 { _detected: () })
    }
}

impl WinCheck for Avx2 {
    fn winners(&self, positions: &[Position], out: &mut [u8]) {
        // SAFETY: an `Avx2` exists only when the CPU supports AVX2.
        unsafe { super::winners::<Pairs>(positions, out) }
    }
}

/// Answers for four positions from the "lane holds no run" mask (bits 2i
/// and 2i+1: players 1 and 2 of position i), built at compile time.
const OUTPUT: [[u8; 4]; 256] = {
    let mut table = [[0; 4]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut i = 0;
        while i < 4 {
            let bits = mask >> (2 * i);
            table[mask][i] = crate::win::encode(bits & 1 == 0, bits & 2 == 0);
            i += 1;
        }
        mask += 1;
    }
    table
};

struct Pairs;

impl Layout for Pairs {
    const VECTORS: usize = 2;

    #[target_feature(enable = "avx2")]
    unsafe fn boards<const WIDE: bool>(chunk: &[Position; CHUNK]) -> ([[__m256i; 2]; 2], usize) {
        let [a, b, c, d] = chunk;
        ([super::pair::<WIDE>(a, b), super::pair::<WIDE>(c, d)], 0)
    }

    #[inline(always)]
    fn write(empty_lanes: usize, _tag: usize, out: &mut [u8; CHUNK]) {
        *out = OUTPUT[empty_lanes];
    }
}
