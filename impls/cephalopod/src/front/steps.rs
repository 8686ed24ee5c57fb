//! The steps the sweep takes for every child, in the instructions of each
//! CPU: scalar ([`Portable`]) or a vector of boards at a time
//! ([`Vectors`]: 8 with AVX2, 16 with AVX-512). The sweep is generic over
//! them, so that one sweep serves every CPU.

use super::merge::{Lane, Merge};
use crate::dihedral::canonical;
use crate::lists::Lists;
use crate::swarmoves;
#[cfg(target_arch = "x86_64")]
use crate::{
    dihedral::vector::canonical_keys,
    vecmoves,
    vector::{Avx2, Lanes},
};

/// The steps a sweep takes for every child, which vectors shorten: move
/// generation, canonical form, a lane moved from a parent, and the score
/// of a path that ends.
pub(super) trait Steps {
    /// Boards come to [`Steps::canon_all`] and [`Steps::children`] in
    /// multiples of this many.
    const WIDTH: usize;
    /// Replaces each board of `boards` by its canonical key: the
    /// representative shifted left by 3 above the symmetry that turns the
    /// board into it ([`canonical`]).
    fn canon_all(&self, boards: &mut [u32]);
    /// Lists the children of `boards`, each with its parent's index in
    /// `boards`.
    fn children(&self, boards: &[u32], lists: &mut Lists);
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32);
    /// [`Merge::score`] in these steps' instructions.
    fn score<M: Merge>(&self, merge: &M, lane: M::Lane) -> M::Score;
    /// [`Merge::scored`] in these steps' instructions.
    fn scored<M: Merge>(&self, merge: &M, score: &M::Score, b: u32) -> u64;
}

/// Scalar steps, for any CPU.
pub(super) struct Portable;

impl Steps for Portable {
    const WIDTH: usize = 8;
    #[inline(always)]
    fn canon_all(&self, boards: &mut [u32]) {
        for b in boards {
            let (key, sym) = canonical(*b);
            *b = key << 3 | sym;
        }
    }
    #[inline(always)]
    fn children(&self, boards: &[u32], lists: &mut Lists) {
        for (parent, &board) in boards.iter().enumerate() {
            swarmoves::for_each_move(board, |child, captured| {
                lists.push(Lists::of(captured), child, parent as u32);
            });
        }
    }
    #[inline(always)]
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32) {
        *dst = dst.add_moved(parent, sym);
    }
    #[inline(always)]
    fn score<M: Merge>(&self, merge: &M, lane: M::Lane) -> M::Score {
        merge.score(lane)
    }
    #[inline(always)]
    fn scored<M: Merge>(&self, merge: &M, score: &M::Score, b: u32) -> u64 {
        merge.scored(score, b)
    }
}

/// Vector steps: a vector of boards' children generated and canonicalised
/// at once (8 boards with AVX2, 16 with AVX-512), a lane moved by
/// [`Lane::add_moved_avx2`].
#[cfg(target_arch = "x86_64")]
pub(super) struct Vectors<V> {
    pub(super) lanes: V,
    /// Proof that the CPU has AVX2, for the lane moves.
    pub(super) avx2: Avx2,
}

#[cfg(target_arch = "x86_64")]
impl<V: Lanes> Steps for Vectors<V> {
    const WIDTH: usize = V::LANES;
    #[inline(always)]
    fn canon_all(&self, boards: &mut [u32]) {
        for chunk in boards.chunks_exact_mut(V::LANES) {
            canonical_keys(self.lanes, chunk);
        }
    }
    #[inline(always)]
    fn children(&self, boards: &[u32], lists: &mut Lists) {
        for (i, chunk) in boards.chunks_exact(V::LANES).enumerate() {
            vecmoves::moves(self.lanes, chunk, (i * V::LANES) as u32, lists);
        }
    }
    #[inline(always)]
    fn add_moved<L: Lane>(&self, dst: &mut L, parent: L, sym: u32) {
        *dst = dst.add_moved_avx2(parent, sym, self.avx2);
    }
    #[inline(always)]
    fn score<M: Merge>(&self, merge: &M, lane: M::Lane) -> M::Score {
        merge.score_avx2(lane, self.avx2)
    }
    #[inline(always)]
    fn scored<M: Merge>(&self, merge: &M, score: &M::Score, b: u32) -> u64 {
        merge.scored_avx2(score, b, self.avx2)
    }
}
