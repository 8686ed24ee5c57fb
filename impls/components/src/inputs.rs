//! Deterministic input generators, each a pure function of a `u64` seed, plus the spec's edge
//! cases and a shrinker for minimising failing boards. The PRNG is a self-contained splitmix64
//! so the sets never change with a dependency's version.

use crate::Board;

/// splitmix64: tiny, fast, and good enough for test inputs.
#[derive(Clone, Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// True with probability `p` (clamped to 0..=1).
    fn chance(&mut self, p: f64) -> bool {
        // 53 random bits against p scaled to the same range.
        ((self.next() >> 11) as f64) < p.clamp(0.0, 1.0) * (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (n > 0); the tiny modulo bias is irrelevant here.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn word72(&mut self) -> u128 {
        ((self.next() as u128) | (self.next() as u128) << 64) & Board::FULL
    }
}

/// `n` boards with each cell set independently with probability `p`.
pub fn density(p: f64, seed: u64, n: usize) -> Vec<Board> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| {
            let mut bits = 0u128;
            for i in 0..Board::CELLS {
                if rng.chance(p) {
                    bits |= 1 << i;
                }
            }
            Board(bits)
        })
        .collect()
}

/// `n` boards from the seed write-up's distribution: the AND of three random 72-bit words
/// (each cell set with probability 1/8, about 9 cells).
pub fn seed_set(seed: u64, n: usize) -> Vec<Board> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| Board(rng.word72() & rng.word72() & rng.word72()))
        .collect()
}

/// Number of block colours in Smash the Code (skulls come on top of these).
const COLOURS: usize = 5;

/// `n` realistic Smash the Code colour boards. Each game board fills its columns from the
/// bottom (gravity) to random heights around a common level, with 5 colours and skulls; a
/// cell often repeats the colour below or to its left, as real play builds clusters. Every game
/// board yields one [`Board`] per colour (skulls never form groups), until `n` are made.
pub fn game(seed: u64, n: usize) -> Vec<Board> {
    let mut rng = SplitMix64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        // colour[row][col]: 0 = empty, 1..=5 colours, 6 = skull.
        let mut colour = [[0u8; Board::WIDTH]; Board::HEIGHT];
        let level = rng.below(Board::HEIGHT as u64 + 1) as i64;
        for col in 0..Board::WIDTH {
            let height = (level + rng.below(5) as i64 - 2).clamp(0, Board::HEIGHT as i64) as usize;
            for row in (Board::HEIGHT - height..Board::HEIGHT).rev() {
                colour[row][col] = if rng.chance(0.08) {
                    6
                } else if row + 1 < Board::HEIGHT && rng.chance(0.3) && colour[row + 1][col] != 6 {
                    colour[row + 1][col]
                } else if col > 0 && rng.chance(0.25) && (1..=5).contains(&colour[row][col - 1]) {
                    colour[row][col - 1]
                } else {
                    1 + rng.below(COLOURS as u64) as u8
                };
            }
        }
        for c in 1..=COLOURS as u8 {
            let mut bits = 0u128;
            for (row, cells) in colour.iter().enumerate() {
                for (col, &v) in cells.iter().enumerate() {
                    if v == c {
                        bits |= 1 << (row * Board::WIDTH + col);
                    }
                }
            }
            if out.len() < n {
                out.push(Board(bits));
            }
        }
    }
    out
}

fn from_rows(rows: [u8; Board::HEIGHT]) -> Board {
    // Each row literal is written left column first as the high bit of 6, matching pictures.
    let mut bits = 0u128;
    for (r, &row) in rows.iter().enumerate() {
        for c in 0..Board::WIDTH {
            if row >> (Board::WIDTH - 1 - c) & 1 == 1 {
                bits |= 1 << (r * Board::WIDTH + c);
            }
        }
    }
    Board(bits)
}

fn pattern(f: impl Fn(usize, usize) -> bool) -> Board {
    let mut bits = 0u128;
    for i in 0..Board::CELLS {
        if f(i / Board::WIDTH, i % Board::WIDTH) {
            bits |= 1 << i;
        }
    }
    Board(bits)
}

/// The spec's edge cases, each with a short name: empty, full, both checkerboards, each
/// corner, full rows and columns, snakes turning at every row (both orientations), the seed's
/// `111000/101000/001000/001000` case and a few shapes that stress merging.
pub fn edge_cases() -> Vec<(&'static str, Board)> {
    let w = Board::WIDTH;
    let h = Board::HEIGHT;
    vec![
        ("empty", Board(0)),
        ("full", Board(Board::FULL)),
        ("checkerboard-even", pattern(|r, c| (r + c) % 2 == 0)),
        ("checkerboard-odd", pattern(|r, c| (r + c) % 2 == 1)),
        ("corner-top-left", pattern(|r, c| r == 0 && c == 0)),
        ("corner-top-right", pattern(|r, c| r == 0 && c == w - 1)),
        ("corner-bottom-left", pattern(|r, c| r == h - 1 && c == 0)),
        (
            "corner-bottom-right",
            pattern(|r, c| r == h - 1 && c == w - 1),
        ),
        (
            "all-corners",
            pattern(|r, c| (r == 0 || r == h - 1) && (c == 0 || c == w - 1)),
        ),
        ("row-top", pattern(|r, _| r == 0)),
        ("row-bottom", pattern(|r, _| r == h - 1)),
        ("column-left", pattern(|_, c| c == 0)),
        ("column-right", pattern(|_, c| c == w - 1)),
        // Horizontal snake: full even rows joined at alternating ends; dilation needs one step
        // per cell to walk it.
        (
            "snake-rows",
            pattern(|r, c| r % 2 == 0 || (r % 4 == 1 && c == w - 1) || (r % 4 == 3 && c == 0)),
        ),
        // Vertical snake: full even columns joined at alternating ends.
        (
            "snake-columns",
            pattern(|r, c| c % 2 == 0 || (c % 4 == 1 && r == h - 1) || (c % 4 == 3 && r == 0)),
        ),
        // A staircase turning at every row: worst case for row-by-row growth.
        (
            "staircase",
            pattern(|r, c| c == r % w || c == (r + 1) % w && r % w != w - 1),
        ),
        (
            "seed-merge",
            from_rows([
                0b111000, 0b101000, 0b001000, 0b001000, 0, 0, 0, 0, 0, 0, 0, 0,
            ]),
        ),
        (
            "l-and-dot",
            from_rows([0b100000, 0b100000, 0b110010, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ),
        // Comb: teeth open at the top merge only at the bottom row.
        ("comb", pattern(|r, c| c % 2 == 0 || r == h - 1)),
        // Stripes: vertical and horizontal bars that never touch.
        ("stripes-columns", pattern(|_, c| c % 2 == 0)),
        ("stripes-rows", pattern(|r, _| r % 2 == 0)),
        // A ring: one component with a hole holding another.
        (
            "ring-with-center",
            pattern(|r, c| {
                let edge = r == 2 || r == 8 || c == 0 || c == 5;
                let inside = (3..8).contains(&r) && (1..5).contains(&c);
                ((2..=8).contains(&r) && edge) || (inside && r == 5 && c == 2)
            }),
        ),
    ]
}

/// Boards one cell smaller than `board` (each set cell cleared in turn), for shrinking a
/// failing input to a minimal one.
pub fn shrink(board: Board) -> impl Iterator<Item = Board> {
    let bits = board.bits();
    (0..Board::CELLS)
        .filter(move |&i| bits >> i & 1 == 1)
        .map(move |i| Board(bits & !(1 << i)))
}
