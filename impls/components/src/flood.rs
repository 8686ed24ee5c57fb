//! Bit-parallel flood fill: seed a component with the lowest remaining cell, dilate it with
//! masked shifts (one step per iteration) until it stops growing, remove it, repeat. Taking the
//! lowest cell each time yields the canonical order for free.

use crate::bits::dilate;
use crate::{Board, Components, Labeler};

/// Flood fill by single-step dilation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flood;

impl Labeler for Flood {
    fn label(&self, board: Board, out: &mut Components) {
        out.clear();
        let mut rest = board.bits();
        while rest != 0 {
            let mut comp = rest & rest.wrapping_neg();
            loop {
                let grown = dilate(comp) & rest;
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            out.push(comp);
            rest ^= comp;
        }
    }
}
