//! SSE4.1 variant: one board per 128-bit register, two registers driven together.

use core::arch::x86_64::*;

use super::{Lanes, Pair};
use crate::{Board, Components, Labeler};

/// The registry's constructor: [`Sse::new`], boxed.
pub(crate) fn make() -> Option<Box<dyn Labeler>> {
    Sse::new().map(|l| Box::new(l) as Box<dyn Labeler>)
}

/// SSE4.1 labeler; exists only on CPUs with the features.
#[derive(Clone, Copy, Debug)]
pub struct Sse(());

impl Sse {
    /// `Some` when the CPU has SSE4.1, POPCNT, BMI1 and BMI2.
    pub fn new() -> Option<Sse> {
        let ok = is_x86_feature_detected!("sse4.1")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2");
        ok.then_some(Sse(()))
    }
}

#[derive(Clone, Copy)]
struct V(__m128i);

impl Lanes for V {
    const BOARDS: usize = 1;

    #[inline(always)]
    unsafe fn load(boards: &[u128]) -> V {
        // SAFETY: `boards` holds at least one u128; unaligned load.
        V(unsafe { _mm_loadu_si128(boards.as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn store(self, out: &mut [u128]) {
        assert!(!out.is_empty());
        // SAFETY: `out` holds at least one u128; unaligned store.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    unsafe fn and(self, other: V) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_and_si128(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn or(self, other: V) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_or_si128(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn xor(self, other: V) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_xor_si128(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn andnot(self, other: V) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_andnot_si128(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn add64(self, other: V) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_add_epi64(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn shl64_1(self) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_slli_epi64::<1>(self.0) })
    }

    #[inline(always)]
    unsafe fn shr64<const N: i32>(self) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_srli_epi64::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn shl_bytes<const N: i32>(self) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_slli_si128::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn shr_bytes<const N: i32>(self) -> V {
        // SAFETY: SSE2 is part of x86-64.
        V(unsafe { _mm_srli_si128::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn lowest(self) -> V {
        // SAFETY: the caller guarantees SSE4.1 (`_mm_cmpeq_epi64`).
        unsafe {
            let x = self.0;
            let low = _mm_and_si128(x, _mm_sub_epi64(_mm_setzero_si128(), x));
            // Keep the high qword's bit only when the low qword is empty.
            let lo_empty = _mm_cmpeq_epi64(x, _mm_setzero_si128());
            let lo_full = _mm_slli_si128(_mm_xor_si128(lo_empty, _mm_set1_epi8(-1)), 8);
            V(_mm_andnot_si128(lo_full, low))
        }
    }

    #[inline(always)]
    unsafe fn same(self, other: V) -> bool {
        // SAFETY: the caller guarantees SSE4.1 (`_mm_testz_si128`).
        unsafe {
            let d = _mm_xor_si128(self.0, other.0);
            _mm_testz_si128(d, d) == 1
        }
    }

    #[inline(always)]
    unsafe fn is_zero(self) -> bool {
        // SAFETY: the caller guarantees SSE4.1.
        unsafe { _mm_testz_si128(self.0, self.0) == 1 }
    }
}

/// # Safety
/// The CPU must have SSE4.1, POPCNT, BMI1 and BMI2.
#[target_feature(enable = "sse4.1,popcnt,bmi1,bmi2")]
unsafe fn batch(boards: &[Board], out: &mut [Components]) {
    // SAFETY: this function's features are the ones `label_batch::<V>` needs.
    unsafe { super::label_batch::<Pair<V>, 2>(boards, out) }
}

impl Labeler for Sse {
    fn label(&self, board: Board, out: &mut Components) {
        self.label_batch(std::slice::from_ref(&board), std::slice::from_mut(out));
    }

    fn label_batch(&self, boards: &[Board], out: &mut [Components]) {
        // SAFETY: an `Sse` exists only when `new` saw the features.
        unsafe { batch(boards, out) }
    }
}
