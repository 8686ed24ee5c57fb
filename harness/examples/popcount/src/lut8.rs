//! A table of the counts of every byte, built at compile time: eight
//! look-ups and adds a word.

use crate::Popcount;

/// Set bits of each byte value.
const TABLE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 1;
    while i < 256 {
        table[i] = table[i / 2] + (i % 2) as u8;
        i += 1;
    }
    table
};

/// Eight byte look-ups a word.
pub struct Lut8;

impl Popcount for Lut8 {
    fn count(&self, words: &[u64]) -> u64 {
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .map(|b| u64::from(TABLE[usize::from(b)]))
            .sum()
    }
}
