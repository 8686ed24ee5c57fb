//! AVX2 win detection: one player's four line directions side by side in
//! the four 64-bit lanes of a vector, so one variable shift (`vpsrlvq`)
//! advances all four shift-and chains at once.
//!
//! Boards wider than 64 bits (up to 128) keep a low and a high vector and
//! emulate the 128-bit shift with three lane shifts; `vpsrlvq`/`vpsllvq`
//! yield 0 for counts of 64 or more, which makes the emulation branch-free.
//! The CPU is checked at run time (memchr style); the module compiles to
//! nothing off x86_64.

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_setr_epi64x,
    _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64, _mm256_testz_si256,
};

use crate::config::MAX_STEPS;
use crate::{Config, Geometry, Position, WinCheck};

/// AVX2 direction-parallel win detection; [`Avx2::new`] checks the CPU.
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
        super::for_each_run(positions, out, |config, run, out| {
            let plan = Plan::new(config);
            if config.fits_u64() {
                // SAFETY: an `Avx2` exists only when the CPU supports AVX2.
                unsafe { check_run::<false>(&plan, run, out) }
            } else {
                // SAFETY: as above.
                unsafe { check_run::<true>(&plan, run, out) }
            }
        });
    }
}

/// The shift schedule of one configuration as lane counts: per step, the
/// right shift `s` of each direction, and `64 - s` and `s - 64` (wrapping,
/// so out-of-range counts shift everything out) for the 128-bit emulation.
struct Plan {
    steps: usize,
    counts: [[[u64; 4]; 3]; MAX_STEPS],
}

impl Plan {
    fn new(config: Config) -> Plan {
        // The shift amounts depend only on the configuration, not the word.
        let geo = Geometry::<u128>::new(config);
        let mut counts = [[[0; 4]; 3]; MAX_STEPS];
        for (step, shifts) in counts.iter_mut().zip(&geo.shifts[..geo.steps]) {
            let s = shifts.map(u64::from);
            *step = [
                s,
                s.map(|s| 64u64.wrapping_sub(s)),
                s.map(|s| s.wrapping_sub(64)),
            ];
        }
        Plan {
            steps: geo.steps,
            counts,
        }
    }
}

/// Lanes from four counts (the casts keep the bits).
#[target_feature(enable = "avx2")]
fn lanes(v: [u64; 4]) -> __m256i {
    _mm256_setr_epi64x(v[0] as i64, v[1] as i64, v[2] as i64, v[3] as i64)
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn check_run<const WIDE: bool>(plan: &Plan, positions: &[Position], out: &mut [u8]) {
    let mut steps = [[_mm256_setzero_si256(); 3]; MAX_STEPS];
    for (vectors, counts) in steps.iter_mut().zip(&plan.counts[..plan.steps]) {
        for (v, c) in vectors.iter_mut().zip(counts) {
            *v = lanes(*c);
        }
    }
    let steps = &steps[..plan.steps];
    for (position, out) in positions.iter().zip(out) {
        let lo = position.low_halves();
        let hi = position.high_halves();
        let mut p1 = [_mm256_set1_epi64x(lo[0] as i64), _mm256_setzero_si256()];
        let mut p2 = [_mm256_set1_epi64x(lo[1] as i64), _mm256_setzero_si256()];
        if WIDE {
            p1[1] = _mm256_set1_epi64x(hi[0] as i64);
            p2[1] = _mm256_set1_epi64x(hi[1] as i64);
        }
        for counts in steps {
            p1 = and_shifted::<WIDE>(p1, counts);
            p2 = and_shifted::<WIDE>(p2, counts);
        }
        *out = super::encode(any::<WIDE>(p1), any::<WIDE>(p2));
    }
}

/// Whether some lane of the board (both halves when `WIDE`) is non-zero.
#[target_feature(enable = "avx2")]
fn any<const WIDE: bool>([lo, hi]: [__m256i; 2]) -> bool {
    let v = if WIDE { _mm256_or_si256(lo, hi) } else { lo };
    _mm256_testz_si256(v, v) == 0
}

/// `m & (m >> s)` lane-wise on `[low, high]` halves of 128-bit boards (only
/// the low half when not `WIDE`).
#[target_feature(enable = "avx2")]
fn and_shifted<const WIDE: bool>(
    [lo, hi]: [__m256i; 2],
    [right, left, down]: &[__m256i; 3],
) -> [__m256i; 2] {
    if !WIDE {
        return [_mm256_and_si256(lo, _mm256_srlv_epi64(lo, *right)), hi];
    }
    let lo_shifted = _mm256_or_si256(
        _mm256_srlv_epi64(lo, *right),
        _mm256_or_si256(_mm256_sllv_epi64(hi, *left), _mm256_srlv_epi64(hi, *down)),
    );
    [
        _mm256_and_si256(lo, lo_shifted),
        _mm256_and_si256(hi, _mm256_srlv_epi64(hi, *right)),
    ]
}
