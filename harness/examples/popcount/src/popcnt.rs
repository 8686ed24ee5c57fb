//! `u64::count_ones` in a function compiled for the POPCNT instruction,
//! chosen at run time: the baseline the SIMD variants must beat.

use crate::Popcount;

/// The POPCNT instruction, one word at a time.
pub struct Popcnt(());

impl Popcnt {
    /// `Some` when the CPU has POPCNT.
    pub fn new() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            return Some(Popcnt(()));
        }
        None
    }
}

impl Popcount for Popcnt {
    fn count(&self, words: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `new` checked that the CPU has POPCNT.
        return unsafe { count(words) };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!(
            "Popcnt::new refuses every other architecture: {}",
            words.len()
        )
    }
}

/// # Safety
/// The CPU must have POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn count(words: &[u64]) -> u64 {
    words.iter().map(|w| u64::from(w.count_ones())).sum()
}
