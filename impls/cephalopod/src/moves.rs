//! Straightforward move generation on the packed board: for each empty cell,
//! try every subset of its occupied neighbours from a small list. Shared by
//! the simple variants (`memo`, `bfs`) and the path-count cost model.

use crate::packed::{field, get};

/// The capture subsets of each spiral position: (neighbour positions as a
/// field mask to clear, the positions themselves).
struct Subsets {
    lists: [[(u32, [usize; 4], usize); 11]; 9],
    lens: [usize; 9],
}

/// Neighbour positions of each spiral position: ring neighbours, plus the
/// centre for edges; the centre touches the 4 edges.
const NEIGHBOURS: [&[usize]; 9] = [
    &[7, 1],
    &[0, 2, 8],
    &[1, 3],
    &[2, 4, 8],
    &[3, 5],
    &[4, 6, 8],
    &[5, 7],
    &[6, 0, 8],
    &[1, 3, 5, 7],
];

const SUBSETS: Subsets = {
    let mut s = Subsets {
        lists: [[(0, [0; 4], 0); 11]; 9],
        lens: [0; 9],
    };
    let mut pos = 0;
    while pos < 9 {
        let n = NEIGHBOURS[pos];
        let mut subset = 0u32;
        while subset < (1 << n.len()) {
            if subset.count_ones() >= 2 {
                let mut entry = (0u32, [0usize; 4], 0usize);
                let mut bit = 0;
                while bit < n.len() {
                    if subset & (1 << bit) != 0 {
                        entry.0 |= field(n[bit]);
                        entry.1[entry.2] = n[bit];
                        entry.2 += 1;
                    }
                    bit += 1;
                }
                s.lists[pos][s.lens[pos]] = entry;
                s.lens[pos] += 1;
            }
            subset += 1;
        }
        pos += 1;
    }
    s
};

/// Calls `f` with every child of the packed board `b` (one per move; the
/// same child may come twice through different moves).
#[inline]
pub(crate) fn for_each_child(b: u32, mut f: impl FnMut(u32)) {
    for pos in 0..9 {
        if get(b, pos) != 0 {
            continue;
        }
        let mut captured = false;
        for &(clear, members, len) in &SUBSETS.lists[pos][..SUBSETS.lens[pos]] {
            let mut sum = 0;
            let mut all_occupied = true;
            for &m in &members[..len] {
                let die = get(b, m);
                all_occupied &= die != 0;
                sum += die;
            }
            if all_occupied && sum <= 6 {
                captured = true;
                f((b & !clear) | sum << (3 * pos));
            }
        }
        if !captured {
            f(b | 1 << (3 * pos));
        }
    }
}
