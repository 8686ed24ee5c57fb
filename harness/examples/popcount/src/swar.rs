//! Wilkes–Wheeler–Gill: sum adjacent bit fields in parallel inside the
//! word (pairs, nibbles, bytes), then add the eight byte sums with one
//! multiplication. A dozen operations a word, no branches, no memory.

use crate::Popcount;

/// The set bits of one word, by summing fields.
pub(crate) fn word(x: u64) -> u64 {
    let pairs = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let bytes = (nibbles + (nibbles >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// Field sums inside the word.
pub struct Swar;

impl Popcount for Swar {
    fn count(&self, words: &[u64]) -> u64 {
        words.iter().map(|&w| word(w)).sum()
    }
}
