//! The AVX2 steps `simd` and `front` share: the canonical form of a board
//! from its 8 images in one vector, and 8 counts (or ring sums) permuted
//! from one orientation to another and added in one `vpermd`.
//!
//! Every function needs AVX2; callers hold a value that only exists once it
//! was detected, and reach these through code compiled for AVX2, where they
//! inline.

use core::arch::x86_64::*;

use crate::dihedral::mirror;
use crate::packed::RING_BITS;

/// [`crate::dihedral::canonical`] with the 8 images in one vector: lanes
/// 0..4 turn the board 0..4 quarter turns, lanes 4..8 its mirror image.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn canonical(x: u32) -> (u32, u32) {
    let ring = (x & RING_BITS) as i32;
    let mirrored = (mirror(x) & RING_BITS) as i32;
    let centre = (x & !RING_BITS) as i32;
    let rings = _mm256_setr_epi32(
        ring, ring, ring, ring, mirrored, mirrored, mirrored, mirrored,
    );
    let up = _mm256_sllv_epi32(rings, _mm256_setr_epi32(0, 6, 12, 18, 0, 6, 12, 18));
    let down = _mm256_srlv_epi32(rings, _mm256_setr_epi32(24, 18, 12, 6, 24, 18, 12, 6));
    let turned = _mm256_and_si256(
        _mm256_or_si256(up, down),
        _mm256_set1_epi32(RING_BITS as i32),
    );
    let images = _mm256_or_si256(turned, _mm256_set1_epi32(centre));
    // The symmetry index rides in the 3 low bits, as in the scalar version,
    // so the minimum carries it along.
    let keys = _mm256_or_si256(
        _mm256_slli_epi32::<3>(images),
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
    );
    let m = _mm_min_epu32(
        _mm256_castsi256_si128(keys),
        _mm256_extracti128_si256::<1>(keys),
    );
    let m = _mm_min_epu32(m, _mm_shuffle_epi32::<0b01_00_11_10>(m));
    let m = _mm_min_epu32(m, _mm_shuffle_epi32::<0b10_11_00_01>(m));
    let best = _mm_cvtsi128_si32(m) as u32;
    (best >> 3, best & 7)
}

/// `acc[u] += value[from[u]]` for all 8 lanes, wrapping.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn add_permuted(acc: &mut [u32; 8], value: &[u32; 8], from: &[u32; 8]) {
    // SAFETY: each pointer covers 8 `u32`s, as the unaligned 32-byte loads
    // and store need.
    unsafe {
        let from = _mm256_loadu_si256(from.as_ptr().cast());
        let value = _mm256_loadu_si256(value.as_ptr().cast());
        let sum = _mm256_add_epi32(
            _mm256_loadu_si256(acc.as_ptr().cast()),
            _mm256_permutevar8x32_epi32(value, from),
        );
        _mm256_storeu_si256(acc.as_mut_ptr().cast(), sum);
    }
}

/// `Σ_t counts[t] · rows[t]`, lane-wise and wrapping: 8 broadcasts,
/// multiplications and adds where the scalar loop takes 64 of each.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn combine(counts: &[u32; 8], rows: &[[u32; 8]; 8]) -> [u32; 8] {
    let mut sum = _mm256_setzero_si256();
    for (&n, row) in counts.iter().zip(rows) {
        // SAFETY: `row` covers 8 `u32`s, as the unaligned load needs.
        let row = unsafe { _mm256_loadu_si256(row.as_ptr().cast()) };
        sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(_mm256_set1_epi32(n as i32), row));
    }
    let mut out = [0; 8];
    // SAFETY: `out` covers 8 `u32`s, as the unaligned store needs.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), sum) };
    out
}

/// `Σ_pos field(b, pos) · weights[pos]` over the 8 ring fields of the
/// packed board `b` (positions 0..8), wrapping.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn ring_dot(b: u32, weights: &[u32; 8]) -> u32 {
    let shifts = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
    let fields = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_set1_epi32(b as i32), shifts),
        _mm256_set1_epi32(7),
    );
    // SAFETY: `weights` covers 8 `u32`s, as the unaligned load needs.
    let weights = unsafe { _mm256_loadu_si256(weights.as_ptr().cast()) };
    let products = _mm256_mullo_epi32(fields, weights);
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(products),
        _mm256_extracti128_si256::<1>(products),
    );
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
    let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
    _mm_cvtsi128_si32(one) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dihedral;

    #[test]
    fn matches_scalar_helpers() {
        if !is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..10_000 {
            x = x.wrapping_mul(0x9E37_79B9).wrapping_add(12345);
            let b = (0..9).fold(0, |b, pos| b | ((x >> (3 * pos)) % 7) << (3 * pos));
            // SAFETY: AVX2 was detected above.
            assert_eq!(unsafe { canonical(b) }, dihedral::canonical(b), "{b:o}");
            let value: [u32; 8] = std::array::from_fn(|u| x.rotate_left(4 * u as u32));
            let from: [u32; 8] = std::array::from_fn(|u| (x >> (3 * u)) & 7);
            let mut acc = [x; 8];
            // SAFETY: AVX2 was detected above.
            unsafe { add_permuted(&mut acc, &value, &from) };
            let want: [u32; 8] = std::array::from_fn(|u| x.wrapping_add(value[from[u] as usize]));
            assert_eq!(acc, want, "{x:x}");
        }
    }
}
