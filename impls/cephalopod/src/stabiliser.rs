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

/// The orbit hash as a weighted digit sum: `hash` is linear in the digits,
/// so `Σ_{σ∈G} hash(σb)` gives each position the summed weight of the
/// positions `G` moves it to — one pass over the digits, not `|G|`.
struct OrbitWeights([u64; 9]);

impl OrbitWeights {
    fn of(syms: &[u32]) -> OrbitWeights {
        OrbitWeights(std::array::from_fn(|pos| {
            let unit = 1 << (3 * pos);
            syms.iter().map(|&s| u64::from(hash(apply(unit, s)))).sum()
        }))
    }

    #[inline(always)]
    fn hash(&self, b: u32) -> u64 {
        self.0
            .iter()
            .enumerate()
            .map(|(pos, &w)| u64::from((b >> (3 * pos)) & 7) * w)
            .sum()
    }
}

/// All 8 symmetries of the square.
pub(crate) struct Full(OrbitWeights);

impl Full {
    pub(crate) fn new() -> Full {
        Full(OrbitWeights::of(&[0, 1, 2, 3, 4, 5, 6, 7]))
    }
}

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
        self.0.hash(b)
    }
}

/// A proper subgroup of 2 or 4 symmetries.
pub(crate) struct Subgroup {
    syms: Vec<u32>,
    weights: OrbitWeights,
}

impl Subgroup {
    /// The group of `syms`, which must be closed under composition.
    pub(crate) fn new(syms: Vec<u32>) -> Subgroup {
        let weights = OrbitWeights::of(&syms);
        Subgroup { syms, weights }
    }
}

impl Group for Subgroup {
    fn log2_order(&self) -> u32 {
        self.syms.len().trailing_zeros()
    }
    #[inline(always)]
    fn canon(&self, b: u32) -> u32 {
        self.syms.iter().map(|&s| apply(b, s)).min().unwrap_or(b)
    }
    #[inline(always)]
    fn orbit_hash(&self, b: u32) -> u64 {
        self.weights.hash(b)
    }
}
