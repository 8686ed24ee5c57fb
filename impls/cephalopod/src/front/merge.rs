//! What the sweep is generic over: a board's path counts for one depth
//! ([`Lane`]) and the way symmetric boards are merged into one
//! representative ([`Merge`]).
//!
//! The sweep in `front` runs with either merge, and the two merges
//! (`orient`, `stabiliser`) implement these traits; with the traits in a
//! module of their own, below all three, the merges need nothing from the
//! sweep that uses them.

#[cfg(target_arch = "x86_64")]
use crate::vector::Avx2;

/// The path counts of one lane (one depth) of a merged board.
pub(super) trait Lane: Copy + Default + Send + 'static {
    fn add(self, other: Self) -> Self;
    /// `self` plus a parent lane's paths, moved to a child whose
    /// representative is `apply(child, sym)`.
    fn add_moved(self, parent: Self, sym: u32) -> Self;
    /// [`Lane::add_moved`], for code compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn add_moved_avx2(self, parent: Self, sym: u32, _: Avx2) -> Self {
        self.add_moved(parent, sym)
    }
}

/// How the sweep merges symmetric boards into one representative, and what
/// the paths it counts add to the answer.
pub(super) trait Merge {
    type Lane: Lane;
    /// A lane's paths, prepared once to score each board they end on.
    type Score: Copy;
    /// One path at the start, whose representative is `apply(start, sym)`.
    fn root(&self, sym: u32) -> Self::Lane;
    fn score(&self, lane: Self::Lane) -> Self::Score;
    /// What the scored paths add to the answer when they end on `b`
    /// (before [`Merge::finish`]).
    fn scored(&self, score: &Self::Score, b: u32) -> u64;
    /// [`Merge::score`], for code compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn score_avx2(&self, lane: Self::Lane, _: Avx2) -> Self::Score {
        self.score(lane)
    }
    /// [`Merge::scored`], for code compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn scored_avx2(&self, score: &Self::Score, b: u32, _: Avx2) -> u64 {
        self.scored(score, b)
    }
    /// The answer from the sum of the scored shares.
    fn finish(&self, total: u64) -> u32;
}
