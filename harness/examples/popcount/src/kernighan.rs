//! Kernighan's loop: `x & (x - 1)` clears the lowest set bit, so a word
//! takes as many steps as it has set bits (32 on random data).

use crate::Popcount;

/// One step per set bit.
pub struct Kernighan;

impl Popcount for Kernighan {
    fn count(&self, words: &[u64]) -> u64 {
        let mut total = 0;
        for &w in words {
            let mut x = w;
            while x != 0 {
                x &= x - 1;
                total += 1;
            }
        }
        total
    }
}
