//! AVX-512 variant: four boards per 512-bit register, one in each 128-bit lane. Mask registers
//! make the per-board lowest-bit selection and the fixpoint test single instructions.

use core::arch::x86_64::*;

use super::Lanes;
use crate::{Board, Components, Labeler};

/// The registry's constructor: [`Avx512::new`], boxed.
pub(crate) fn make() -> Option<Box<dyn Labeler>> {
    Avx512::new().map(|l| Box::new(l) as Box<dyn Labeler>)
}

/// AVX-512 labeler; exists only on CPUs with the features.
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

impl Avx512 {
    /// `Some` when the CPU has AVX-512 F and BW, POPCNT, BMI1 and BMI2.
    pub fn new() -> Option<Avx512> {
        let ok = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2");
        ok.then_some(Avx512(()))
    }
}

#[derive(Clone, Copy)]
struct V(__m512i);

/// Mask bits of the low qword of each 128-bit lane.
const LOW_QWORDS: __mmask8 = 0x55;

impl Lanes for V {
    const BOARDS: usize = 4;

    #[inline(always)]
    unsafe fn load(boards: &[u128]) -> V {
        assert!(boards.len() >= 4);
        // SAFETY: four u128 are readable; unaligned load; the caller guarantees AVX-512F.
        V(unsafe { _mm512_loadu_si512(boards.as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn store(self, out: &mut [u128]) {
        assert!(out.len() >= 4);
        // SAFETY: four u128 are writable; unaligned store; the caller guarantees AVX-512F.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    unsafe fn and(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX-512F and BW.
        V(unsafe { _mm512_and_si512(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn or(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX-512F and BW.
        V(unsafe { _mm512_or_si512(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn xor(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX-512F and BW.
        V(unsafe { _mm512_xor_si512(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn andnot(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX-512F and BW.
        V(unsafe { _mm512_andnot_si512(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn add64(self, other: V) -> V {
        // SAFETY: the caller guarantees AVX-512F.
        V(unsafe { _mm512_add_epi64(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn shl64_1(self) -> V {
        // SAFETY: the caller guarantees AVX-512F.
        V(unsafe { _mm512_slli_epi64::<1>(self.0) })
    }

    #[inline(always)]
    unsafe fn shr64<const N: i32>(self) -> V {
        // SAFETY: the caller guarantees AVX-512F.
        // The immediate form takes a `u32` count; the count-register form takes any.
        V(unsafe { _mm512_srl_epi64(self.0, _mm_cvtsi32_si128(N)) })
    }

    #[inline(always)]
    unsafe fn shl_bytes<const N: i32>(self) -> V {
        // SAFETY: the caller guarantees AVX-512BW.
        V(unsafe { _mm512_bslli_epi128::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn shr_bytes<const N: i32>(self) -> V {
        // SAFETY: the caller guarantees AVX-512BW.
        V(unsafe { _mm512_bsrli_epi128::<N>(self.0) })
    }

    #[inline(always)]
    unsafe fn lowest(self) -> V {
        // SAFETY: the caller guarantees AVX-512F.
        unsafe {
            let x = self.0;
            let low = _mm512_and_si512(x, _mm512_sub_epi64(_mm512_setzero_si512(), x));
            // Per board, keep the high qword only when the low qword is empty.
            let full = _mm512_test_epi64_mask(x, x);
            let keep = full & !((full & LOW_QWORDS) << 1);
            V(_mm512_maskz_mov_epi64(keep, low))
        }
    }

    #[inline(always)]
    unsafe fn same(self, other: V) -> bool {
        // SAFETY: the caller guarantees AVX-512F.
        unsafe { _mm512_cmpneq_epi64_mask(self.0, other.0) == 0 }
    }

    #[inline(always)]
    unsafe fn is_zero(self) -> bool {
        // SAFETY: the caller guarantees AVX-512F.
        unsafe { _mm512_test_epi64_mask(self.0, self.0) == 0 }
    }
}

/// # Safety
/// The CPU must have AVX-512 F and BW, POPCNT, BMI1 and BMI2.
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2")]
unsafe fn batch(boards: &[Board], out: &mut [Components]) {
    // SAFETY: this function's features are the ones `label_batch::<V>` needs.
    unsafe { super::label_batch::<V, 4>(boards, out) }
}

impl Labeler for Avx512 {
    fn label(&self, board: Board, out: &mut Components) {
        self.label_batch(std::slice::from_ref(&board), std::slice::from_mut(out));
    }

    fn label_batch(&self, boards: &[Board], out: &mut [Components]) {
        // SAFETY: an `Avx512` exists only when `new` saw the features.
        unsafe { batch(boards, out) }
    }
}
