//! The oracle: every bit of every word, one at a time. Obviously right,
//! and 64 steps a word.

use crate::Popcount;

/// Bit by bit.
pub struct BitLoop;

impl Popcount for BitLoop {
    fn count(&self, words: &[u64]) -> u64 {
        words
            .iter()
            .map(|&w| (0..64).map(|i| (w >> i) & 1).sum::<u64>())
            .sum()
    }
}
