//! The `groups4` problem (Smash the Code): only components of four or more cells.

use crate::naive_bfs::NaiveBfs;
use crate::{Board, Components, Labeler, Variant};

/// Components of at least this many cells survive.
pub(crate) const MIN_GROUP: u32 = 4;

/// The groups4 oracle: the baseline oracle filtered by size.
#[derive(Clone, Copy, Debug, Default)]
struct Groups4Naive;

impl Labeler for Groups4Naive {
    fn label(&self, board: Board, out: &mut Components) {
        NaiveBfs.label(board, out);
        out.retain(|m| m.count_ones() >= MIN_GROUP);
    }
}

pub(crate) fn variants() -> Vec<Variant> {
    vec![Variant {
        name: "groups4-naive-bfs",
        description: "naive-bfs filtered to components of at least 4 cells (the groups4 oracle)",
        features: &[],
        make: || Some(Box::new(Groups4Naive)),
    }]
}
