//! The sweep: every group in the order of `4r - k`, each expanded once
//! into the groups its moves lead to, its table given back to the pool as
//! soon as it is done so that later groups reuse the memory.

use super::expand::{Batch, Expansion, expand};
use super::groups::{CELLS, Groups, Window, rank_and_count};
use super::merge::{Lane, Merge};
use super::spare;
use super::steps::Steps;
use super::table::Table;
use super::targets::Targets;
use crate::ANSWER_MASK;
use crate::dihedral::canonical;

/// The sweep, with a lane per depth or `FREE` of depth ([`likely_free`]);
/// `None` if it is free of depth and a path may reach the limit before its
/// board is full. Inlined into each caller, so that [`sweep_avx2`]'s copy
/// is compiled for AVX2 throughout.
///
/// [`likely_free`]: super::groups::likely_free
/// [`sweep_avx2`]: super::sweep_avx2
#[inline(always)]
pub(super) fn sweep<M: Merge, S: Steps, const FREE: bool>(
    root: u32,
    depth: u32,
    merge: &M,
    steps: &S,
) -> Option<u32> {
    let (r0, k0) = rank_and_count(root);
    let groups = Groups::new(r0, depth);
    let windows: Vec<Option<Window>> = (r0..=groups.top)
        .flat_map(|r| (0..=CELLS).map(move |k| Window::of(FREE, (r0, k0), depth, r, k)))
        .collect();
    let mut pool = spare::take();
    // A group's table is taken from the pool when its first board arrives,
    // and goes back as soon as the group is expanded: later groups reuse it.
    let mut tables: Vec<Table<M::Lane>> = (0..windows.len()).map(|_| Table::default()).collect();
    let (key, sym) = canonical(root);
    let g = groups.index(r0, k0).expect("the root's group");
    tables[g] = Table::new(&mut pool);
    let first = &mut tables[g];
    first.reserve(1);
    first.add(key, 0, &[merge.root(sym)], |d, n| *d = d.add(n));
    // Per group, free of depth: the most moves a path to it may have taken.
    let mut deepest = vec![0; if FREE { windows.len() } else { 0 }];

    let mut batch = Batch::new();
    let mut total = 0u64;
    // A move raises `4r - k` by 1 to 3: the sweep ends 3 orders past the
    // last group that received a child (a shallow search meets few groups).
    let mut order = 4 * r0 - k0;
    let mut last = order;
    let mut gave_up = false;
    'sweep: while order <= last {
        for k in 0..CELLS {
            if (order + k) % 4 != 0 {
                continue;
            }
            let r = (order + k) / 4;
            let Some(g) = groups.index(r, k) else {
                continue;
            };
            if tables[g].len() == 0 {
                continue;
            }
            if FREE && deepest[g] >= depth {
                gave_up = true;
                break 'sweep;
            }
            let table = std::mem::take(&mut tables[g]);
            let here = windows[g].expect("a table holds boards only in a reachable group");
            let mut targets = Targets::take((r, k), here, FREE, &groups, &windows, &mut tables);
            let (sum, grew) = expand::<M, S, FREE>(
                &table,
                Expansion::new(k, here, depth, FREE),
                &mut targets,
                &mut pool,
                &mut batch,
                merge,
                steps,
            );
            if FREE {
                for &(to, _) in targets.groups.iter().flatten() {
                    deepest[to] = deepest[to].max(deepest[g] + 1);
                }
            }
            targets.give_back(&mut tables);
            pool.push(table);
            total = total.wrapping_add(sum);
            if grew {
                last = order + 3;
            }
        }
        order += 1;
    }
    pool.extend(tables.into_iter().filter(Table::is_open));
    spare::give_back(pool);
    (!gave_up).then(|| merge.finish(total) & ANSWER_MASK)
}
