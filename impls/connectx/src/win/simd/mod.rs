//! AVX2 win detection: several boards side by side in the four 64-bit lanes
//! of a vector, all running the same shift-and schedule with uniform counts,
//! so four boards advance per instruction.
//!
//! The kernels differ only in which boards fill the lanes (`Layout`):
//! [`pairs`] puts both players of two positions in a vector, [`last_mover`]
//! only the player who moved last, of four positions. Boards wider than 64
//! bits (up to 128) add a vector of high words and emulate each 128-bit
//! shift with three lane shifts; `vpsrlvq`/`vpsllvq` yield 0 for counts of
//! 64 or more, which makes the emulation branch-free. The CPU is checked at
//! run time (memchr style); the module compiles to nothing off x86_64.

pub mod last_mover;
pub mod pairs;

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_blend_pd, _mm256_castpd_si256, _mm256_castsi256_pd,
    _mm256_cmpeq_epi64, _mm256_loadu2_m128d, _mm256_loadu2_m128i, _mm256_movemask_pd,
    _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_sllv_epi64, _mm256_srlv_epi64, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use crate::config::{MAX_STEPS, Schedule};
use crate::position::{META, WORDS};
use crate::{Config, Position};

/// Which boards a kernel puts in the four lanes, four positions a step.
pub(crate) trait Layout {
    /// Vectors per step (1 or 2).
    const VECTORS: usize;
    /// The boards of `chunk` as vectors of `[low, high]` words (high words
    /// only when `WIDE`; vectors past `VECTORS` are ignored), and bits that
    /// [`Layout::write`] needs besides the result.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    unsafe fn boards<const WIDE: bool>(chunk: &[Position; CHUNK]) -> ([[__m256i; 2]; 2], usize);
    /// Writes a chunk's answers from the mask of lanes holding no K-run
    /// (four bits per vector, vector 0 lowest) and the bits from `boards`.
    fn write(empty_lanes: usize, tag: usize, out: &mut [u8; CHUNK]);
}

/// Positions per step of every layout.
const CHUNK: usize = 4;

/// Lanes `[p1 of a, p2 of a, p1 of b, p2 of b]` as vectors of low and high
/// words (high only when `WIDE`). Both players' words are adjacent in a
/// position, so each half is two 16-byte loads.
#[target_feature(enable = "avx2")]
fn pair<const WIDE: bool>(a: &Position, b: &Position) -> [__m256i; 2] {
    let (lo_a, lo_b) = (a.low_halves(), b.low_halves());
    let (hi_a, hi_b) = (a.high_halves(), b.high_halves());
    load::<WIDE>([
        [lo_a[0], lo_a[1], lo_b[0], lo_b[1]],
        [hi_a[0], hi_a[1], hi_b[0], hi_b[1]],
    ])
}

/// Word `W` (player 1) and word `W + 1` (player 2) of the four positions,
/// as two vectors with lanes in position order: `W = 0` gives the low
/// halves of the boards, `W = 2` the high ones.
///
/// Each 16-byte load takes a word pair of one position; two loads per
/// vector and one unpack each regroup them by player, fewer operations
/// than moving words one at a time.
#[target_feature(enable = "avx2")]
fn players<const W: usize>(chunk: &[Position; CHUNK]) -> [__m256i; 2] {
    const { assert!(W + 1 < META) };
    let base = chunk.as_ptr().cast::<u64>();
    // SAFETY: `Position` is five initialised words (checked at compile
    // time in `position`), so words W and W + 1 of positions 0 to 3 lie
    // inside `chunk`; unaligned loads are allowed.
    let (ac, bd) = unsafe {
        (
            _mm256_loadu2_m128i(base.add(2 * WORDS + W).cast(), base.add(W).cast()),
            _mm256_loadu2_m128i(base.add(3 * WORDS + W).cast(), base.add(WORDS + W).cast()),
        )
    };
    // ac = [a.W, a.W+1, c.W, c.W+1], bd = the same for b and d.
    [_mm256_unpacklo_epi64(ac, bd), _mm256_unpackhi_epi64(ac, bd)]
}

/// The four positions' last words (configuration, and the ply count with
/// its parity in the sign bit) in lane order.
///
/// Four 16-byte loads that stay inside the chunk: positions 0 and 2 with
/// the next word, 1 and 3 with the previous one; a blend keeps the right
/// lanes.
#[target_feature(enable = "avx2")]
fn metas(chunk: &[Position; CHUNK]) -> __m256i {
    let base = chunk.as_ptr().cast::<u64>();
    // SAFETY: the word pairs start at words 4, 8, 14 and 18 of the chunk's
    // 20 initialised words (see `players`).
    let (ac, bd) = unsafe {
        (
            _mm256_loadu2_m128d(base.add(2 * WORDS + META).cast(), base.add(META).cast()),
            _mm256_loadu2_m128d(
                base.add(3 * WORDS + META - 1).cast(),
                base.add(WORDS + META - 1).cast(),
            ),
        )
    };
    // ac = [a.meta, b.0, c.meta, d.0], bd = [b.3, b.meta, d.3, d.meta].
    _mm256_castpd_si256(_mm256_blend_pd::<0b1010>(ac, bd))
}

/// Runs `L`'s kernel over a batch.
///
/// # Safety
/// The CPU must support AVX2.
///
/// # Panics
/// When the slices differ in length.
pub(crate) unsafe fn winners<L: Layout>(positions: &[Position], out: &mut [u8]) {
    assert_eq!(positions.len(), out.len(), "one output per position");
    let mut done = 0;
    while done < positions.len() {
        let config = positions[done].config();
        let schedule = Schedule::new(config);
        let (positions, out) = (&positions[done..], &mut out[done..]);
        // SAFETY: every arm runs an AVX2 kernel; the caller guarantees AVX2.
        let checked = unsafe {
            match (config.fits_u64(), schedule.steps) {
                (true, 0) => check_run::<L, false, 0>(&schedule, config, positions, out),
                (true, 1) => check_run::<L, false, 1>(&schedule, config, positions, out),
                (true, 2) => check_run::<L, false, 2>(&schedule, config, positions, out),
                (true, 3) => check_run::<L, false, 3>(&schedule, config, positions, out),
                (true, _) => check_run::<L, false, MAX_STEPS>(&schedule, config, positions, out),
                (false, 0) => check_run::<L, true, 0>(&schedule, config, positions, out),
                (false, 1) => check_run::<L, true, 1>(&schedule, config, positions, out),
                (false, 2) => check_run::<L, true, 2>(&schedule, config, positions, out),
                (false, 3) => check_run::<L, true, 3>(&schedule, config, positions, out),
                (false, _) => check_run::<L, true, MAX_STEPS>(&schedule, config, positions, out),
            }
        };
        done += checked;
    }
}

/// Checks the leading positions of `config` and returns how many there
/// were (at least one). Runs the first `STEPS` steps of the schedule (a
/// constant, so the chains unroll; `MAX_STEPS` covers the rare longer
/// schedules, padded with zero shifts).
///
/// The configuration test is folded into the loop rather than done in a
/// separate pass: its integer compares run beside the vector work.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn check_run<L: Layout, const WIDE: bool, const STEPS: usize>(
    schedule: &Schedule,
    config: Config,
    positions: &[Position],
    out: &mut [u8],
) -> usize {
    // Per step and direction, the right shift `s`, and `64 - s` and
    // `s - 64` (wrapping, so out-of-range counts shift everything out) for
    // the 128-bit emulation. Steps past the schedule's shift by 0, which
    // leaves a run mask unchanged.
    let mut counts = [[[_mm256_setzero_si256(); 3]; 4]; STEPS];
    for (step, shifts) in counts.iter_mut().zip(&schedule.shifts) {
        for (c, &s) in step.iter_mut().zip(shifts) {
            let s = u64::from(s);
            *c = [s, 64u64.wrapping_sub(s), s.wrapping_sub(64)]
                .map(|count| _mm256_set1_epi64x(count as i64));
        }
    }
    let mut done = 0;
    let (chunks, _) = positions.as_chunks::<CHUNK>();
    for (chunk, out) in chunks.iter().zip(out.as_chunks_mut::<CHUNK>().0) {
        let same = chunk
            .iter()
            .fold(true, |same, p| same & (p.config() == config));
        if !same {
            break;
        }
        let (empty, tag) = step::<L, WIDE, STEPS>(&counts, chunk);
        L::write(empty, tag, out);
        done += CHUNK;
    }
    // The rest of this configuration (less than a chunk), padded with
    // empty boards (no line).
    let rest = positions[done..]
        .iter()
        .take(CHUNK)
        .take_while(|p| p.config() == config)
        .count();
    if rest > 0 {
        let mut padded = [Position::empty(config); CHUNK];
        padded[..rest].copy_from_slice(&positions[done..done + rest]);
        let mut answers = [0; CHUNK];
        let (empty, tag) = step::<L, WIDE, STEPS>(&counts, &padded);
        L::write(empty, tag, &mut answers);
        out[done..done + rest].copy_from_slice(&answers[..rest]);
    }
    done + rest
}

/// One step of the loop: the empty-lane mask of `chunk`'s vectors, and the
/// layout's bits for [`Layout::write`].
#[target_feature(enable = "avx2")]
fn step<L: Layout, const WIDE: bool, const STEPS: usize>(
    counts: &[[[__m256i; 3]; 4]; STEPS],
    chunk: &[Position; CHUNK],
) -> (usize, usize) {
    // SAFETY: this function's own target feature is AVX2.
    let (boards, tag) = unsafe { L::boards::<WIDE>(chunk) };
    let mut mask = 0;
    for (v, boards) in boards.into_iter().enumerate().take(L::VECTORS) {
        let empty = if WIDE {
            // Interleaving two vectors of 128-bit boards runs out of
            // registers; one at a time avoids the spills.
            empty_lanes_apart::<STEPS>(counts, boards)
        } else {
            empty_lanes::<WIDE, STEPS>(counts, boards)
        };
        mask |= empty << (4 * v);
    }
    (mask, tag)
}

/// [`empty_lanes`] for 128-bit boards, kept out of line.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn empty_lanes_apart<const STEPS: usize>(
    counts: &[[[__m256i; 3]; 4]; STEPS],
    boards: [__m256i; 2],
) -> usize {
    empty_lanes::<true, STEPS>(counts, boards)
}

/// The lanes as vectors (the high words only when `WIDE`).
#[target_feature(enable = "avx2")]
fn load<const WIDE: bool>([lo, hi]: [[u64; 4]; 2]) -> [__m256i; 2] {
    let [lo, hi] = [lo, hi].map(|v| v.map(|w| w as i64));
    let lo = _mm256_set_epi64x(lo[3], lo[2], lo[1], lo[0]);
    let hi = if WIDE {
        _mm256_set_epi64x(hi[3], hi[2], hi[1], hi[0])
    } else {
        _mm256_setzero_si256()
    };
    [lo, hi]
}

/// The 4-bit mask of lanes whose board holds no K-run in any direction.
#[target_feature(enable = "avx2")]
fn empty_lanes<const WIDE: bool, const STEPS: usize>(
    counts: &[[[__m256i; 3]; 4]; STEPS],
    boards: [__m256i; 2],
) -> usize {
    let mut chains = [boards; 4];
    for step in counts {
        for (chain, c) in chains.iter_mut().zip(step) {
            *chain = and_shifted::<WIDE>(*chain, c);
        }
    }
    let mut any = _mm256_setzero_si256();
    for [lo, hi] in chains {
        any = _mm256_or_si256(any, lo);
        if WIDE {
            any = _mm256_or_si256(any, hi);
        }
    }
    let empty = _mm256_cmpeq_epi64(any, _mm256_setzero_si256());
    _mm256_movemask_pd(_mm256_castsi256_pd(empty)) as usize
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
