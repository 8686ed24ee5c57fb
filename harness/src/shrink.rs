//! Shrinkers for inputs of common types, so a disagreement `check` finds is
//! minimised without the adapter writing a shrinker of its own.
//!
//! [`Workload::shrink`](crate::Workload::shrink) cannot see whether an
//! input type has a shrinker (that would need a bound every input type
//! meets), so an adapter whose input is an integer, a `bool`, a `char`, a
//! `String`, an array, a `Vec`, an `Option` or a tuple of these forwards to
//! [`Shrink`] in one line. Integers lose bits one at a time, which takes a
//! bitboard down to the cells that matter; text loses characters, then the
//! ones left become `'a'` or `'0'`.
//!
//! The greedy search that uses a shrinker lives here too ([`minimise`]),
//! with its [`Budget`]: `check`'s disagreements, `bench`'s wrong answers
//! and the probes of a crash or hang all shrink through it, so each stops
//! after so many steps or so much time, whatever the input's size.

use std::collections::HashSet;
use std::iter;
use std::time::{Duration, Instant};

/// How far [`minimise`] may go: smaller values accepted, and time (checked
/// before each candidate is tried).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    /// Smaller values accepted before settling for the one reached.
    pub steps: usize,
    /// Time before settling for the value reached.
    pub time: Duration,
}

/// What [`minimise`] reached.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Minimised<T> {
    /// The smallest value found that still fails.
    pub value: T,
    /// How many smaller values were accepted on the way (0: none failed).
    pub steps: usize,
    /// Whether the budget ran out before no candidate failed any more.
    pub out_of_budget: bool,
}

/// Greedy minimisation: the first of `shrink`'s candidates that still
/// `fails` replaces the value, until none does or `budget` runs out. An
/// error of `fails` ends the search with it.
pub(crate) fn minimise<T, E>(
    mut value: T,
    budget: Budget,
    shrink: impl Fn(&T) -> Vec<T>,
    mut fails: impl FnMut(&T) -> Result<bool, E>,
) -> Result<Minimised<T>, E> {
    let started = Instant::now();
    let mut steps = 0;
    'steps: while steps < budget.steps {
        for candidate in shrink(&value) {
            if started.elapsed() > budget.time {
                break 'steps;
            }
            if fails(&candidate)? {
                (value, steps) = (candidate, steps + 1);
                continue 'steps;
            }
        }
        // No candidate fails: as small as the shrinker gets.
        return Ok(Minimised {
            value,
            steps,
            out_of_budget: false,
        });
    }
    Ok(Minimised {
        value,
        steps,
        out_of_budget: true,
    })
}

/// Values one step simpler than `self`, for greedy minimisation: `check`
/// keeps the first candidate that still fails and asks again, until none
/// does.
///
/// ```
/// use bitbench::Shrink;
///
/// // Clear everything, then each set bit, then halve, then step down.
/// assert_eq!(0b1010u8.shrink(), [0, 0b0010, 0b1000, 0b0101, 0b1001]);
/// // Empty, then shorter, then each character simpler.
/// assert_eq!("ab".to_owned().shrink(), ["", "b", "a", "aa"]);
/// assert_eq!(Some(3u8).shrink(), [None, Some(0), Some(1), Some(2)]);
/// // An adapter's one line (its input being `[u64; 4]`, say):
/// // fn shrink(&self, input: &[u64; 4]) -> Vec<[u64; 4]> { input.shrink() }
/// ```
pub trait Shrink: Clone {
    /// Candidates one step simpler, the boldest first; empty when `self`
    /// is as simple as the type gets (zero, `false`, `'a'`, `'0'`, empty,
    /// `None`).
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

/// A digit becomes `'0'`, any other character `'a'`: one candidate, none
/// for `'0'` and `'a'` themselves.
impl Shrink for char {
    fn shrink(&self) -> Vec<Self> {
        let simplest = if self.is_ascii_digit() { '0' } else { 'a' };
        if *self == simplest {
            Vec::new()
        } else {
            vec![simplest]
        }
    }
}

/// The empty string, then the `Vec<char>` steps without repeats: each
/// half, each character removed, each character simpler (see `char`).
/// Every step shortens the text or makes one more character `'a'` or `'0'`,
/// so greedy minimisation ends.
impl Shrink for String {
    fn shrink(&self) -> Vec<Self> {
        if self.is_empty() {
            return Vec::new();
        }
        let chars: Vec<char> = self.chars().collect();
        let mut seen = HashSet::new();
        iter::once(String::new())
            .chain(chars.shrink().into_iter().map(String::from_iter))
            .filter(|c| seen.insert(c.clone()))
            .collect()
    }
}

/// `None`, then the value inside one step simpler.
impl<T: Shrink> Shrink for Option<T> {
    fn shrink(&self) -> Vec<Self> {
        match self {
            None => Vec::new(),
            Some(x) => iter::once(None)
                .chain(x.shrink().into_iter().map(Some))
                .collect(),
        }
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

/// How many elements a vector's candidates hold in all, at most (the
/// first is offered whatever its size): every candidate of a long vector
/// is nearly as long as it, so offering them all would take its length
/// squared (a terabyte for a megabyte buffer). Up to about 2,000 elements
/// every candidate fits; beyond, only the boldest do, and each step that
/// takes one shortens the vector, so the finer ones follow.
const VEC_CANDIDATE_ELEMENTS: usize = 1 << 22;

/// Fewer elements first (each half, each quarter, eighth, … removed, then
/// each element removed), then one element simpler; candidates stop at
/// `VEC_CANDIDATE_ELEMENTS` elements in all.
impl<T: Shrink> Shrink for Vec<T> {
    fn shrink(&self) -> Vec<Self> {
        let n = self.len();
        let without = |cut: std::ops::Range<usize>| -> Vec<T> {
            self[..cut.start]
                .iter()
                .chain(&self[cut.end..])
                .cloned()
                .collect()
        };
        // Two elements' halves are the single removals below.
        let halves = (n > 2)
            .then_some([0..n / 2, n / 2..n])
            .into_iter()
            .flatten()
            .map(|keep| self[keep].to_vec());
        // Chunks of two or more; whole chunks only, single removals follow.
        let chunks = (2..usize::BITS)
            .map(|k| n >> k)
            .take_while(|&size| size >= 2)
            .flat_map(move |size| (0..n / size).map(move |j| j * size..(j + 1) * size));
        let singles = (0..n).map(|i| i..i + 1);
        let simpler = (0..n).flat_map(|i| {
            self[i].shrink().into_iter().map(move |c| {
                let mut smaller = self.clone();
                smaller[i] = c;
                smaller
            })
        });
        let candidates = halves
            .chain(chunks.chain(singles).map(without))
            .chain(simpler);
        let mut out = Vec::new();
        let mut room = VEC_CANDIDATE_ELEMENTS;
        for c in candidates {
            if c.len() > room && !out.is_empty() {
                break;
            }
            room = room.saturating_sub(c.len());
            out.push(c);
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

    /// Greedy minimisation as `check` does it, to the end.
    fn minimise<T: Shrink>(x: T, fails: impl Fn(&T) -> bool) -> T {
        assert!(fails(&x));
        let budget = Budget {
            steps: usize::MAX,
            time: Duration::MAX,
        };
        let found = super::minimise(x, budget, T::shrink, |c| Ok::<_, ()>(fails(c)));
        let found = found.unwrap();
        assert!(!found.out_of_budget);
        found.value
    }

    #[test]
    fn minimal_values_offer_nothing() {
        assert!(0u64.shrink().is_empty());
        assert!(0i32.shrink().is_empty());
        assert!(false.shrink().is_empty());
        assert!(Vec::<u8>::new().shrink().is_empty());
        assert!([0u16; 3].shrink().is_empty());
        assert!((0u8, false).shrink().is_empty());
        assert!('a'.shrink().is_empty());
        assert!('0'.shrink().is_empty());
        assert!(String::new().shrink().is_empty());
        assert!(None::<u8>.shrink().is_empty());
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
    fn characters_become_a_or_0() {
        assert_eq!('Z'.shrink(), ['a']);
        assert_eq!('b'.shrink(), ['a']);
        assert_eq!('é'.shrink(), ['a']);
        assert_eq!(' '.shrink(), ['a']);
        assert_eq!('7'.shrink(), ['0']);
    }

    #[test]
    fn strings_lose_characters_then_simplify_them() {
        let shrink = |s: &str| s.to_owned().shrink();
        assert_eq!(shrink("a"), [""]);
        assert_eq!(shrink("é"), ["", "a"]);
        // Dropping either 'a' gives the same string, offered once.
        assert_eq!(shrink("aa"), ["", "a"]);
        assert_eq!(shrink("ab"), ["", "b", "a", "aa"]);
        // The second half is also the first character removed.
        assert_eq!(
            shrink("x9 "),
            ["", "x", "9 ", "x ", "x9", "a9 ", "x0 ", "x9a"]
        );
    }

    #[test]
    fn string_candidates_are_new_and_unique() {
        for s in ["b", "hello world", "Zz00aa!!", "ünïcödé 42", "aaaa"] {
            let candidates = s.to_owned().shrink();
            assert!(!candidates.is_empty(), "{s:?}");
            assert!(candidates.iter().all(|c| c != s), "{s:?}: {candidates:?}");
            let unique: HashSet<_> = candidates.iter().collect();
            assert_eq!(unique.len(), candidates.len(), "{s:?}: {candidates:?}");
        }
    }

    #[test]
    fn strings_reach_a_fixpoint() {
        // Only the length matters: every character ends as 'a' or '0'.
        let five = |s: &String| s.chars().count() == 5;
        assert_eq!(minimise("Hi 9!".to_owned(), five), "aaa0a");
        let needle = |s: &String| s.contains("ll");
        assert_eq!(minimise("hello world".to_owned(), needle), "ll");
    }

    #[test]
    fn options_shrink_to_none_then_inside() {
        assert_eq!(Some(3u8).shrink(), [None, Some(0), Some(1), Some(2)]);
        assert_eq!(Some(0u8).shrink(), [None]);
        assert_eq!(Some(Some(false)).shrink(), [None, Some(None)]);
        assert_eq!(
            minimise(Some(1000u32), |x| x.is_some_and(|x| x >= 7)),
            Some(7)
        );
    }

    #[test]
    fn text_and_a_number_shrink_together() {
        let fails = |(text, n): &(String, u32)| text.contains('o') && *n >= 7;
        assert_eq!(
            minimise(("hello world".to_owned(), 1000u32), fails),
            ("o".to_owned(), 7)
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

    #[test]
    fn a_megabyte_buffer_offers_a_few_times_its_size() {
        let buffer = vec![0xffu8; 1 << 20];
        let candidates = buffer.shrink();
        let elements: usize = candidates.iter().map(Vec::len).sum();
        assert!(elements <= VEC_CANDIDATE_ELEMENTS, "{elements}");
        // The halves, then the quarters removed.
        assert_eq!(candidates.len(), 6);
        assert_eq!(candidates[0].len(), 1 << 19);
        assert_eq!(candidates[2].len(), 3 << 18);
        // One byte that matters is found in a few dozen steps.
        let mut planted = buffer;
        planted[700_000] = 0xab;
        let fails = |v: &Vec<u8>| v.contains(&0xab);
        assert_eq!(minimise(planted, fails), [0xab]);
    }

    #[test]
    fn vectors_lose_chunks_before_single_elements() {
        let v: Vec<u8> = (0..8).collect();
        let lengths: Vec<usize> = v.shrink().iter().map(Vec::len).take(7).collect();
        // Halves, the four quarters removed, then single removals.
        assert_eq!(lengths, [4, 4, 6, 6, 6, 6, 7]);
        assert_eq!(v.shrink()[2], [2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn minimising_stops_at_its_budget() {
        let fails = |x: &u64| Ok::<_, ()>(*x >= 10);
        let steps = Budget {
            steps: 3,
            time: Duration::MAX,
        };
        // 1000 loses one set bit a step: three steps only.
        let found = super::minimise(1000u64, steps, u64::shrink, fails).unwrap();
        assert_eq!((found.steps, found.out_of_budget), (3, true));
        assert!(found.value < 1000 && found.value >= 10, "{}", found.value);
        let no_time = Budget {
            steps: usize::MAX,
            time: Duration::ZERO,
        };
        let found = super::minimise(1000u64, no_time, u64::shrink, fails).unwrap();
        assert_eq!(
            found,
            Minimised {
                value: 1000,
                steps: 0,
                out_of_budget: true
            }
        );
        // Nothing smaller fails: done, within budget.
        let found = super::minimise(10u64, steps, u64::shrink, fails).unwrap();
        assert_eq!(
            found,
            Minimised {
                value: 10,
                steps: 0,
                out_of_budget: false
            }
        );
        // An error of the predicate ends the search.
        let broken = super::minimise(1000u64, steps, u64::shrink, |_| Err("probe failed"));
        assert_eq!(broken, Err("probe failed"));
    }
}
