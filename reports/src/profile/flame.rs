//! Flame graphs of a profile, and differential ones of two, drawn by
//! `inferno` from folded stacks.
//!
//! Callgrind keeps caller→callee edges with their inclusive costs, not
//! whole stacks, so stacks are rebuilt as gungraun's and KCachegrind's call
//! trees are: from the root down, each function's inclusive cost is split
//! over its own instructions and its calls in proportion to what they cost
//! in the whole profile (a callee reached from several callers gets a share
//! under each, never its whole cost twice). A function already on the
//! stack is not entered again: recursion shows as one frame, the recursive
//! call's cost added to that frame's own. The folded counts add up to the
//! root's inclusive cost, which is the profile's total when the root is
//! the counted region.

use super::callgrind::Profile;
use super::measure::{Measure, MetricError};
use crate::Metric;
use inferno::flamegraph::color::{MultiPalette, Palette};
use inferno::flamegraph::{self, Options};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// Shares smaller than this part of a root's cost are not walked into but
/// kept in their caller's frame: they would be narrower than inferno draws
/// (0.1 px of a 1200 px image), and a call graph unrolled into a tree can
/// otherwise grow with every path through it.
const SMALLEST_SHARE: f64 = 1e-5;

/// What a flame graph shows and how it is titled.
#[derive(Clone, Copy, Debug)]
pub struct Flame<'a> {
    /// The metric frames are as wide as.
    pub metric: Metric,
    /// The stacks' root: the functions whose path ends with this (such as
    /// `counting::counted_region`, the region a count measured). Without
    /// one, or when no function matches, the functions nobody calls.
    pub root: Option<&'a str>,
    /// The title drawn above the graph.
    pub title: &'a str,
}

/// Why a flame graph was not drawn.
#[derive(Debug)]
pub enum FlameError {
    /// The profile cannot be measured by the metric.
    Metric(MetricError),
    /// The profile counted nothing of the metric under the root.
    Nothing(Metric),
    /// inferno refused the stacks.
    Draw(std::io::Error),
}

impl fmt::Display for FlameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlameError::Metric(e) => e.fmt(f),
            FlameError::Nothing(metric) => write!(f, "the profile counted no {metric} to draw"),
            FlameError::Draw(e) => write!(f, "the flame graph could not be drawn: {e}"),
        }
    }
}

impl std::error::Error for FlameError {}

impl From<MetricError> for FlameError {
    fn from(e: MetricError) -> FlameError {
        FlameError::Metric(e)
    }
}

/// The profile's stacks as folded lines (`root;caller;callee`, count),
/// sorted, frames separated by `;` (a `;` inside a name becomes `,`).
pub fn folded(
    profile: &Profile,
    metric: Metric,
    root: Option<&str>,
) -> Result<Vec<(String, u64)>, MetricError> {
    Ok(Stacks::new(profile, profile.measure(metric)?).fold(root, 1.0))
}

/// A flame graph of `profile`, as SVG.
pub fn flamegraph_svg(profile: &Profile, flame: &Flame<'_>) -> Result<String, FlameError> {
    let stacks = folded(profile, flame.metric, flame.root)?;
    let lines: Vec<String> = stacks.iter().map(|(s, n)| format!("{s} {n}")).collect();
    let mut options = options(flame);
    options.colors = Palette::Multi(MultiPalette::Rust);
    options.hash = true;
    draw(flame.metric, &lines, &mut options)
}

/// Two differential flame graphs of the change from `before` to `after`,
/// as SVG: the first as wide as `after`'s frames, red where `after`
/// counts more and blue where it counts less; the second as wide as
/// `before`'s, coloured the same way, so that what shrank or vanished is
/// wide enough to see. Costs are per element: `before`'s counts are scaled
/// to `after`'s batch when the elements differ.
pub fn differential_svgs(
    before: &Profile,
    after: &Profile,
    elements_before: u64,
    elements_after: u64,
    flame: &Flame<'_>,
) -> Result<(String, String), FlameError> {
    let scale = elements_after.max(1) as f64 / elements_before.max(1) as f64;
    let folded = |p: &Profile, scale| -> Result<String, MetricError> {
        let stacks = Stacks::new(p, p.measure(flame.metric)?).fold(flame.root, scale);
        Ok(stacks.iter().map(|(s, n)| format!("{s} {n}\n")).collect())
    };
    let (a, b) = (folded(before, scale)?, folded(after, 1.0)?);
    // inferno draws a differential as wide as its second column and
    // colours it by second − first.
    let mut grown = options(flame);
    grown.subtitle = Some("widths: after; red: more after, blue: less after".to_owned());
    let grown = draw(flame.metric, &pair(&a, &b)?, &mut grown)?;
    // Reversed, then negated: as wide as before, coloured as above.
    let mut vanished = options(flame);
    vanished.subtitle = Some(
        "widths: before (what shrank or vanished); red: more after, blue: less after".to_owned(),
    );
    vanished.negate_differentials = true;
    let vanished = draw(flame.metric, &pair(&b, &a)?, &mut vanished)?;
    Ok((grown, vanished))
}

/// inferno's two-column folded lines (`stack first second`).
fn pair(first: &str, second: &str) -> Result<Vec<String>, FlameError> {
    let mut out = Vec::new();
    inferno::differential::from_readers(
        inferno::differential::Options::default(),
        first.as_bytes(),
        second.as_bytes(),
        &mut out,
    )
    .map_err(FlameError::Draw)?;
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_owned)
        .collect())
}

fn options<'a>(flame: &Flame<'_>) -> Options<'a> {
    let mut options = Options::default();
    options.title = flame.title.to_owned();
    options.count_name = flame.metric.to_string();
    options.deterministic = true;
    options
}

fn draw(metric: Metric, lines: &[String], options: &mut Options<'_>) -> Result<String, FlameError> {
    // A differential line's last count is the one drawn.
    let drawn = |line: &String| line.rsplit(' ').next().is_some_and(|n| n != "0");
    if !lines.iter().any(drawn) {
        return Err(FlameError::Nothing(metric));
    }
    let mut svg = Vec::new();
    flamegraph::from_lines(options, lines.iter().map(String::as_str), &mut svg)
        .map_err(FlameError::Draw)?;
    Ok(String::from_utf8_lossy(&svg).into_owned())
}

/// A profile's call graph under one measure.
struct Stacks<'p> {
    profile: &'p Profile,
    measure: Measure,
    inclusive: HashMap<&'p str, u64>,
}

impl<'p> Stacks<'p> {
    fn new(profile: &'p Profile, measure: Measure) -> Stacks<'p> {
        let inclusive = profile
            .functions()
            .map(|(name, f)| (name, f.inclusive(&measure)))
            .collect();
        Stacks {
            profile,
            measure,
            inclusive,
        }
    }

    fn inclusive(&self, name: &str) -> u64 {
        self.inclusive.get(name).copied().unwrap_or(0)
    }

    /// The roots: functions named `…::root` (or `root`); else those nobody
    /// calls; else, when every function is called (a cycle through the
    /// program's entry), the costliest.
    fn roots(&self, root: Option<&str>) -> Vec<&'p str> {
        let names = || self.profile.functions().map(|(n, _)| n);
        let named: Vec<&str> = match root {
            Some(root) => names()
                .filter(|n| *n == root || n.strip_suffix(root).is_some_and(|p| p.ends_with("::")))
                .collect(),
            None => Vec::new(),
        };
        if !named.is_empty() {
            return named;
        }
        let called: HashSet<&str> = self
            .profile
            .functions()
            .flat_map(|(_, f)| f.calls().map(|(c, _)| c))
            .collect();
        let uncalled: Vec<&str> = names()
            .filter(|n| !called.contains(n) && self.inclusive(n) > 0)
            .collect();
        if !uncalled.is_empty() {
            return uncalled;
        }
        names()
            .max_by_key(|n| self.inclusive(n))
            .into_iter()
            .collect()
    }

    /// Folded stacks with counts scaled by `scale`, rounded so that they
    /// add up to the roots' scaled inclusive cost.
    fn fold(&self, root: Option<&str>, scale: f64) -> Vec<(String, u64)> {
        let roots = self.roots(root);
        let total: f64 = roots.iter().map(|r| self.inclusive(r) as f64 * scale).sum();
        let mut walk = Walk {
            stacks: self,
            smallest: total * SMALLEST_SHARE,
            stack: Vec::new(),
            out: BTreeMap::new(),
        };
        for r in roots {
            walk.enter(r, self.inclusive(r) as f64 * scale);
        }
        // Round the running sum, not each line, so the counts add up.
        let (mut sum, mut emitted) = (0.0, 0);
        let mut lines = Vec::new();
        for (stack, value) in walk.out {
            sum += value;
            let upto = sum.round() as u64;
            if upto > emitted {
                lines.push((stack, upto - emitted));
                emitted = upto;
            }
        }
        lines
    }
}

/// One walk down from the roots.
struct Walk<'s, 'p> {
    stacks: &'s Stacks<'p>,
    smallest: f64,
    stack: Vec<&'p str>,
    out: BTreeMap<String, f64>,
}

impl<'p> Walk<'_, 'p> {
    /// Spreads `amount`, a share of `name`'s inclusive cost, over its own
    /// frame and its calls.
    fn enter(&mut self, name: &'p str, amount: f64) {
        self.stack.push(name);
        let depth = self.stack.len();
        let inclusive = self.stacks.inclusive(name);
        match self.stacks.profile.function(name) {
            Some(f) if inclusive > 0 => {
                let m = &self.stacks.measure;
                let part = amount / inclusive as f64;
                let mut own = m.of(f.self_cost()) as f64 * part;
                for (callee, cost) in f.calls() {
                    let share = m.of(cost) as f64 * part;
                    if let Some(at) = self.stack.iter().position(|s| *s == callee) {
                        self.emit(at + 1, share);
                    } else if share < self.smallest {
                        own += share;
                    } else if share > 0.0 {
                        self.enter(callee, share);
                    }
                }
                self.emit(depth, own);
            }
            // Called, but never charged a cost of its own.
            _ => self.emit(depth, amount),
        }
        self.stack.pop();
    }

    /// Adds `amount` to the frame at `depth` of the current stack.
    fn emit(&mut self, depth: usize, amount: f64) {
        if amount > 0.0 {
            let frames: Vec<String> = self.stack[..depth]
                .iter()
                .map(|f| f.replace(';', ","))
                .collect();
            *self.out.entry(frames.join(";")).or_default() += amount;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::callgrind::tests::{SAMPLES, sample};

    const ROOT: Option<&str> = Some("counting::counted_region");

    #[test]
    fn folded_counts_add_up_to_the_metric_total_of_real_profiles() {
        for name in SAMPLES {
            let p = sample(name);
            let metrics: &[Metric] = if name.starts_with("cache") {
                &[
                    Metric::Instructions,
                    Metric::D1Misses,
                    Metric::LlMisses,
                    Metric::EstimatedCycles,
                ]
            } else {
                &[Metric::Instructions]
            };
            for &metric in metrics {
                let stacks = folded(&p, metric, ROOT).unwrap();
                let sum: u64 = stacks.iter().map(|(_, n)| n).sum();
                assert_eq!(
                    sum,
                    p.measure(metric).unwrap().of(p.totals()),
                    "{name} {metric}"
                );
                assert!(
                    stacks
                        .iter()
                        .all(|(s, _)| s.starts_with("bitbench::counting::counted_region"))
                );
            }
        }
    }

    #[test]
    fn recursion_is_one_frame() {
        let p = sample("cephalopod-naive-official_2.callgrind");
        let stacks = folded(&p, Metric::Instructions, ROOT).unwrap();
        let walk = "cephalopod::naive::sum_paths";
        for (stack, _) in &stacks {
            assert!(stack.matches(walk).count() <= 1, "{stack}");
        }
        // The whole recursion's cost is in the one frame.
        let under: u64 = stacks
            .iter()
            .filter(|(s, _)| s.contains(walk))
            .map(|(_, n)| n)
            .sum();
        let ir = p.measure(Metric::Instructions).unwrap();
        assert_eq!(under, p.function(walk).unwrap().inclusive(&ir));
    }

    #[test]
    fn a_shared_callee_is_split_by_its_callers_calls() {
        // main calls a (cost 30) and b (cost 70); both call leaf, which
        // costs 50 in all: 10 from a, 40 from b.
        let text = "events: Ir\nfn=main\n1 0\ncfn=a\ncalls=1 1\n1 30\ncfn=b\ncalls=1 1\n1 70\n\
                    fn=a\n1 20\ncfn=leaf\ncalls=1 1\n1 10\n\
                    fn=b\n1 30\ncfn=leaf\ncalls=1 1\n1 40\n\
                    fn=leaf\n1 50\n";
        let p = Profile::parse(text).unwrap();
        let stacks = folded(&p, Metric::Instructions, None).unwrap();
        let expected = [
            ("main;a", 20),
            ("main;a;leaf", 10),
            ("main;b", 30),
            ("main;b;leaf", 40),
        ];
        let expected: Vec<(String, u64)> =
            expected.iter().map(|&(s, n)| (s.to_owned(), n)).collect();
        assert_eq!(stacks, expected);
        // Mutual recursion: a's call back into main is kept in main's frame.
        let text = "events: Ir\nfn=main\n1 5\ncfn=a\ncalls=1 1\n1 10\nfn=a\n1 6\ncfn=main\ncalls=1 1\n1 4\n";
        let p = Profile::parse(text).unwrap();
        let stacks = folded(&p, Metric::Instructions, Some("main")).unwrap();
        assert_eq!(stacks, [("main".to_owned(), 9), ("main;a".to_owned(), 6)]);
    }

    /// Each frame's name and fill colour in an inferno SVG.
    fn fills(svg: &str) -> Vec<(String, (u8, u8, u8))> {
        svg.split("<g>")
            .skip(1)
            .filter_map(|g| {
                let title = g.split_once("<title>")?.1.split_once(" (")?.0.to_owned();
                let rgb = g.split_once("fill=\"rgb(")?.1.split_once(")\"")?.0;
                let c: Vec<u8> = rgb.split(',').map(|v| v.trim().parse().unwrap()).collect();
                Some((title, (c[0], c[1], c[2])))
            })
            .collect()
    }

    fn fill_of(svg: &str, function: &str) -> (u8, u8, u8) {
        let all = fills(svg);
        let found: Vec<_> = all
            .iter()
            .filter(|(t, _)| t == function)
            .map(|(_, c)| *c)
            .collect();
        assert_eq!(found.len(), 1, "{function} in {all:?}");
        found[0]
    }

    // inferno colours a differential frame rgb(255, c, c) when it grew and
    // rgb(c, c, 255) when it shrank.
    fn red((r, g, b): (u8, u8, u8)) -> bool {
        r == 255 && g == b && b < 250
    }
    fn blue((r, g, b): (u8, u8, u8)) -> bool {
        b == 255 && r == g && r < 250
    }

    #[test]
    fn differential_graphs_are_red_where_after_grew_and_blue_where_it_shrank() {
        let (a, b) = (sample(SAMPLES[0]), sample(SAMPLES[1]));
        let flame = Flame {
            metric: Metric::Instructions,
            root: ROOT,
            title: "components swar",
        };
        let (grown, vanished) = differential_svgs(&a, &b, 1024, 1024, &flame).unwrap();
        // density 0.5 → 0.3: batch_fast's own work grew, grow's shrank.
        for svg in [&grown, &vanished] {
            assert!(red(fill_of(svg, "components::swar::batch_fast")));
            assert!(blue(fill_of(svg, "components::swar::grow")));
        }
        assert!(grown.contains("components swar") && grown.contains("widths: after"));
        assert!(vanished.contains("widths: before"));
        // Frames are as wide as their side: the counted region's title
        // gives each side's total.
        assert!(grown.contains("bitbench::counting::counted_region (606,707 instructions"));
        assert!(vanished.contains("bitbench::counting::counted_region (858,949 instructions"));
    }

    #[test]
    fn differences_in_elements_are_scaled_away() {
        let a = sample(SAMPLES[0]);
        let flame = Flame {
            metric: Metric::Instructions,
            root: ROOT,
            title: "",
        };
        // The same profile over twice the elements: half the cost each.
        let (grown, _) = differential_svgs(&a, &a, 1024, 2048, &flame).unwrap();
        assert!(blue(fill_of(&grown, "components::swar::grow")));
        let (same, _) = differential_svgs(&a, &a, 1024, 1024, &flame).unwrap();
        assert_eq!(fill_of(&same, "components::swar::grow"), (250, 250, 250));
    }

    #[test]
    fn a_plain_flame_graph_titles_every_frame_with_its_cost() {
        let p = sample(SAMPLES[4]);
        let flame = Flame {
            metric: Metric::Instructions,
            root: ROOT,
            title: "cephalopod naive official:1",
        };
        let svg = flamegraph_svg(&p, &flame).unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("cephalopod naive official:1"));
        assert!(svg.contains("bitbench::counting::counted_region (949 instructions, 100.00%)"));
        assert!(
            fills(&svg)
                .iter()
                .any(|(t, _)| t == "cephalopod::naive::sum_paths")
        );
        let err = flamegraph_svg(
            &p,
            &Flame {
                metric: Metric::D1Misses,
                ..flame
            },
        )
        .unwrap_err();
        assert!(matches!(err, FlameError::Metric(_)), "{err}");
        let empty = Profile::parse("events: Ir\nfn=f\n1 0\n").unwrap();
        let err = flamegraph_svg(&empty, &flame).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the profile counted no instructions to draw"
        );
    }
}
