//! The seed's `get_gameovers`: every winning line as a bitboard mask.
//!
//! The list is built by code for the batch's configuration (69 masks on
//! 7×6 K=4) once per run of positions; a player has won when some mask is
//! entirely covered by their stones. The loop over masks does not stop
//! early so the compiler can vectorise it, as numpy does in the seed.

use crate::position::by_word;
use crate::{Bits, Config, Position, WinCheck};

/// Winning-line mask list (see the module docs).
pub struct GameoverMasks;

impl WinCheck for GameoverMasks {
    fn winners(&self, positions: &[Position], out: &mut [u8]) {
        super::for_each_run(
            positions,
            out,
            |config, run, out| by_word!(config, B => check_run(&gameovers::<B>(config), run, out)),
        );
    }
}

/// Every line of K cells on the board, as masks in the bitboard layout.
pub fn gameovers<B: Bits>(config: Config) -> Vec<B> {
    let (w, h, k) = (config.columns(), config.rows(), config.inarow());
    let cell = |c: usize, r: usize| B::ONE << (c * (h + 1) + r) as u32;
    let mut masks = Vec::new();
    // (dc, dr) steps from a line's first cell; rows count from the bottom.
    let directions: [(usize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    for (dc, dr) in directions {
        for c in 0..w {
            for r in 0..h {
                let last_c = c + dc * (k - 1);
                let last_r = r as isize + dr * (k as isize - 1);
                if last_c >= w || last_r < 0 || last_r >= h as isize {
                    continue;
                }
                let mut mask = B::ZERO;
                for i in 0..k {
                    mask |= cell(c + dc * i, (r as isize + dr * i as isize) as usize);
                }
                masks.push(mask);
            }
        }
    }
    masks
}

fn check_run<B: Bits>(masks: &[B], positions: &[Position], out: &mut [u8]) {
    for (position, out) in positions.iter().zip(out) {
        let [p1, p2] = position.stones::<B>();
        let (mut w1, mut w2) = (false, false);
        for &m in masks {
            w1 |= p1 & m == m;
            w2 |= p2 & m == m;
        }
        *out = super::encode(w1, w2);
    }
}
