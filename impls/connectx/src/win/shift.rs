//! Tromp/Pons shift-and win detection, any K by log-doubling.
//!
//! `m &= m >> (s*d)` turns runs of length n into runs of length n + s along
//! direction d (1 vertical, H+1 horizontal, H and H+2 diagonal); doubling
//! s reaches K in about log2(K) steps. Both players' four directions form
//! eight independent dependency chains, which keeps the core busy.

use crate::position::by_word;
use crate::{Bits, Geometry, Position, WinCheck};

/// Scalar shift-and win detection (see the module docs).
pub struct Shift;

impl WinCheck for Shift {
    fn winners(&self, positions: &[Position], out: &mut [u8]) {
        super::for_each_run(
            positions,
            out,
            |config, run, out| by_word!(config, B => check_run(&Geometry::<B>::new(config), run, out)),
        );
    }
}

fn check_run<B: Bits>(geo: &Geometry<B>, positions: &[Position], out: &mut [u8]) {
    for (position, out) in positions.iter().zip(out) {
        let [p1, p2] = geo.has_lines(position.stones::<B>());
        *out = super::encode(p1, p2);
    }
}
