//! Batch win detection variants, one file per algorithm.
//!
//! A batch may mix configurations; `for_each_run` hands each kernel maximal
//! runs of positions sharing one, so per-configuration set-up (geometry,
//! masks, shift vectors) is paid once per run, not once per position.

pub mod gameover_masks;
pub mod kaggle_list;
pub mod shift;
#[cfg(target_arch = "x86_64")]
pub mod simd;

use crate::{Config, Position};

/// Splits `positions` (and the matching `out`) into runs of one
/// configuration and calls `kernel` on each.
///
/// # Panics
/// When the two slices differ in length.
pub(crate) fn for_each_run(
    positions: &[Position],
    out: &mut [u8],
    mut kernel: impl FnMut(Config, &[Position], &mut [u8]),
) {
    assert_eq!(positions.len(), out.len(), "one output per position");
    let mut start = 0;
    while start < positions.len() {
        let config = positions[start].config();
        let len = positions[start..]
            .iter()
            .position(|p| p.config() != config)
            .unwrap_or(positions.len() - start);
        let end = start + len;
        kernel(config, &positions[start..end], &mut out[start..end]);
        start = end;
    }
}

/// The output byte for "player 1 has a line" / "player 2 has a line";
/// player 1 takes precedence, as in Kaggle's every-cell check.
#[inline(always)]
pub(crate) const fn encode(p1: bool, p2: bool) -> u8 {
    p1 as u8 | (((p2 & !p1) as u8) << 1)
}
