//! The stabiliser of a starting board: the symmetries of the square that
//! leave it unchanged, as a group to merge boards by.
//!
//! Path counts from a root are invariant under its stabiliser `G` — `σ` maps
//! the paths to `b` one-to-one onto the paths to `σb` — so a forward search
//! can keep one board per `G`-orbit with the orbit's total path count `T`.
//! Expanding a representative `y` and adding `T(y)` to the orbit of each
//! child moves exactly the paths of the whole orbit, and an orbit's share of
//! the answer is `T · Σ_{σ∈G} hash(σb) / |G|` (see [`Group::orbit_hash`]).

use crate::packed::hash;
use crate::symmetry::{apply, canonical};

/// The symmetries (indices 0..8, identity first) that leave `root`
/// unchanged.
pub(crate) fn stabiliser(root: u32) -> Vec<u32> {
    (0..8).filter(|&s| apply(root, s) == root).collect()
}

/// A group of symmetries that fix the root.
pub(crate) trait Group {
    /// `log2 |G|`.
    fn log2_order(&self) -> u32;
    /// The orbit representative of `b`: its smallest image.
    fn canon(&self, b: u32) -> u32;
    /// `Σ_{σ∈G} hash(σb)`. An orbit with total count `T` adds
    /// `T · orbit_hash / |G|` to the answer: the division is exact over the
    /// integers, so a caller keeping `T` mod 2^64 sums the products and
    /// shifts right by [`Group::log2_order`] once, exact mod 2^61.
    fn orbit_hash(&self, b: u32) -> u64;
}

/// Only the identity: boards are their own orbits.
pub(crate) struct Trivial;

impl Group for Trivial {
    fn log2_order(&self) -> u32 {
        0
    }
    #[inline(always)]
    fn canon(&self, b: u32) -> u32 {
        b
    }
    #[inline(always)]
    fn orbit_hash(&self, b: u32) -> u64 {
        u64::from(hash(b))
    }
}

/// All 8 symmetries of the square.
pub(crate) struct Full;

impl Group for Full {
    fn log2_order(&self) -> u32 {
        3
    }
    #[inline(always)]
    fn canon(&self, b: u32) -> u32 {
        canonical(b).0
    }
    #[inline(always)]
    fn orbit_hash(&self, b: u32) -> u64 {
        (0..8).map(|s| u64::from(hash(apply(b, s)))).sum()
    }
}

/// A proper subgroup of 2 or 4 symmetries, listed.
pub(crate) struct Subgroup(pub(crate) Vec<u32>);

impl Group for Subgroup {
    fn log2_order(&self) -> u32 {
        self.0.len().trailing_zeros()
    }
    #[inline(always)]
    fn canon(&self, b: u32) -> u32 {
        self.0.iter().map(|&s| apply(b, s)).min().unwrap_or(b)
    }
    #[inline(always)]
    fn orbit_hash(&self, b: u32) -> u64 {
        self.0.iter().map(|&s| u64::from(hash(apply(b, s)))).sum()
    }
}
