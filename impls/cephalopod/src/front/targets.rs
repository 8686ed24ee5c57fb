//! The tables one group's children go to while it is expanded, taken out
//! of the sweep's list so that a child reaches its table without a lookup.

use super::groups::{Groups, Window};
use super::merge::Lane;
use super::table::Table;

/// The groups one group's moves lead to, by the dice a move captures (0,
/// 2, 3 or 4): a placement to group (r + 1, k + 1), a capture of m dice to
/// (r, k + 1 - m). Their tables are taken out of the sweep's list while the
/// group is expanded, so a child reaches its table without a lookup.
pub(super) struct Targets<L> {
    /// Per target: its group, if the search can meet it, and the lane
    /// there that lane 0 of the expanded group moves to (one move deeper).
    pub(super) groups: [Option<(usize, u32)>; 4],
    /// Per target: its table, opened from the pool when its first child
    /// arrives (a target no move reaches takes no memory).
    pub(super) tables: [Table<L>; 4],
}

impl<L: Lane> Targets<L> {
    /// The targets of group `(r, k)`, whose window is `here`, with their
    /// tables taken from `tables`.
    pub(super) fn take(
        (r, k): (u32, u32),
        here: Window,
        free: bool,
        groups: &Groups,
        windows: &[Option<Window>],
        tables: &mut [Table<L>],
    ) -> Targets<L> {
        let groups = std::array::from_fn(|to| {
            let (cr, ck) = match to {
                0 => (r + 1, k + 1),
                m => (r, (k + 1).checked_sub(m as u32 + 1)?),
            };
            let g = groups.index(cr, ck)?;
            let there = windows[g]?;
            Some((g, here.lane_after(there, free)))
        });
        let tables = groups.map(|target| match target {
            Some((g, ..)) => std::mem::take(&mut tables[g]),
            None => Table::default(),
        });
        Targets { groups, tables }
    }

    /// Opens target `to`'s table from `pool` if it is not open yet.
    #[inline(always)]
    pub(super) fn open(&mut self, to: usize, pool: &mut Vec<Table<L>>) {
        if !self.tables[to].is_open() {
            self.tables[to] = Table::new(pool);
        }
    }

    /// Puts the tables back in the sweep's list.
    pub(super) fn give_back(self, tables: &mut [Table<L>]) {
        for (target, table) in self.groups.into_iter().zip(self.tables) {
            if let Some((g, ..)) = target {
                tables[g] = table;
            }
        }
    }
}
