//! The oracle: Kaggle's list board with its `is_win` line counting run
//! through every stone.
//!
//! Kaggle's agents receive the list board, so the conversion from our stored
//! bitboards to a list board happens inside the timed call, into a stack
//! buffer: it costs W*H bit tests, small next to the line counting.

use crate::position::by_word;
use crate::{Bits, Config, Position, WinCheck, kaggle};

/// Kaggle's list-board win check (see the module docs).
pub struct KaggleList;

impl WinCheck for KaggleList {
    fn winners(&self, positions: &[Position], out: &mut [u8]) {
        super::for_each_run(
            positions,
            out,
            |config, run, out| by_word!(config, B => check_run::<B>(config, run, out)),
        );
    }
}

fn check_run<B: Bits>(config: Config, positions: &[Position], out: &mut [u8]) {
    let mut buffer = [0u8; 128];
    let board = &mut buffer[..config.cells()];
    let w = config.columns();
    for (position, out) in positions.iter().zip(out) {
        let [p1, p2] = position.stones::<B>();
        for r in 0..config.rows() {
            for c in 0..w {
                let bit = B::ONE << config.bit_index(r, c);
                board[c + r * w] =
                    u8::from(p1 & bit != B::ZERO) | (u8::from(p2 & bit != B::ZERO) << 1);
            }
        }
        *out = kaggle::winner_every_cell(board, config);
    }
}
