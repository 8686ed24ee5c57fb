//! Row-by-row labelling with a two-row transition table (the seed's idea): for every pair
//! (previous row, current row) of 6-bit patterns, a table built once by code lists the runs of
//! the current row and which runs of the previous row each one touches. The scan keeps one
//! label per run of the previous row and merges labels when a run touches two of them.

use std::sync::OnceLock;

use crate::{Board, Components, Labeler};

/// A row of 6 cells has at most 3 runs (`101010`).
const RUNS: usize = 3;
const ROW: u128 = (1 << Board::WIDTH) - 1;

/// One run of the current row: its cells in the low 6 bits and, in bits 8..11, the runs of
/// the previous row (numbered left to right) that it touches. Zero ends the list.
type Entry = [u16; RUNS];

/// The runs of a 6-bit row, left (bit 0) first, each as a mask.
fn runs(row: u16) -> impl Iterator<Item = u16> {
    let mut rest = row;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        // Adding the lowest bit carries through the run; the changed bits are the run.
        let low = rest & rest.wrapping_neg();
        let run = (rest + low) ^ rest;
        let run = run & rest;
        rest &= !run;
        Some(run)
    })
}

fn build() -> Box<[Entry]> {
    let mut table = vec![[0u16; RUNS]; 1 << (2 * Board::WIDTH)].into_boxed_slice();
    for (index, entry) in table.iter_mut().enumerate() {
        let prev = (index & 0x3f) as u16;
        let cur = (index >> Board::WIDTH) as u16;
        for (slot, run) in entry.iter_mut().zip(runs(cur)) {
            let touches = runs(prev)
                .enumerate()
                .filter(|&(_, p)| p & run != 0)
                .fold(0u16, |acc, (i, _)| acc | 1 << i);
            *slot = run | touches << 8;
        }
    }
    table
}

/// The table, built on first use and shared by every instance.
fn table() -> &'static [Entry] {
    static TABLE: OnceLock<Box<[Entry]>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Two-row transition-table scan.
#[derive(Clone, Copy, Debug)]
pub struct RowTable {
    table: &'static [Entry],
}

impl RowTable {
    /// Builds (once per process) the 4096-entry table.
    pub fn new() -> RowTable {
        RowTable { table: table() }
    }
}

impl Default for RowTable {
    fn default() -> RowTable {
        RowTable::new()
    }
}

impl Labeler for RowTable {
    fn label(&self, board: Board, out: &mut Components) {
        let bits = board.bits();
        // Components by label, kept in `out`'s own slots (a label is at most the number of
        // components so far); a merged-away label is left as an empty mask.
        let comps = &mut out.masks;
        let mut count = 0usize;
        let mut prev_row = 0usize;
        let mut prev_labels = [0u8; RUNS];
        for row in 0..Board::HEIGHT {
            let cur = (bits >> (row * Board::WIDTH) & ROW) as usize;
            if cur == 0 {
                prev_row = 0;
                continue;
            }
            let entry = &self.table[prev_row | cur << Board::WIDTH];
            let mut labels = [0u8; RUNS];
            for j in 0..RUNS {
                let e = entry[j];
                if e == 0 {
                    break;
                }
                let touches = e >> 8;
                let run = ((e & 0x3f) as u128) << (row * Board::WIDTH);
                if touches == 0 {
                    // A new component.
                    comps[count] = run;
                    labels[j] = count as u8;
                    count += 1;
                    continue;
                }
                let label = if touches & (touches - 1) == 0 {
                    // The run continues one run of the previous row: no merge.
                    prev_labels[touches.trailing_zeros() as usize]
                } else {
                    // Keep the smallest (oldest) label on a merge: labels are created in raster
                    // order, so surviving labels stay in canonical order and no sort is needed.
                    let mut label = u8::MAX;
                    let mut t = touches;
                    while t != 0 {
                        label = label.min(prev_labels[t.trailing_zeros() as usize]);
                        t &= t - 1;
                    }
                    let mut t = touches;
                    while t != 0 {
                        let other = prev_labels[t.trailing_zeros() as usize];
                        t &= t - 1;
                        if other != label {
                            comps[label as usize] |= comps[other as usize];
                            comps[other as usize] = 0;
                            for l in prev_labels.iter_mut().chain(labels[..j].iter_mut()) {
                                if *l == other {
                                    *l = label;
                                }
                            }
                        }
                    }
                    label
                };
                comps[label as usize] |= run;
                labels[j] = label;
            }
            prev_row = cur;
            prev_labels = labels;
        }
        // Drop the merged-away labels, keeping the order.
        let mut len = 0;
        for i in 0..count {
            let c = comps[i];
            comps[len] = c;
            len += usize::from(c != 0);
        }
        out.len = len as u8;
    }
}
