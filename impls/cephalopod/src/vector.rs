//! Vectors of `u32` lanes, one board a lane, for the kernels that work on
//! a batch of boards at once (`vecmoves`, `dihedral::vector`): written once
//! against [`Lanes`], compiled for AVX2 (8 lanes) and AVX-512 (16 lanes).
//!
//! A value of [`Avx2`] or [`Avx512`] exists only once its features were
//! detected, so its methods are safe; they inline into callers compiled
//! for the same features (a generic kernel instantiated inside a
//! `#[target_feature]` function).

use core::arch::x86_64::*;

/// Lane-wise operations on a vector of `u32`s.
pub(crate) trait Lanes: Copy {
    type V: Copy;
    /// The lanes in a vector.
    const LANES: usize;
    fn splat(self, v: u32) -> Self::V;
    /// `0, 1, 2, ...` plus `first`.
    fn iota(self, first: u32) -> Self::V;
    /// Loads `Self::LANES` values from the start of `src`.
    fn load(self, src: &[u32]) -> Self::V;
    /// Stores the lanes to the start of `dst`.
    fn store(self, dst: &mut [u32], v: Self::V);
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// `!a & b`.
    fn andnot(self, a: Self::V, b: Self::V) -> Self::V;
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    fn sub(self, a: Self::V, b: Self::V) -> Self::V;
    fn mul(self, a: Self::V, b: Self::V) -> Self::V;
    fn min(self, a: Self::V, b: Self::V) -> Self::V;
    /// Shifts left by `n` (0..32).
    fn shl(self, a: Self::V, n: u32) -> Self::V;
    /// Shifts right by `n` (0..32), filling with zeros.
    fn shr(self, a: Self::V, n: u32) -> Self::V;
    /// All ones in the lanes where `a == b`, zero elsewhere.
    fn eq(self, a: Self::V, b: Self::V) -> Self::V;
    /// Whether any bit is set.
    fn any(self, a: Self::V) -> bool;
    /// Bit `l` set where lane `l` of `a` has bit `bit` set.
    fn bit_mask(self, a: Self::V, bit: u32) -> u32;
    /// Stores the lanes of `a` whose bit is set in `mask`, in order, from
    /// `dst` on; it may write all `Self::LANES` places.
    ///
    /// # Safety
    /// `dst` must be valid for writes of `Self::LANES` values.
    unsafe fn compress_store(self, dst: *mut u32, a: Self::V, mask: u32);
}

/// AVX2 and POPCNT, detected.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

impl Avx2 {
    pub(crate) fn new() -> Option<Avx2> {
        (is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")).then_some(Avx2(()))
    }
}

/// `COMPRESS[m]`: the indices of the set bits of `m`, lowest first, as
/// bytes (the rest 0): the `vpermd` order that packs the lanes of `m`.
static COMPRESS: [[u8; 8]; 256] = {
    let mut t = [[0; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if m >> bit & 1 != 0 {
                t[m][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        m += 1;
    }
    t
};

// An `Avx2` exists only on a CPU with AVX2 and POPCNT (`Avx2::new`), which
// the blocks below rely on; loads and stores are bounds-checked first, but
// for `compress_store`, whose caller vouches for `dst`.
impl Lanes for Avx2 {
    type V = __m256i;
    const LANES: usize = 8;
    #[inline(always)]
    fn splat(self, v: u32) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_set1_epi32(v as i32) }
    }
    #[inline(always)]
    fn iota(self, first: u32) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_add_epi32(self.splat(first), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)) }
    }
    #[inline(always)]
    fn load(self, src: &[u32]) -> __m256i {
        let src = &src[..8];
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32], v: __m256i) {
        let dst = &mut dst[..8];
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_and_si256(a, b) }
    }
    #[inline(always)]
    fn or(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_or_si256(a, b) }
    }
    #[inline(always)]
    fn andnot(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_andnot_si256(a, b) }
    }
    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_sub_epi32(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_mullo_epi32(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_min_epu32(a, b) }
    }
    #[inline(always)]
    fn shl(self, a: __m256i, n: u32) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_sll_epi32(a, _mm_cvtsi32_si128(n as i32)) }
    }
    #[inline(always)]
    fn shr(self, a: __m256i, n: u32) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_srl_epi32(a, _mm_cvtsi32_si128(n as i32)) }
    }
    #[inline(always)]
    fn eq(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_cmpeq_epi32(a, b) }
    }
    #[inline(always)]
    fn any(self, a: __m256i) -> bool {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_testz_si256(a, a) == 0 }
    }
    #[inline(always)]
    fn bit_mask(self, a: __m256i, bit: u32) -> u32 {
        // The bit moved to the sign, which `vmovmskps` gathers.
        let top = self.shl(a, 31 - bit);
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(top)) as u32 }
    }
    #[inline(always)]
    unsafe fn compress_store(self, dst: *mut u32, a: __m256i, mask: u32) {
        let order = &COMPRESS[mask as usize & 0xff];
        // SAFETY: `self` exists only where its features were detected, and
        // the caller guarantees `dst` takes 8 values.
        unsafe {
            let order = _mm256_cvtepu8_epi32(_mm_loadl_epi64(order.as_ptr().cast()));
            _mm256_storeu_si256(dst.cast(), _mm256_permutevar8x32_epi32(a, order));
        }
    }
}

/// AVX-512 F, with AVX2 and POPCNT, detected.
#[derive(Clone, Copy)]
pub(crate) struct Avx512(());

impl Avx512 {
    pub(crate) fn new() -> Option<Avx512> {
        (is_x86_feature_detected!("avx512f") && Avx2::new().is_some()).then_some(Avx512(()))
    }
}

// An `Avx512` exists only on a CPU with AVX-512 F (`Avx512::new`), which
// the blocks below rely on; loads and stores are bounds-checked first, but
// for `compress_store`, whose caller vouches for `dst`.
impl Lanes for Avx512 {
    type V = __m512i;
    const LANES: usize = 16;
    #[inline(always)]
    fn splat(self, v: u32) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_set1_epi32(v as i32) }
    }
    #[inline(always)]
    fn iota(self, first: u32) -> __m512i {
        let lanes =
            // SAFETY: `self` exists only where its features were detected.
            unsafe { _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) };
        self.add(self.splat(first), lanes)
    }
    #[inline(always)]
    fn load(self, src: &[u32]) -> __m512i {
        let src = &src[..16];
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32], v: __m512i) {
        let dst = &mut dst[..16];
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn or(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_or_si512(a, b) }
    }
    #[inline(always)]
    fn andnot(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_andnot_si512(a, b) }
    }
    #[inline(always)]
    fn xor(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_sub_epi32(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_mullo_epi32(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_min_epu32(a, b) }
    }
    #[inline(always)]
    fn shl(self, a: __m512i, n: u32) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_sll_epi32(a, _mm_cvtsi32_si128(n as i32)) }
    }
    #[inline(always)]
    fn shr(self, a: __m512i, n: u32) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_srl_epi32(a, _mm_cvtsi32_si128(n as i32)) }
    }
    #[inline(always)]
    fn eq(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_maskz_mov_epi32(_mm512_cmpeq_epi32_mask(a, b), self.splat(!0)) }
    }
    #[inline(always)]
    fn any(self, a: __m512i) -> bool {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { _mm512_test_epi32_mask(a, a) != 0 }
    }
    #[inline(always)]
    fn bit_mask(self, a: __m512i, bit: u32) -> u32 {
        // SAFETY: `self` exists only where its features were detected.
        unsafe { u32::from(_mm512_test_epi32_mask(a, self.splat(1 << bit))) }
    }
    #[inline(always)]
    unsafe fn compress_store(self, dst: *mut u32, a: __m512i, mask: u32) {
        // Packed in a register, then stored whole: the store form of
        // `vpcompressd` is slow on some CPUs (Zen 4).
        // SAFETY: `self` exists only where its features were detected, and
        // the caller guarantees `dst` takes 16 values.
        unsafe {
            let packed = _mm512_maskz_compress_epi32(mask as u16, a);
            _mm512_storeu_si512(dst.cast(), packed);
        }
    }
}
