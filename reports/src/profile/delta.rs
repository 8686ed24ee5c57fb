//! The per-function table of a change between two profiles of one record.
//!
//! Functions are ranked by how much their *self* cost per element moved,
//! since self costs are what add up: the top rows plus one row for every
//! other function sum exactly to the change of the profile's total, which
//! is the record's change. Inclusive costs ride along to show which
//! callers carry a moved callee. When one function holds most of the
//! change (one codegen unit inlines a kernel's helpers into one function),
//! its source lines are ranked the same way.

use super::callgrind::{Profile, SourceLine};
use super::measure::{Measure, MetricError};
use super::symbol::source_name;
use crate::Metric;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The share of the total change one function must hold for its source
/// lines to be ranked too.
pub const DOMINANT_SHARE: f64 = 0.8;

/// A cost per element before and after.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Change {
    /// Per element, before.
    pub before: f64,
    /// Per element, after.
    pub after: f64,
    /// `after - before`.
    pub delta: f64,
    /// The change in percent of `before`; `None` when either side is 0 (a
    /// new or a vanished cost).
    pub percent: Option<f64>,
}

impl Change {
    /// The change from `before` to `after` (per element).
    pub fn new(before: f64, after: f64) -> Change {
        Change {
            before,
            after,
            delta: after - before,
            percent: (before != 0.0 && after != 0.0).then(|| 100.0 * (after / before - 1.0)),
        }
    }
}

/// One function's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FunctionRow {
    /// Its identity, in full.
    pub function: String,
    /// Its own cost per element.
    pub self_cost: Change,
    /// Its cost with its calls' per element.
    pub inclusive: Change,
}

/// The row that sums everything not shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rest {
    /// How many functions (or lines) it sums.
    pub count: usize,
    /// Their summed cost per element.
    pub cost: Change,
}

/// One source line's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineRow {
    /// The line, its file named from the root of the tree it was built
    /// from (`src/lib.rs`), or from its crate on outside it.
    #[serde(flatten)]
    pub source: SourceLine,
    /// Its cost per element.
    pub cost: Change,
}

/// The source lines of the function that holds the change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineTable {
    /// The function.
    pub function: String,
    /// Its lines that changed most, by |Δ| descending.
    pub rows: Vec<LineRow>,
    /// Its other lines.
    pub rest: Rest,
}

/// Where a record's cost changed between two profiles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Delta {
    /// The metric compared.
    pub metric: Metric,
    /// The profile's total (the record's value) per element.
    pub total: Change,
    /// The functions whose self cost changed most, by |Δ| descending; none
    /// whose self cost did not change.
    pub rows: Vec<FunctionRow>,
    /// Every other function: with `rows`, the self changes sum to
    /// `total.delta`.
    pub rest: Rest,
    /// The lines of the function that holds at least [`DOMINANT_SHARE`] of
    /// the change, when the total changed.
    pub lines: Option<LineTable>,
}

impl Delta {
    /// The change from `before` to `after` under `metric`, per element of
    /// batches of `elements_before` and `elements_after` (0 counts as 1),
    /// with the `top` functions (and lines) that moved most. `roots` are
    /// the checkouts the two builds may have been compiled in: a source
    /// file under one is named by its path from it, as one in an `ab`
    /// export is from the export's root.
    pub fn between(
        before: &Profile,
        after: &Profile,
        metric: Metric,
        [elements_before, elements_after]: [u64; 2],
        top: usize,
        roots: &[&Path],
    ) -> Result<Delta, MetricError> {
        let sides = [
            Side::new(before, metric, elements_before, roots)?,
            Side::new(after, metric, elements_after, roots)?,
        ];
        let total = sides[0].change(&sides[1], |s| s.measure.of(s.profile.totals()));
        let mut names: Vec<&str> = before
            .functions()
            .chain(after.functions())
            .map(|(n, _)| n)
            .collect();
        names.sort_unstable();
        names.dedup();
        let changes: Vec<(&str, Change)> = names
            .into_iter()
            .map(|name| (name, sides[0].change(&sides[1], |s| s.self_cost(name))))
            .collect();
        let (shown, rest) = ranked(changes, top);
        let lines = shown
            .first()
            .filter(|(_, c)| {
                total.delta != 0.0 && c.delta.abs() >= DOMINANT_SHARE * total.delta.abs()
            })
            .map(|&(function, _)| line_table(&sides, function, top));
        let rows = shown
            .into_iter()
            .map(|(name, self_cost)| FunctionRow {
                function: name.to_owned(),
                self_cost,
                inclusive: sides[0].change(&sides[1], |s| s.inclusive(name)),
            })
            .collect();
        Ok(Delta {
            metric,
            total,
            rows,
            rest,
            lines,
        })
    }
}

/// One profile with what makes its costs per element.
struct Side<'a> {
    profile: &'a Profile,
    measure: Measure,
    elements: f64,
    roots: &'a [&'a Path],
}

impl<'a> Side<'a> {
    fn new(
        profile: &'a Profile,
        metric: Metric,
        elements: u64,
        roots: &'a [&'a Path],
    ) -> Result<Side<'a>, MetricError> {
        Ok(Side {
            profile,
            measure: profile.measure(metric)?,
            elements: elements.max(1) as f64,
            roots,
        })
    }

    /// The change per element of what `cost` counts on each side.
    fn change(&self, after: &Side<'_>, cost: impl Fn(&Side<'_>) -> u64) -> Change {
        Change::new(
            cost(self) as f64 / self.elements,
            cost(after) as f64 / after.elements,
        )
    }

    fn self_cost(&self, name: &str) -> u64 {
        self.profile
            .function(name)
            .map_or(0, |f| self.measure.of(f.self_cost()))
    }

    fn inclusive(&self, name: &str) -> u64 {
        self.profile
            .function(name)
            .map_or(0, |f| f.inclusive(&self.measure))
    }

    /// The function's cost per source line, keyed by the file's path in
    /// its tree: two builds (two revisions' exports, a copy of the working
    /// tree, the checkout) name the same line by different absolute paths.
    fn lines(&self, name: &str) -> BTreeMap<SourceLine, u64> {
        let mut lines = BTreeMap::new();
        let mut names: BTreeMap<&str, String> = BTreeMap::new();
        if let Some(f) = self.profile.function(name) {
            for (line, cost) in f.lines() {
                let file = names
                    .entry(&line.file)
                    .or_insert_with(|| source_name(&line.file, self.roots));
                let key = SourceLine {
                    file: file.clone(),
                    line: line.line,
                };
                *lines.entry(key).or_default() += self.measure.of(cost);
            }
        }
        lines
    }
}

fn line_table(sides: &[Side<'_>; 2], function: &str, top: usize) -> LineTable {
    let [before, after] = sides.each_ref().map(|s| s.lines(function));
    let mut keys: Vec<&SourceLine> = before.keys().chain(after.keys()).collect();
    keys.sort_unstable();
    keys.dedup();
    let per_element = |lines: &BTreeMap<SourceLine, u64>, side: &Side<'_>, key| {
        lines.get(key).copied().unwrap_or(0) as f64 / side.elements
    };
    let changes = keys
        .into_iter()
        .map(|key| {
            let change = Change::new(
                per_element(&before, &sides[0], key),
                per_element(&after, &sides[1], key),
            );
            (key, change)
        })
        .collect();
    let (shown, rest) = ranked(changes, top);
    LineTable {
        function: function.to_owned(),
        rows: shown
            .into_iter()
            .map(|(source, cost)| LineRow {
                source: source.clone(),
                cost,
            })
            .collect(),
        rest,
    }
}

/// The `top` items whose cost changed most (never one that did not
/// change), by |Δ| descending, and the rest summed.
fn ranked<K: Ord>(mut changes: Vec<(K, Change)>, top: usize) -> (Vec<(K, Change)>, Rest) {
    changes.sort_by(|(ka, a), (kb, b)| b.delta.abs().total_cmp(&a.delta.abs()).then(ka.cmp(kb)));
    let moved = changes
        .iter()
        .take(top)
        .take_while(|(_, c)| c.delta != 0.0)
        .count();
    let others = changes.split_off(moved);
    let (before, after) = others
        .iter()
        .fold((0.0, 0.0), |(b, a), (_, c)| (b + c.before, a + c.after));
    let rest = Rest {
        count: others.len(),
        cost: Change::new(before, after),
    };
    (changes, rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::callgrind::tests::{SAMPLES, sample};

    /// The rows' and the rest's self changes, summed.
    fn sum_of_rows(d: &Delta) -> f64 {
        d.rows.iter().map(|r| r.self_cost.delta).sum::<f64>() + d.rest.cost.delta
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn rows_add_up_to_the_total_change_of_real_profiles() {
        let pairs = [
            (SAMPLES[0], SAMPLES[1], Metric::Instructions),
            (SAMPLES[2], SAMPLES[3], Metric::Instructions),
            (SAMPLES[2], SAMPLES[3], Metric::D1Misses),
            (SAMPLES[2], SAMPLES[3], Metric::LlMisses),
            (SAMPLES[2], SAMPLES[3], Metric::EstimatedCycles),
            (SAMPLES[4], SAMPLES[5], Metric::Instructions),
            // Unrelated kernels: functions on one side only.
            (SAMPLES[0], SAMPLES[5], Metric::Instructions),
        ];
        for (a, b, metric) in pairs {
            let (a, b) = (sample(a), sample(b));
            for top in [0, 1, 3, 100] {
                let d = Delta::between(&a, &b, metric, [1024, 1000], top, &[]).unwrap();
                assert!(d.rows.len() <= top);
                assert!(
                    close(sum_of_rows(&d), d.total.delta),
                    "{metric} top {top}: {d:?}"
                );
                let deltas: Vec<f64> = d.rows.iter().map(|r| r.self_cost.delta.abs()).collect();
                assert!(deltas.windows(2).all(|w| w[0] >= w[1]), "{deltas:?}");
            }
            // The total is the record's value: the totals line per element.
            let d = Delta::between(&a, &b, metric, [1024, 1000], 5, &[]).unwrap();
            let m = a.measure(metric).unwrap();
            assert!(close(d.total.before, m.of(a.totals()) as f64 / 1024.0));
        }
    }

    /// Sample profile `i` as `ab` would have it from one tree: its files
    /// from our checkout (`/work/main/`) moved to `tree`.
    fn from_tree(i: usize, moves: &str, tree: &str) -> Profile {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/callgrind")
                .join(SAMPLES[i]),
        )
        .unwrap();
        assert!(text.contains(moves), "the sample names {moves}");
        Profile::parse(&text.replace(moves, tree)).unwrap()
    }

    /// The line table of the function that costs most in `a`, as both
    /// sides name its lines; `Delta` must see no change between them.
    fn same_lines(a: &Profile, b: &Profile, roots: &[&Path]) -> Vec<SourceLine> {
        let d = Delta::between(a, b, Metric::Instructions, [1, 1], 10, roots).unwrap();
        assert!(d.rows.is_empty(), "{d:?}");
        let function = &a
            .functions()
            .max_by_key(|(_, f)| f.self_cost()[0])
            .unwrap()
            .0;
        let [before, after] = [a, b].map(|p| Side::new(p, Metric::Instructions, 1, roots).unwrap());
        let lines = before.lines(function);
        assert_eq!(lines, after.lines(function));
        lines.into_keys().collect()
    }

    /// Two commits, as `ab` exports them.
    const A: &str = "134951b57b0f2c1d9e8a7b6c5d4e3f2a1b0c9d8e";
    const B: &str = "b238f8640a1b2c3d4e5f60718293a4b5c6d7e8f9";

    #[test]
    fn a_crate_at_the_repository_root_keeps_its_lines_across_revisions() {
        // The components crate as a repository of its own: each revision
        // exported under its commit, the working tree copied as
        // `<commit>-dirty`; a line is `src/swar.rs:N` in all three.
        let crate_ = "=/work/main/impls/components/";
        let exports = "=/home/u/crate/target/bitbench-ab/src";
        let a = from_tree(1, crate_, &format!("{exports}/{A}/"));
        for tree in [B.to_owned(), format!("{A}-dirty")] {
            let b = from_tree(1, crate_, &format!("{exports}/{tree}/"));
            let lines = same_lines(&a, &b, &[Path::new("/home/u/crate")]);
            assert!(lines.iter().any(|l| l.file == "src/swar.rs"), "{lines:?}");
            assert!(lines.iter().all(|l| !l.file.contains(A)), "{lines:?}");
        }
    }

    #[test]
    fn a_workspace_member_keeps_its_lines_from_an_export_to_the_checkout() {
        // A revision's export against the working tree built where it is.
        let checkout = "=/work/main/";
        let a = from_tree(1, checkout, &format!("=/tmp/t/bitbench-ab/src/{A}/"));
        let b = from_tree(1, checkout, checkout);
        let lines = same_lines(&a, &b, &[Path::new("/work/main")]);
        assert!(
            lines
                .iter()
                .any(|l| l.file == "impls/components/src/swar.rs"),
            "{lines:?}"
        );
    }

    #[test]
    fn the_function_that_moved_most_leads_with_its_before_and_after() {
        let (a, b) = (sample(SAMPLES[0]), sample(SAMPLES[1]));
        let d = Delta::between(&a, &b, Metric::Instructions, [1024, 1024], 3, &[]).unwrap();
        assert_eq!(d.total.before, 858949.0 / 1024.0);
        assert_eq!(d.total.after, 606707.0 / 1024.0);
        let first = &d.rows[0];
        let ir = |p: &Profile, f: &str| {
            let m = p.measure(Metric::Instructions).unwrap();
            m.of(p.function(f).unwrap().self_cost()) as f64 / 1024.0
        };
        assert_eq!(first.self_cost.before, ir(&a, &first.function));
        assert_eq!(first.self_cost.after, ir(&b, &first.function));
        let others = a.functions().chain(b.functions()).filter(|(n, _)| {
            ir(&a, n) != ir(&b, n) || a.function(n).is_none() || b.function(n).is_none()
        });
        let largest = others
            .map(|(n, _)| (ir(&b, n) - ir(&a, n)).abs())
            .fold(0.0, f64::max);
        assert_eq!(first.self_cost.delta.abs(), largest);
        let pct = first.self_cost.percent.unwrap();
        assert!(close(
            pct,
            100.0 * (first.self_cost.after / first.self_cost.before - 1.0)
        ));
    }

    #[test]
    fn one_function_holding_the_change_gets_its_lines_ranked() {
        // One more level of the naive search: nearly all of the extra work
        // is in the recursive walk.
        let (a, b) = (sample(SAMPLES[4]), sample(SAMPLES[5]));
        let d = Delta::between(&a, &b, Metric::Instructions, [1, 1], 4, &[]).unwrap();
        assert_eq!(d.rows[0].function, "cephalopod::naive::sum_paths");
        let lines = d.lines.as_ref().expect("sum_paths holds the change");
        assert_eq!(lines.function, "cephalopod::naive::sum_paths");
        assert!(!lines.rows.is_empty() && lines.rows.len() <= 4);
        let sum = lines.rows.iter().map(|r| r.cost.delta).sum::<f64>() + lines.rest.cost.delta;
        assert!(close(sum, d.rows[0].self_cost.delta), "{lines:?}");
        assert!(lines.rows.iter().all(|r| r.source.file.ends_with(".rs")));
        // Spread changes rank no lines.
        let (a, b) = (sample(SAMPLES[0]), sample(SAMPLES[5]));
        let d = Delta::between(&a, &b, Metric::Instructions, [1, 1], 4, &[]).unwrap();
        assert!(d.lines.is_none());
    }

    #[test]
    fn new_and_vanished_costs_have_no_percentage() {
        let (a, b) = (sample(SAMPLES[0]), sample(SAMPLES[5]));
        let d = Delta::between(&a, &b, Metric::Instructions, [1, 1], 100, &[]).unwrap();
        let new = d.rows.iter().find(|r| r.self_cost.before == 0.0).unwrap();
        let gone = d.rows.iter().find(|r| r.self_cost.after == 0.0).unwrap();
        assert_eq!(
            (new.self_cost.percent, gone.self_cost.percent),
            (None, None)
        );
        let same = Delta::between(&a, &a, Metric::Instructions, [1, 1], 5, &[]).unwrap();
        assert!(same.rows.is_empty() && same.lines.is_none());
        assert_eq!(same.rest.cost.delta, 0.0);
    }

    #[test]
    fn a_metric_the_profile_lacks_is_an_error() {
        let (a, b) = (sample(SAMPLES[0]), sample(SAMPLES[1]));
        let err = Delta::between(&a, &b, Metric::D1Misses, [1, 1], 5, &[]).unwrap_err();
        assert!(matches!(
            err,
            MetricError::MissingEvent { event: "D1mr", .. }
        ));
    }
}
