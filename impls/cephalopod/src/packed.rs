//! The packed board shared by the fast variants: 3 bits per cell in a `u32`,
//! in spiral order — the 8 ring cells clockwise from the top-left corner at
//! positions 0..8, then the centre at position 8 (bits 24..27).
//!
//! In this order a quarter turn of the square is a rotation of the 24 ring
//! bits by 6, and a mirror reverses the ring, which keeps symmetry cheap.

use crate::Board;

/// Row-major cell index of each spiral position.
pub(crate) const CELL_OF_POS: [usize; 9] = [0, 1, 2, 5, 8, 7, 6, 3, 4];

/// No game lasts longer than this many moves, from any board: the potential
/// `2 * (54 - dice sum) + dice count` drops by at least 1 per move, starts at
/// most at 108 and ends at least at 9 (a full board). Deeper searches equal
/// searches of this depth.
pub(crate) const MAX_GAME: u32 = 99;

/// Bits of the 8 ring cells.
pub(crate) const RING_BITS: u32 = (1 << 24) - 1;
/// Bits of all 9 cells.
pub(crate) const ALL_BITS: u32 = (1 << 27) - 1;
/// The lowest bit of each of the 9 fields.
pub(crate) const LOW: u32 = 0o111_111_111;
/// The highest bit of each of the 9 fields.
pub(crate) const HIGH: u32 = LOW << 2;
/// The two lower bits of each of the 9 fields.
pub(crate) const LOW2: u32 = LOW * 3;

/// The field mask (3 bits) of position `pos`.
pub(crate) const fn field(pos: usize) -> u32 {
    7 << (3 * pos)
}

/// The die at position `pos`.
#[inline(always)]
pub(crate) fn get(b: u32, pos: usize) -> u32 {
    (b >> (3 * pos)) & 7
}

/// Packs a board.
pub(crate) fn pack(board: Board) -> u32 {
    let cells = board.cells();
    CELL_OF_POS
        .iter()
        .enumerate()
        .fold(0, |b, (pos, &cell)| b | u32::from(cells[cell]) << (3 * pos))
}

/// Unpacks a board.
#[cfg(test)]
pub(crate) fn unpack(b: u32) -> Board {
    let mut cells = [0u8; 9];
    for (pos, &cell) in CELL_OF_POS.iter().enumerate() {
        cells[cell] = get(b, pos) as u8;
    }
    Board::from_cells(cells).expect("packed fields hold dice 0..=6")
}

/// Decimal weight of each spiral position in the position hash.
pub(crate) const WEIGHTS: [u32; 9] = {
    let mut w = [0; 9];
    let mut pos = 0;
    while pos < 9 {
        w[pos] = 10u32.pow(8 - CELL_OF_POS[pos] as u32);
        pos += 1;
    }
    w
};

/// The position hash of a packed board.
#[inline]
pub(crate) fn hash(b: u32) -> u32 {
    let mut h = 0u32;
    for (pos, &w) in WEIGHTS.iter().enumerate() {
        h = h.wrapping_add(get(b, pos) * w);
    }
    h
}

/// The high bit of each field that is zero (an empty cell), all else clear.
#[inline(always)]
pub(crate) fn zero_fields(b: u32) -> u32 {
    // Adding 3 to the two low bits carries into the high bit unless both are
    // zero; or-ing in the value's own high bit leaves it clear only when the
    // whole field is zero.
    !(((b & LOW2) + LOW2) | b) & HIGH
}

/// Whether every cell holds a die.
#[inline(always)]
pub(crate) fn is_full(b: u32) -> bool {
    zero_fields(b) == 0
}

/// The high bit of each field equal to 7 (a saturated sum), all else clear.
#[inline(always)]
pub(crate) fn seven_fields(b: u32) -> u32 {
    b & (b << 1) & (b << 2) & HIGH
}

/// Field-wise `min(a + b, 7)` of two packed boards.
#[inline(always)]
pub(crate) fn add_saturate(a: u32, b: u32) -> u32 {
    let low = (a & LOW2) + (b & LOW2);
    let top = (a ^ b) & HIGH;
    // Carry out of a field: both high bits set, or one set and a carry in.
    let carry = (a & b & HIGH) | (top & low);
    // Spread each carry (at a high bit) over its whole field.
    let fill = (carry << 1) - (carry >> 2);
    (low ^ top) | fill
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip_and_hash() {
        let b: Board = "060/222/161".parse().unwrap();
        let p = pack(b);
        assert_eq!(unpack(p), b);
        assert_eq!(hash(p), b.hash());
        assert_eq!(get(p, 8), 2);
    }

    #[test]
    fn field_helpers() {
        let b: Board = "060/202/161".parse().unwrap();
        let p = pack(b);
        let z = zero_fields(p);
        let empties: Vec<usize> = (0..9).filter(|&pos| z & (4 << (3 * pos)) != 0).collect();
        let want: Vec<usize> = (0..9).filter(|&pos| get(p, pos) == 0).collect();
        assert_eq!(empties, want);
        assert!(!is_full(p));
        assert!(is_full(pack("111/111/111".parse().unwrap())));
        for a in 0..8u32 {
            for c in 0..8u32 {
                let x = a * LOW;
                let y = c * LOW;
                assert_eq!(add_saturate(x, y), (a + c).min(7) * LOW, "{a}+{c}");
                assert_eq!(seven_fields(x) != 0, a == 7);
            }
        }
    }
}
