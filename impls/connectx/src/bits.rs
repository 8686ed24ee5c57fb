//! The bitboard word: one small trait implemented by `u64` and `u128`.
//!
//! Every bitboard algorithm in this crate is written once, generic over
//! [`Bits`]; boards with `W*(H+1) <= 64` run the `u64` instantiation (the fast
//! path) and larger ones, up to 128 bits, the `u128` one.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// An unsigned machine word used as a bitboard.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty board.
    const ZERO: Self;
    /// Bit 0 only.
    const ONE: Self;
    /// Width of the word in bits.
    const WIDTH: u32;
    /// Addition that wraps: `mask + bottom` may carry out of a full top column.
    fn wrapping_add(self, other: Self) -> Self;
    /// Subtraction that wraps (used to isolate the lowest set bit).
    fn wrapping_sub(self, other: Self) -> Self;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Index of the lowest set bit (`WIDTH` for zero).
    fn trailing_zeros(self) -> u32;
    /// Builds a word from its low and high 64-bit halves (`hi` is ignored by `u64`).
    fn from_halves(lo: u64, hi: u64) -> Self;
    /// The low and high 64-bit halves (`hi` is 0 for `u64`).
    fn halves(self) -> (u64, u64);
    /// `self >> n` for `0 < n < 64` (other `n` give wrong results).
    fn shr_short(self, n: u32) -> Self;
}

macro_rules! impl_bits {
    ($t:ty, $from:expr, $halves:expr, $shr:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const WIDTH: u32 = <$t>::BITS;
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn from_halves(lo: u64, hi: u64) -> Self {
                $from(lo, hi)
            }
            #[inline(always)]
            fn halves(self) -> (u64, u64) {
                $halves(self)
            }
            #[inline(always)]
            fn shr_short(self, n: u32) -> Self {
                $shr(self, n)
            }
        }
    };
}

impl_bits!(
    u64,
    |lo: u64, _hi: u64| lo,
    |w: u64| (w, 0),
    |w: u64, n: u32| w >> n
);
impl_bits!(
    u128,
    |lo: u64, hi: u64| (u128::from(hi) << 64) | u128::from(lo),
    |w: u128| (w as u64, (w >> 64) as u64),
    |w: u128, n: u32| {
        // Two 64-bit shifts and an or: no select between the n < 64 and
        // n >= 64 cases as in the general u128 shift.
        let (lo, hi) = (w as u64, (w >> 64) as u64);
        let lo = (lo >> n) | (hi << (64 - n));
        (u128::from(hi >> n) << 64) | u128::from(lo)
    }
);

/// Iterates the set bits of a word as single-bit words, lowest first.
#[inline(always)]
pub fn each_bit<B: Bits>(mut word: B) -> impl Iterator<Item = B> {
    std::iter::from_fn(move || {
        if word == B::ZERO {
            return None;
        }
        let rest = word & word.wrapping_sub(B::ONE);
        let low = word ^ rest;
        word = rest;
        Some(low)
    })
}
