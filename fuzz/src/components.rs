//! The `components` target: a batch of 6×12 boards, every labeler of the
//! baseline registry (and of the `groups4` registry) against its oracle.
//!
//! Boards come from shape generators rather than raw bits alone, because
//! connected-component bugs hide in structure (long snakes, combs, gravity
//! stacks, near-full boards) that uniform random bits almost never draw. Each
//! variant is run one board at a time and through `label_batch` on the whole
//! batch, so SIMD lanes and batch tails are exercised too.

use crate::{Built, Mismatch, build_all, byte};
use ::components::{Board, Components, Labeler};
use arbitrary::{Arbitrary, Unstructured};
use std::fmt;
use std::sync::LazyLock;

/// The most boards in one case: enough for several full AVX-512 registers
/// (4 boards each) plus a tail.
pub const MAX_BATCH: usize = 9;

/// Bytes of a raw 72-bit board.
const BOARD_BYTES: usize = Board::CELLS / 8;

/// How one board is drawn; the low three bits of the tag byte.
const SHAPES: u8 = 6;
/// Tag bit: complement the drawn board (sparse shapes become near-full ones).
const INVERT: u8 = 0x80;

/// A batch of boards for the components registries.
#[derive(Clone, PartialEq, Eq)]
pub struct Case {
    /// The boards, 1 to [`MAX_BATCH`].
    pub boards: Vec<Board>,
}

fn raw(u: &mut Unstructured<'_>) -> u128 {
    (0..BOARD_BYTES).fold(0, |bits, i| bits | u128::from(byte(u)) << (8 * i))
}

/// A walk of up to 128 steps from a start cell, setting every cell it visits;
/// a step off the board stays put. Draws snakes, spirals and blobs.
fn walk(u: &mut Unstructured<'_>) -> u128 {
    let (w, h) = (Board::WIDTH, Board::HEIGHT);
    let mut cell = usize::from(byte(u)) % Board::CELLS;
    let mut bits = 1u128 << cell;
    let steps = usize::from(byte(u) % 32);
    for _ in 0..steps {
        let four = byte(u);
        for k in 0..4 {
            let (r, c) = (cell / w, cell % w);
            cell = match four >> (2 * k) & 3 {
                0 if r > 0 => cell - w,
                1 if r + 1 < h => cell + w,
                2 if c > 0 => cell - 1,
                3 if c + 1 < w => cell + 1,
                _ => cell,
            };
            bits |= 1 << cell;
        }
    }
    bits
}

/// Columns filled from the bottom to heights 0..=12 (Smash the Code gravity).
fn gravity(u: &mut Unstructured<'_>) -> u128 {
    let mut bits = 0u128;
    for c in 0..Board::WIDTH {
        let height = usize::from(byte(u)) % (Board::HEIGHT + 1);
        for r in Board::HEIGHT - height..Board::HEIGHT {
            bits |= 1 << (r * Board::WIDTH + c);
        }
    }
    bits
}

fn board(u: &mut Unstructured<'_>) -> Board {
    let tag = byte(u);
    let bits = match tag % SHAPES {
        0 => raw(u),
        1 => raw(u) & raw(u),
        2 => raw(u) | raw(u),
        3 => walk(u),
        4 => gravity(u),
        _ => gravity(u) & raw(u),
    } & Board::FULL;
    let bits = if tag & INVERT != 0 {
        bits ^ Board::FULL
    } else {
        bits
    };
    Board::new(bits).expect("masked to the board")
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        let n = 1 + usize::from(byte(u)) % MAX_BATCH;
        Ok(Case {
            boards: (0..n).map(|_| board(u)).collect(),
        })
    }
}

impl Case {
    /// The bytes that decode to exactly these boards (raw shape each).
    ///
    /// # Panics
    /// If there are no boards or more than [`MAX_BATCH`].
    pub fn encode(&self) -> Vec<u8> {
        assert!((1..=MAX_BATCH).contains(&self.boards.len()));
        let mut out = vec![(self.boards.len() - 1) as u8];
        for b in &self.boards {
            out.push(0);
            out.extend_from_slice(&b.bits().to_le_bytes()[..BOARD_BYTES]);
        }
        out
    }

    /// Runs every variant of both registries on the batch; panics on the
    /// first disagreement with the oracle.
    pub fn check(&self) {
        check_registry("components", &ALL, &self.boards);
        check_registry("components-groups4", &GROUPS4, &self.boards);
    }
}

/// The reproduction: one `bitbench solve` with every board of the batch.
impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bitbench solve components")?;
        for b in &self.boards {
            write!(f, " {}", crate::shell_quote(&b.to_string()))?;
        }
        Ok(())
    }
}

static ALL: LazyLock<Vec<Built<dyn Labeler>>> =
    LazyLock::new(|| build_all(::components::variants(), |v| (v.name, (v.make)())));
static GROUPS4: LazyLock<Vec<Built<dyn Labeler>>> =
    LazyLock::new(|| build_all(::components::groups4_variants(), |v| (v.name, (v.make)())));

fn check_registry(workload: &str, variants: &[Built<dyn Labeler>], boards: &[Board]) {
    let (oracle, rest) = variants.split_first().expect("a registry has its oracle");
    let expected: Vec<Components> = boards
        .iter()
        .map(|&b| {
            let mut out = Components::new();
            oracle.imp.label(b, &mut out);
            out
        })
        .collect();
    let mut batch = vec![Components::new(); boards.len()];
    for v in rest {
        let report = |i: usize, got: &Components, context: String| {
            Mismatch {
                workload,
                oracle: oracle.name,
                variant: v.name,
                input: boards[i].to_string(),
                expected: expected[i].to_string(),
                got: got.to_string(),
                context,
            }
            .fail()
        };
        let mut one = Components::new();
        for (i, &b) in boards.iter().enumerate() {
            v.imp.label(b, &mut one);
            if one != expected[i] {
                report(i, &one, String::new());
            }
        }
        v.imp.label_batch(boards, &mut batch);
        for (i, got) in batch.iter().enumerate() {
            if *got != expected[i] {
                report(
                    i,
                    got,
                    format!(
                        "in label_batch, board {} of a batch of {}; `bitbench solve` labels one \
                         board at a time, so a batch-only bug reproduces with \
                         `cargo fuzz run components ARTIFACT`",
                        i + 1,
                        boards.len()
                    ),
                );
            }
        }
    }
}

/// Seeds: every edge case of the crate on its own, and all of them in batches.
pub fn seeds() -> Vec<(String, Case)> {
    let edges = ::components::inputs::edge_cases();
    let mut out: Vec<(String, Case)> = edges
        .iter()
        .map(|&(label, b)| (label.to_owned(), Case { boards: vec![b] }))
        .collect();
    for (i, chunk) in edges.chunks(MAX_BATCH).enumerate() {
        out.push((
            format!("batch-{}", i + 1),
            Case {
                boards: chunk.iter().map(|&(_, b)| b).collect(),
            },
        ));
    }
    out
}
