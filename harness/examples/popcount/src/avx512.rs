//! AVX-512 `vpopcntq` (the VPOPCNTDQ extension): eight words counted by
//! one instruction, accumulated in eight 64-bit lanes; the last words are
//! loaded under a mask. Refused where the CPU lacks the extension (and
//! under valgrind, which has no AVX-512); on other architectures this file
//! compiles to a constructor that always refuses.

use crate::Popcount;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// `vpopcntq` over eight words at a time.
pub struct Vpopcntq(());

impl Vpopcntq {
    /// `Some` when the CPU has AVX-512F and AVX-512 VPOPCNTDQ.
    pub fn new() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
        {
            return Some(Vpopcntq(()));
        }
        None
    }
}

impl Popcount for Vpopcntq {
    fn count(&self, words: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `new` checked that the CPU has both features.
        return unsafe { count(words) };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!(
            "Vpopcntq::new refuses every other architecture: {}",
            words.len()
        )
    }
}

/// Words in one 512-bit vector.
const LANES: usize = 8;

/// # Safety
/// The CPU must have AVX-512F and AVX-512 VPOPCNTDQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
unsafe fn count(words: &[u64]) -> u64 {
    let mut acc = _mm512_setzero_si512();
    let mut chunks = words.chunks_exact(LANES);
    for chunk in &mut chunks {
        // SAFETY: `chunk` holds exactly the 64 bytes read; unaligned load.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
        acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(v));
    }
    let rest = chunks.remainder();
    let mask: __mmask8 = (1u16 << rest.len()).wrapping_sub(1) as u8;
    // SAFETY: the mask enables only the `rest.len()` words that exist; the
    // masked-off lanes are not read.
    let v = unsafe { _mm512_maskz_loadu_epi64(mask, rest.as_ptr().cast()) };
    acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(v));
    _mm512_reduce_add_epi64(acc) as u64
}
