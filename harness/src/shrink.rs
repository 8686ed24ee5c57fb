//! Shrinkers for inputs of common types, so a disagreement `check` finds is
//! minimised without the adapter writing a shrinker of its own.
//!
//! [`Workload::shrink`](crate::Workload::shrink) cannot see whether an
//! input type has a shrinker (that would need a bound every input type
//! meets), so an adapter whose input is an integer, an array, a `Vec` or a
//! tuple of these forwards to [`Shrink`] in one line. Integers lose bits
//! one at a time, which takes a bitboard down to the cells that matter.

/// Values one step simpler than `self`, for greedy minimisation: `check`
/// keeps the first candidate that still fails and asks again, until none
/// does.
///
/// ```
/// use bitbench::Shrink;
///
/// // Clear everything, then each set bit, then halve, then step down.
/// assert_eq!(0b1010u8.shrink(), [0, 0b0010, 0b1000, 0b0101, 0b1001]);
/// // An adapter's one line (its input being `[u64; 4]`, say):
/// // fn shrink(&self, input: &[u64; 4]) -> Vec<[u64; 4]> { input.shrink() }
/// ```
pub trait Shrink: Clone {
    /// Candidates one step simpler, the boldest first; empty when `self`
    /// is as simple as the type gets (zero, `false`, empty).
    fn shrink(&self) -> Vec<Self>;
}

/// Unsigned integers move towards zero: zero itself, each set bit cleared
/// (highest first), half, one less.
macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl Shrink for $t {
            fn shrink(&self) -> Vec<Self> {
                let x = *self;
                let mut out = Vec::new();
                let mut push = |c: $t| {
                    if c != x && !out.contains(&c) {
                        out.push(c);
                    }
                };
                push(0);
                for bit in (0..<$t>::BITS).rev() {
                    push(x & !(1 << bit));
                }
                push(x / 2);
                push(x.saturating_sub(1));
                out
            }
        }
    )*};
}
unsigned!(u8, u16, u32, u64, u128, usize);

/// Signed integers move towards zero by their magnitude (the unsigned
/// steps), the positive value before a negative one.
macro_rules! signed {
    ($($t:ty),*) => {$(
        impl Shrink for $t {
            fn shrink(&self) -> Vec<Self> {
                let x = *self;
                let mut out: Vec<$t> = Vec::new();
                if x < 0 {
                    // `MIN` has no positive twin; its magnitude still shrinks.
                    if let Some(positive) = x.checked_neg() {
                        out.push(positive);
                    }
                }
                for magnitude in x.unsigned_abs().shrink() {
                    let c = magnitude as $t;
                    let c = if x < 0 { c.wrapping_neg() } else { c };
                    if c != x && !out.contains(&c) {
                        out.push(c);
                    }
                }
                out
            }
        }
    )*};
}
signed!(i8, i16, i32, i64, i128, isize);

impl Shrink for bool {
    fn shrink(&self) -> Vec<Self> {
        if *self { vec![false] } else { Vec::new() }
    }
}

/// One element at a time, in place.
impl<T: Shrink, const N: usize> Shrink for [T; N] {
    fn shrink(&self) -> Vec<Self> {
        (0..N)
            .flat_map(|i| {
                self[i].shrink().into_iter().map(move |c| {
                    let mut smaller = self.clone();
                    smaller[i] = c;
                    smaller
                })
            })
            .collect()
    }
}

/// Fewer elements first (each half, then each element removed), then one
/// element simpler.
impl<T: Shrink> Shrink for Vec<T> {
    fn shrink(&self) -> Vec<Self> {
        let n = self.len();
        let mut out = Vec::new();
        // Two elements' halves are the single removals below.
        if n > 2 {
            out.push(self[..n / 2].to_vec());
            out.push(self[n / 2..].to_vec());
        }
        for i in 0..n {
            let mut fewer = self.clone();
            fewer.remove(i);
            out.push(fewer);
        }
        for i in 0..n {
            for c in self[i].shrink() {
                let mut smaller = self.clone();
                smaller[i] = c;
                out.push(smaller);
            }
        }
        out
    }
}

/// One component at a time, the others kept.
macro_rules! tuple {
    ($($name:ident $i:tt),+) => {
        impl<$($name: Shrink),+> Shrink for ($($name,)+) {
            fn shrink(&self) -> Vec<Self> {
                let mut out = Vec::new();
                $(
                    for c in self.$i.shrink() {
                        let mut smaller = self.clone();
                        smaller.$i = c;
                        out.push(smaller);
                    }
                )+
                out
            }
        }
    };
}
tuple!(A 0);
tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);
tuple!(A 0, B 1, C 2, D 3, E 4);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5);

#[cfg(test)]
mod tests {
    use super::*;

    /// Greedy minimisation as `check` does it: the first candidate that
    /// still `fails`, until none does.
    fn minimise<T: Shrink>(mut x: T, fails: impl Fn(&T) -> bool) -> T {
        assert!(fails(&x));
        while let Some(smaller) = x.shrink().into_iter().find(|c| fails(c)) {
            x = smaller;
        }
        x
    }

    #[test]
    fn minimal_values_offer_nothing() {
        assert!(0u64.shrink().is_empty());
        assert!(0i32.shrink().is_empty());
        assert!(false.shrink().is_empty());
        assert!(Vec::<u8>::new().shrink().is_empty());
        assert!([0u16; 3].shrink().is_empty());
        assert!((0u8, false).shrink().is_empty());
    }

    #[test]
    fn every_candidate_is_new_and_no_larger() {
        for x in [1u64, 2, 3, 0x8000_0000_0000_0105, u64::MAX] {
            let candidates = x.shrink();
            assert!(!candidates.is_empty(), "{x}");
            for c in &candidates {
                assert!(*c < x, "{x}: {c}");
            }
            let mut unique = candidates.clone();
            unique.dedup();
            assert_eq!(unique.len(), candidates.len(), "{x}: {candidates:?}");
        }
        for x in [-1i8, 1, i8::MIN, i8::MAX, -100] {
            for c in x.shrink() {
                assert!(c.unsigned_abs() <= x.unsigned_abs() && c != x, "{x}: {c}");
            }
        }
        assert_eq!((-5i32).shrink(), [5, 0, -1, -4, -2]);
        assert_eq!(i8::MIN.shrink(), [0, -64, -127]);
    }

    #[test]
    fn stray_bits_of_a_word_go() {
        // Fails while bits 3 and 40 are both set: exactly those remain.
        let needed = 1u64 << 3 | 1 << 40;
        assert_eq!(minimise(u64::MAX, |x| x & needed == needed), needed);
        // A threshold is found exactly: the least value above it.
        assert_eq!(minimise(1000u32, |&x| x >= 700), 700);
        assert_eq!(minimise(-1000i64, |&x| x <= -700), -700);
    }

    #[test]
    fn arrays_shrink_each_element() {
        // An 8x8 bit matrix as rows: one row's one bit matters.
        let rows = [0xffu8; 8];
        assert_eq!(
            minimise(rows, |r| r[5] & 0x10 != 0),
            [0, 0, 0, 0, 0, 16, 0, 0]
        );
    }

    #[test]
    fn vectors_lose_elements_then_shrink_them() {
        let words: Vec<u32> = (1..=20).collect();
        // Fails while it holds two elements above 9.
        let fails = |v: &Vec<u32>| v.iter().filter(|&&x| x > 9).count() >= 2;
        assert_eq!(minimise(words, fails), [10, 10]);
        assert_eq!(
            vec![7u8].shrink(),
            [vec![], vec![0], vec![3], vec![5], vec![6]]
        );
    }

    #[test]
    fn tuples_shrink_each_component() {
        let fails = |(depth, board, _): &(u8, [u16; 2], bool)| *depth >= 2 && board[1] & 4 != 0;
        assert_eq!(
            minimise((9, [0xffff, 0xffff], true), fails),
            (2, [0, 4], false)
        );
    }
}
