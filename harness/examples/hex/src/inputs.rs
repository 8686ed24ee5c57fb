//! The buffers hex encoding is measured and checked on: random bytes from
//! a seed, and the lengths that end inside every block the SIMD encoders
//! work in.

/// `n` random bytes from `seed` (SplitMix64, eight bytes a step).
pub fn bytes(mut x: u64, n: usize) -> Vec<u8> {
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut buffer: Vec<u8> = (0..n.div_ceil(8))
        .flat_map(|_| next().to_le_bytes())
        .collect();
    buffer.truncate(n);
    buffer
}

/// The empty buffer, lengths one either side of the SIMD blocks (16 bytes
/// for SSE, 32 for AVX2, 64 for AVX-512, and their multiples), and every
/// byte value in order.
pub fn edge_cases() -> Vec<(String, Vec<u8>)> {
    let lengths = [
        0, 1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 1000,
    ];
    let mut cases: Vec<_> = lengths
        .map(|n| (format!("{n} bytes"), bytes(n as u64, n)))
        .into();
    cases.push(("every byte value".to_owned(), (0..=255).collect()));
    cases.push(("all 0xff".to_owned(), vec![0xff; 100]));
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_have_their_length_and_repeat_from_their_seed() {
        for n in [0, 1, 7, 8, 9, 1 << 20] {
            assert_eq!(bytes(3, n).len(), n);
        }
        assert_eq!(bytes(3, 100), bytes(3, 100));
        assert_ne!(bytes(3, 100), bytes(4, 100));
        // A prefix of a longer buffer from the same seed.
        assert_eq!(bytes(5, 13)[..], bytes(5, 40)[..13]);
    }
}
