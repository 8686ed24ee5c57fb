//! The positions perft is counted from: the six standard ones, a few that
//! catch the rules' corners, and random playouts from the start; and the
//! one text form every crate reads, a FEN as shakmaty writes it.

use crate::{Chessboard, Input};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};

/// The standard perft positions: the start, "kiwipete" and positions 3 to
/// 6 of the chess programming wiki's "Perft Results" page.
pub const STANDARD: [(&str, &str); 6] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
];

/// Positions where a move generator is most often wrong: en passant,
/// castling, promotion, discovered check, mate and stalemate.
pub const CORNERS: [(&str, &str); 13] = [
    (
        "en passant exposing the king to a rook",
        "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    ),
    (
        "en passant exposing the king to a bishop",
        "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    ),
    (
        "en passant giving check",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    ),
    (
        "short castling giving check",
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    ),
    (
        "long castling giving check",
        "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    ),
    (
        "castling rights lost to captures",
        "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    ),
    (
        "castling through check",
        "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    ),
    (
        "promotion out of check",
        "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    ),
    ("discovered check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1"),
    (
        "under-promotion giving check",
        "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    ),
    ("self-stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1"),
    ("stalemate and checkmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1"),
    (
        "checkmated",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ),
];

/// The most random plies a playout makes before its position is taken.
pub const MAX_PLIES: usize = 100;

/// `fen` read as a legal position and written back as shakmaty writes it:
/// all six fields, and an en passant square only where a capture is legal.
pub fn canonical(fen: &str) -> Result<String, String> {
    Chess::from_fen(fen).map(|position| fen_of(&position))
}

fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// `n` positions, each after up to [`MAX_PLIES`] random legal plies from
/// the start (fewer where the game ends), to depth 1 to 3, from `seed`.
pub fn playouts(seed: u64, n: usize) -> Vec<Input> {
    let mut random = SplitMix64(seed);
    let mut playout = || {
        let mut position = Chess::default();
        for _ in 0..random.below(MAX_PLIES + 1) {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position.play_unchecked(moves[random.below(moves.len())]);
        }
        (fen_of(&position), 1 + random.below(3) as u32)
    };
    (0..n).map(|_| playout()).collect()
}

/// Sebastiano Vigna's SplitMix64: small, seeded, good enough to pick moves.
struct SplitMix64(u64);

impl SplitMix64 {
    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (self.0 ^ (self.0 >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::variants;

    /// The published counts of [`STANDARD`], depths 1 to 4.
    const COUNTS: [[u64; 4]; 6] = [
        [20, 400, 8_902, 197_281],
        [48, 2_039, 97_862, 4_085_603],
        [14, 191, 2_812, 43_238],
        [6, 264, 9_467, 422_333],
        [44, 1_486, 62_379, 2_103_487],
        [46, 2_079, 89_890, 3_894_594],
    ];

    #[test]
    fn every_variant_counts_the_published_numbers() {
        let inputs: Vec<Input> = STANDARD
            .iter()
            .flat_map(|(_, fen)| (1..=4).map(|depth| (fen.to_string(), depth)))
            .collect();
        let expected: Vec<u64> = COUNTS.iter().flatten().copied().collect();
        for v in variants() {
            let mut got = vec![0; inputs.len()];
            (v.make)().solve_batch(&inputs, &mut got);
            assert_eq!(got, expected, "{}", v.name);
        }
    }

    #[test]
    fn the_positions_are_written_as_shakmaty_writes_them() {
        for (label, fen) in STANDARD.iter().chain(&CORNERS) {
            assert_eq!(canonical(fen).as_deref(), Ok(*fen), "{label}");
        }
        for (fen, depth) in playouts(7, 200) {
            assert_eq!(canonical(&fen), Ok(fen.clone()));
            assert!((1..=3).contains(&depth), "{fen};{depth}");
        }
    }

    #[test]
    fn playouts_repeat_from_their_seed_and_go_past_the_opening() {
        assert_eq!(playouts(3, 50), playouts(3, 50));
        assert_ne!(playouts(3, 50), playouts(4, 50));
        let plies = |fen: &String| fen.split(' ').next_back().unwrap().parse::<u32>().unwrap();
        assert!(playouts(3, 200).iter().any(|(fen, _)| plies(fen) > 40));
    }
}
