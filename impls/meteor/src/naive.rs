//! The oracle: a cell array filled cell by cell. At the lowest empty cell try
//! every unused piece in every orientation, checking the cells one at a time,
//! with no pruning and no precomputed placements — slow but obviously right.

use crate::Solver;
use crate::board::{PartialBoard, Solution, Solutions};
use crate::geometry::{CELLS, ORIENTATIONS, PIECES, Shape, orientations};
use crate::search::Recorder;

/// The naive search (the oracle).
pub struct Naive {
    shapes: [[Shape; ORIENTATIONS]; PIECES],
}

impl Naive {
    /// Generates the orientations of every piece.
    pub fn new() -> Naive {
        Naive {
            shapes: std::array::from_fn(orientations),
        }
    }
}

impl Default for Naive {
    fn default() -> Self {
        Naive::new()
    }
}

/// `EMPTY` marks an empty cell in the array.
const EMPTY: u8 = u8::MAX;

struct State<'a> {
    shapes: &'a [[Shape; ORIENTATIONS]; PIECES],
    cells: [u8; CELLS],
    used: [bool; PIECES],
    nodes: u64,
    rec: Recorder,
}

impl State<'_> {
    /// Every cell below `from` is covered.
    fn search(&mut self, from: usize) {
        if self.rec.full() {
            return;
        }
        self.nodes += 1;
        let Some(cell) = (from..CELLS).find(|&c| self.cells[c] == EMPTY) else {
            self.rec.add(Solution(self.cells));
            return;
        };
        for piece in 0..PIECES {
            if self.used[piece] {
                continue;
            }
            for o in 0..ORIENTATIONS {
                let Some(covered) = self.shapes[piece][o].place(cell) else {
                    continue;
                };
                if covered.iter().any(|&c| self.cells[c as usize] != EMPTY) {
                    continue;
                }
                self.set(&covered, piece as u8);
                self.used[piece] = true;
                self.search(cell + 1);
                self.used[piece] = false;
                self.set(&covered, EMPTY);
            }
        }
    }

    fn set(&mut self, covered: &[u8], value: u8) {
        for &c in covered {
            self.cells[c as usize] = value;
        }
    }
}

impl Solver for Naive {
    fn solve(&self, board: &PartialBoard, limit: usize) -> Solutions {
        let mut state = State {
            shapes: &self.shapes,
            cells: std::array::from_fn(|c| board.get(c).unwrap_or(EMPTY)),
            used: [false; PIECES],
            nodes: 0,
            rec: Recorder::new(limit),
        };
        for (piece, _) in board.pieces() {
            state.used[piece as usize] = true;
        }
        state.search(0);
        state.rec.finish(state.nodes)
    }
}
