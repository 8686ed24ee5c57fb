//! Tromp/Pons shift-and win detection, any K by log-doubling.
//!
//! `m &= m >> (s*d)` turns runs of length n into runs of length n + s along
//! direction d (1 vertical, H+1 horizontal, H and H+2 diagonal); doubling
//! s reaches K in about log2(K) steps. Both players' four directions form
//! eight independent dependency chains, which keeps the core busy.
//!
//! The step count is matched once per run of positions, not per position:
//! with the loop specialised to it, the eight shift counts stay in
//! registers (about 5.8 -> 3.6 ns a 7x6 position). The loop is also
//! compiled for x86_64 CPUs with BMI2, picked once when the kernel is
//! built: the portable build must pass every run-time shift count in `cl`
//! and widens `u128` shifts with `shrd` and selects, which BMI2's
//! `shrx`/`shlx` shorten (about 5% on 128-bit boards). When every shift
//! count is below 64 (all but very long lines on 128-bit boards), a `u128`
//! shift is two 64-bit shifts and an or, with no select between halves.

use crate::config::MAX_STEPS;
use crate::position::by_word;
use crate::{Bits, Geometry, Position, WinCheck};

/// Scalar shift-and win detection (see the module docs).
pub struct Shift {
    /// Whether this CPU runs the BMI2 build.
    #[cfg(target_arch = "x86_64")]
    bmi2: bool,
}

impl Shift {
    /// The kernel, with the BMI2 build when this CPU supports it.
    pub fn new() -> Shift {
        Shift {
            #[cfg(target_arch = "x86_64")]
            bmi2: is_x86_feature_detected!("bmi2"),
        }
    }
}

impl Default for Shift {
    fn default() -> Shift {
        Shift::new()
    }
}

impl WinCheck for Shift {
    fn winners(&self, positions: &[Position], out: &mut [u8]) {
        super::for_each_run(positions, out, |config, run, out| {
            by_word!(config, B => {
                let geo = Geometry::<B>::new(config);
                #[cfg(target_arch = "x86_64")]
                if self.bmi2 {
                    // SAFETY: `bmi2` is set only when the CPU supports BMI2.
                    return unsafe { check_run_bmi2(&geo, run, out) };
                }
                check_run(&geo, run, out)
            })
        });
    }
}

/// [`check_run`] compiled for BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn check_run_bmi2<B: Bits>(geo: &Geometry<B>, positions: &[Position], out: &mut [u8]) {
    check_run(geo, positions, out);
}

/// The kernel: inlined into each build so it takes that build's features.
/// The step count, and whether every shift is below 64, are matched once
/// per run rather than once per position, so the shift counts stay in
/// registers across the loop and `u128` boards shift with two `u64` shifts
/// (about 29 -> 16 ns a 10x10 position).
#[inline(always)]
fn check_run<B: Bits>(geo: &Geometry<B>, positions: &[Position], out: &mut [u8]) {
    // A u64 word never shifts by 64 or more: its test folds away.
    if B::WIDTH == 64 || geo.short {
        check_run_short::<B, true>(geo, positions, out);
    } else {
        check_run_short::<B, false>(geo, positions, out);
    }
}

/// [`check_run`] with `SHORT` equal to `geo.short`.
#[inline(always)]
fn check_run_short<B: Bits, const SHORT: bool>(
    geo: &Geometry<B>,
    positions: &[Position],
    out: &mut [u8],
) {
    match geo.steps {
        0 => check_steps::<B, 0, SHORT>(geo, positions, out),
        1 => check_steps::<B, 1, SHORT>(geo, positions, out),
        2 => check_steps::<B, 2, SHORT>(geo, positions, out),
        3 => check_steps::<B, 3, SHORT>(geo, positions, out),
        4 => check_steps::<B, 4, SHORT>(geo, positions, out),
        5 => check_steps::<B, 5, SHORT>(geo, positions, out),
        6 => check_steps::<B, 6, SHORT>(geo, positions, out),
        _ => check_steps::<B, MAX_STEPS, SHORT>(geo, positions, out),
    }
}

#[inline(always)]
fn check_steps<B: Bits, const STEPS: usize, const SHORT: bool>(
    geo: &Geometry<B>,
    positions: &[Position],
    out: &mut [u8],
) {
    for (position, out) in positions.iter().zip(out) {
        let [p1, p2] = geo.lines_in::<STEPS, 2, SHORT>(position.stones::<B>());
        *out = super::encode(p1, p2);
    }
}
