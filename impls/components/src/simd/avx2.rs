//! AVX2 variant: two boards per 256-bit register, one in each 128-bit lane (the byte shifts
//! of AVX2 work per 128-bit lane, exactly the vertical move a board needs), and two registers
//! driven together.

use core::arch::x86_64::*;

use super::{Lanes, Pair};
use crate::{Board, Components, Labeler};

/// The registry's constructor: [`Avx2::new`], boxed.
pub(crate) fn make() -> Option<Box<dyn Labeler>> {
    Avx2::new().map(|l| Box::new(l) as Box<dyn Labeler>)
}

/// AVX2 labeler; exists only on CPUs with the features.
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

impl Avx2 {
    /// `Some` when the CPU has AVX2, POPCNT, BMI1 and BMI2.
    pub fn new() -> Option<Avx2> {
        let ok = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2");
        ok.then_some(Avx2(()))
    }
}

#[derive(Clone, Copy)]
struct V(__m256i);

impl Lanes for V {
    const BOARDS: usize = 2;

    #[inline(always)]
    unsafe fn load(boards: &[u128]) -> V {
        assert!(boards.len() >= 2);
        // SAFETY: two u128 are readable; unaligned load; the caller guarantees AVX2.
        V(unsafe { _mm256_loadu_si256(boards.as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn store(self, out: &mut [u128]) {
        assert!(out.len() >= 2);
        // SAFETY: two u128 are writable; unaligned store; the caller guarantees AVX2.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    unsafe fn and(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_and_si256(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn or(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_or_si256(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn xor(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_xor_si256(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn andnot(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_andnot_si256(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn add64(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_add_epi64(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn shl64_1(self) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_slli_epi64::<1>(self.0) })
    }

    #[inline(always)]
    unsafe fn shr64<const N: i32>(self) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_srli_epi64::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn shl_bytes<const N: i32>(self) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_slli_si256::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn shr_bytes<const N: i32>(self) -> V {
        // SAFETY: the caller guarantees AVX2.
        V(unsafe { _mm256_srli_si256::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn lowest(self) -> V {
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            let x = self.0;
            let low = _mm256_and_si256(x, _mm256_sub_epi64(_mm256_setzero_si256(), x));
            // Per board, keep the high qword's bit only when the low qword is empty.
            let lo_empty = _mm256_cmpeq_epi64(x, _mm256_setzero_si256());
            let lo_full = _mm256_slli_si256(_mm256_xor_si256(lo_empty, _mm256_set1_epi8(-1)), 8);
            V(_mm256_andnot_si256(lo_full, low))
        }
    }

    #[inline(always)]
    unsafe fn same(self, other: V) -> bool {
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            let d = _mm256_xor_si256(self.0, other.0);
            _mm256_testz_si256(d, d) == 1
        }
    }

    #[inline(always)]
    unsafe fn is_zero(self) -> bool {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_testz_si256(self.0, self.0) == 1 }
    }
}

/// # Safety
/// The CPU must have AVX2, POPCNT, BMI1 and BMI2.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn batch(boards: &[Board], out: &mut [Components]) {
    // SAFETY: this function's features are the ones `label_batch::<V>` needs.
    unsafe { super::label_batch::<Pair<V>, 4>(boards, out) }
}

impl Labeler for Avx2 {
    fn label(&self, board: Board, out: &mut Components) {
        self.label_batch(std::slice::from_ref(&board), std::slice::from_mut(out));
    }

    fn label_batch(&self, boards: &[Board], out: &mut [Components]) {
        // SAFETY: an `Avx2` exists only when `new` saw the features.
        unsafe { batch(boards, out) }
    }
}
