//! The inputs popcount is measured and checked on: random buffers, and
//! buffers whose lengths end inside every block size the variants use.

/// `n` random words from `seed` (SplitMix64).
pub fn words(mut x: u64, n: usize) -> Vec<u64> {
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..n).map(|_| next()).collect()
}

/// The empty buffer, lengths that end inside every block size the
/// variants use (8-word lanes, 16-vector carry-save blocks), and all ones.
pub fn edge_cases() -> Vec<(String, Vec<u64>)> {
    let lengths = [0, 1, 3, 7, 17, 33, 63, 65, 129, 1000];
    let mut cases: Vec<_> = lengths
        .map(|n| (format!("{n} words"), words(n as u64, n)))
        .into();
    cases.push(("all ones".to_owned(), vec![u64::MAX; 70]));
    cases
}
