//! The optional `groups4` problem (Smash the Code): only components of four or more cells, in
//! canonical order. Its oracle filters `naive-bfs`; the fast variants first strip cells that
//! cannot be in such a group (isolated cells and isolated dominoes, found with a few bit
//! operations for the whole board), label what is left with a baseline variant, and filter.

use crate::bits::small_components;
use crate::naive_bfs::NaiveBfs;
use crate::{Board, Components, Labeler, Variant, flood::Flood, swar::Swar};

/// Components of at least this many cells survive.
pub(crate) const MIN_GROUP: u32 = 4;

/// Cells of `m` in components of one or two cells.
#[inline]
pub(crate) fn tiny(m: u128) -> u128 {
    let (singles, dominoes, _, _) = small_components(m);
    singles | dominoes
}

/// A baseline labeler restricted to groups of at least [`MIN_GROUP`] cells.
#[derive(Clone, Copy, Debug, Default)]
struct Groups4<L> {
    inner: L,
    /// Strip isolated cells and dominoes before labelling.
    prefilter: bool,
}

impl<L: Labeler> Groups4<L> {
    fn input(&self, b: Board) -> Board {
        if self.prefilter {
            Board(b.bits() & !tiny(b.bits()))
        } else {
            b
        }
    }
}

/// Boards per prefiltered chunk of a batch (a stack buffer, so batches allocate nothing).
const CHUNK: usize = 64;

impl<L: Labeler> Labeler for Groups4<L> {
    fn label(&self, board: Board, out: &mut Components) {
        self.inner.label(self.input(board), out);
        out.retain(|m| m.count_ones() >= MIN_GROUP);
    }

    fn label_batch(&self, boards: &[Board], out: &mut [Components]) {
        assert_eq!(
            boards.len(),
            out.len(),
            "label_batch: boards and out differ in length"
        );
        let mut buf = [Board(0); CHUNK];
        for (boards, out) in boards.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
            let buf = &mut buf[..boards.len()];
            for (d, &b) in buf.iter_mut().zip(boards) {
                *d = self.input(b);
            }
            self.inner.label_batch(buf, out);
            for o in out.iter_mut() {
                o.retain(|m| m.count_ones() >= MIN_GROUP);
            }
        }
    }
}

fn boxed<L: Labeler + 'static>(inner: L, prefilter: bool) -> Option<Box<dyn Labeler>> {
    Some(Box::new(Groups4 { inner, prefilter }))
}

pub(crate) fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "groups4-naive-bfs",
            description: "naive-bfs filtered to components of at least 4 cells (the groups4 oracle)",
            features: &[],
            make: || boxed(NaiveBfs, false),
        },
        Variant {
            name: "groups4-flood",
            description: "flood, then keep components of at least 4 cells",
            features: &[],
            make: || boxed(Flood, false),
        },
        Variant {
            name: "groups4-flood-prefilter",
            description: "strip isolated cells and dominoes, flood, keep components of 4+ cells",
            features: &[],
            make: || boxed(Flood, true),
        },
        Variant {
            name: "groups4-swar-prefilter",
            description: "strip isolated cells and dominoes, swar, keep components of 4+ cells",
            features: &[],
            make: || boxed(Swar::new(), true),
        },
        // Listed off x86-64 too, unavailable there by its feature names.
        Variant {
            name: "groups4-avx2-prefilter",
            description: "strip isolated cells and dominoes, avx2, keep components of 4+ cells",
            features: &["avx2", "popcnt", "bmi1", "bmi2"],
            #[cfg(target_arch = "x86_64")]
            make: || crate::simd::Avx2::new().and_then(|l| boxed(l, true)),
            #[cfg(not(target_arch = "x86_64"))]
            make: || None,
        },
    ]
}
