//! Per-cell digit sums. The position hash is linear in the digits, so the
//! sum of the hashes of many boards is the dot product of their per-cell
//! digit sums with the decimal weights; keeping the 9 sums (instead of one
//! hash sum) lets a value move with its board under a symmetry.
//!
//! Leaves are summed cheaply in a "spread" `u64`: the 9 fields of a packed
//! board widened to 7 bits each, so up to 21 dice add per field without
//! overflow (a board has at most 20 moves).

use crate::packed::{ALL_BITS, CELL_OF_POS, WEIGHTS};

/// Digit sums of the 9 spiral positions, wrapping mod 2^32.
pub(crate) type CellSums = [u32; 9];

/// Width of a field in a spread value.
const WIDE: u32 = 7;

/// Widens the 9 three-bit fields of a packed board to 7 bits each.
#[inline(always)]
pub(crate) fn spread(x: u32) -> u64 {
    // Field i moves up by 4i bits; move by 32, 16, 8 and 4 bits according
    // to the bits of i, largest first so fields never overlap.
    let step = |y: u64, mask: u64, by: u32| (y & !mask) | (y & mask) << by;
    let y = u64::from(x & ALL_BITS);
    let y = step(y, 7 << 24, 32);
    let y = step(y, 0xFFF << 12, 16);
    let y = step(y, 0xFC0 | 0x3F << 34, 8);
    step(y, 7 << 3 | 7 << 17 | 7 << 31 | 7 << 45, 4)
}

/// Adds the fields of a spread sum to per-cell sums.
#[inline(always)]
pub(crate) fn add_spread(acc: &mut CellSums, wide: u64) {
    for (pos, a) in acc.iter_mut().enumerate() {
        *a = a.wrapping_add((wide >> (WIDE * pos as u32)) as u32 & ((1 << WIDE) - 1));
    }
}

/// The hash sum of the boards whose digits a spread sum holds.
#[inline(always)]
pub(crate) fn spread_hash(wide: u64) -> u32 {
    let mut sums = [0; 9];
    add_spread(&mut sums, wide);
    hash_sum(&sums)
}

/// The hash sum of per-cell sums: their dot product with the weights.
#[inline(always)]
pub(crate) fn hash_sum(sums: &CellSums) -> u32 {
    sums.iter()
        .zip(WEIGHTS)
        .fold(0u32, |h, (&s, w)| h.wrapping_add(s.wrapping_mul(w)))
}

/// Per-cell sums in spiral order to row-major order.
pub(crate) fn row_major(sums: &CellSums) -> [u32; 9] {
    let mut out = [0; 9];
    for (pos, &cell) in CELL_OF_POS.iter().enumerate() {
        out[cell] = sums[pos];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::{get, hash};

    #[test]
    fn spread_widens_every_field() {
        for x in [0, ALL_BITS, 0o123456701, 0o765432106, 0o666666666] {
            let w = spread(x);
            for pos in 0..9 {
                assert_eq!(
                    (w >> (7 * pos)) as u32 & 127,
                    get(x, pos),
                    "{x:o} pos {pos}"
                );
            }
            assert_eq!(spread_hash(w), hash(x));
        }
        let total = spread(0o666666666) * 20;
        assert_eq!(spread_hash(total), hash(0o666666666).wrapping_mul(20));
    }
}
