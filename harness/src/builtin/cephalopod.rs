//! Adapter for `impls/cephalopod`: the 3×3 dice-capture puzzle of the
//! CodinGame Spring Challenge 2025 — the sum of the final boards' hashes over
//! every game path of a given depth, mod 2^30.
//!
//! The oracle visits every path, so the cost model skips it beyond a path
//! count (computed exactly, stopping at the bound), and skips the variants
//! without a symmetric cache on the low-rank, deep problems that take them
//! seconds. `official` and `rank-depth` expand into one record per test and
//! per (rank, depth) cell, the latter named `rank:R depth:D` for the
//! heatmap; `bench` prints the 12 official tests' total, the contest's
//! figure of merit, under them.

use crate::sets::{InputSet, Member};
use crate::workload::{Solve, VariantInfo, Workload};
use cephalopod::{Problem, inputs};

/// The `cephalopod` workload.
pub struct Cephalopod;

/// The `cephalopod` workload.
pub const CEPHALOPOD: Cephalopod = Cephalopod;

/// `naive` runs only on problems with at most this many paths (tens of
/// milliseconds a solve).
pub const NAIVE_PATHS: u64 = 2_000_000;

/// Paths beyond which `naive` runs for an hour or more (it visits about 80
/// million a second on a Zen 5 core), so `solve` asks for `--force`.
const NAIVE_HOURS: u64 = 300_000_000_000;

/// Variants that cache (board, depth) pairs without symmetry take seconds on
/// problems of at most this rank...
const SLOW_RANK: u32 = 9;
/// ...at this depth or more.
const SLOW_DEPTH: u32 = 20;

/// Boards per `rank:R depth:D` cell.
const CELL_BOARDS: usize = 4;

/// Dice sums a board can have: nine sixes at most.
const MAX_RANK: u32 = 54;

/// `from..=to` in steps of `step`, as parameter values.
fn values(from: u32, to: u32, step: usize) -> Vec<f64> {
    (from..=to).step_by(step).map(f64::from).collect()
}

impl Workload for Cephalopod {
    type Input = Problem;
    type Output = u32;

    fn name(&self) -> &'static str {
        "cephalopod"
    }
    fn description(&self) -> &'static str {
        "3×3 dice-capture puzzle: sum of final-board hashes over all paths of a depth, mod 2^30"
    }
    fn unit(&self) -> &'static str {
        "solves"
    }

    fn variants(&self) -> Vec<VariantInfo> {
        cephalopod::variants()
            .iter()
            .map(|v| VariantInfo::new(v.name, v.description, v.features))
            .collect()
    }
    fn default_variant(&self) -> &'static str {
        "front"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Problem, u32>>> {
        let v = cephalopod::variants()
            .into_iter()
            .find(|v| v.name == variant)?;
        let solver = (v.make)()?;
        Some(Box::new(move |p: &Problem| solver.solve(p.depth, p.board)))
    }

    fn input_sets(&self) -> Vec<InputSet> {
        // The rank-by-depth sweep: R = 0..=18 by D = 6..=40, or a coarser
        // grid for `--quick` (about a minute for every variant).
        let (ranks, depths) = (values(0, 18, 1), values(6, 40, 1));
        let (quick_ranks, quick_depths) = (values(0, 18, 3), [6.0, 12.0, 18.0, 24.0]);
        vec![
            InputSet::new("official:K", "official test K (1 to 12)")
                .sweep("official", (1..=12).map(f64::from)),
            InputSet::new("empty:D", "the empty board at depth D"),
            InputSet::new(
                "rank:R depth:D",
                "seeded boards whose dice sum to R (0 to 54), at depth D",
            )
            .parameters(&["rank", "depth"])
            .grid(
                "rank-depth",
                (&ranks, &depths),
                (&quick_ranks, &quick_depths),
            ),
        ]
    }
    fn bench_sets(&self, quick: bool) -> Vec<String> {
        let sets: &[&str] = if quick {
            &["official", "empty:20"]
        } else {
            &["official", "empty:30", "empty:40"]
        };
        sets.iter().map(|s| s.to_string()).collect()
    }
    fn sweep_sets(&self) -> Vec<String> {
        vec!["rank-depth".into()]
    }
    fn totals(&self) -> Vec<(String, String)> {
        // The contest's figure of merit: the 12 official tests in all.
        vec![("official (sum)".into(), "official".into())]
    }
    fn check_sets(&self) -> Vec<String> {
        // `check` draws 10 000 boards per set by default: shallow sets keep
        // every variant (and mostly the oracle) at microseconds a solve.
        let mut sets = vec!["official".to_owned()];
        sets.extend([0, 3, 6, 9, 12, 15, 18].map(|r| format!("rank:{r} depth:5")));
        sets.extend([8, 14, 20].map(|r| format!("rank:{r} depth:7")));
        sets
    }
    fn bench_batch(&self, quick: bool) -> usize {
        // One input is a whole search: a few per sample suffice, and one
        // board per cell keeps the quick rank-depth sweep near a minute.
        if quick { 1 } else { CELL_BOARDS }
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Problem>, String> {
        match set.pattern() {
            "official:K" => match set.get::<usize>(0)? {
                k @ 1..=12 => Ok(vec![inputs::official()[k - 1]]),
                _ => Err(format!("{set}: not a test number (1 to 12)")),
            },
            "empty:D" => Ok(vec![inputs::empty(set.get(0)?)]),
            _ => match (set.get::<u32>(0)?, set.get::<u32>(1)?) {
                (r, _) if r > MAX_RANK => {
                    Err(format!("{set}: rank {r} is above {MAX_RANK} (nine sixes)"))
                }
                // Rank 0 holds one board: the empty one.
                (r, d) => Ok(inputs::rank(r, d, seed, if r == 0 { 1 } else { n })),
            },
        }
    }
    fn edge_cases(&self) -> Vec<(String, Problem)> {
        inputs::edge_cases()
            .into_iter()
            .map(|(label, p)| (label.to_owned(), p))
            .collect()
    }

    fn parse_input(&self, text: &str) -> Result<Problem, String> {
        text.parse()
            .map_err(|e: cephalopod::ParseError| e.problem().to_owned())
    }
    /// The contest's stdin format (the depth alone on the first line, then 3
    /// rows of 3 space-separated values), or one `DEPTH ROW/ROW/ROW` a line.
    fn parse_input_file(&self, text: &str) -> Result<Vec<Problem>, String> {
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if first.contains('/') {
            return text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
                .map(|(i, l)| {
                    self.parse_input(l.trim())
                        .map_err(|e| format!("line {}: {e}", i + 1))
                })
                .collect();
        }
        Problem::parse_contest(text)
            .map(|p| vec![p])
            .map_err(|e| format!("contest format: {}", e.problem()))
    }
    fn format_input(&self, input: &Problem) -> String {
        input.to_string()
    }
    fn picture(&self, input: &Problem) -> String {
        let rows = input.board.to_string().replace('/', "\n");
        format!("depth {}\n{rows}", input.depth)
    }
    fn format_output(&self, output: &u32) -> String {
        output.to_string()
    }
    fn same(&self, a: &u32, b: &u32) -> bool {
        a == b
    }

    fn skip(&self, variant: &str, input: &Problem) -> Option<String> {
        match variant {
            "naive" => cephalopod::path_count(input.depth, input.board, NAIVE_PATHS)
                .is_none()
                .then(|| format!("over {NAIVE_PATHS} paths; naive visits every path")),
            "memo" | "bfs" | "swar"
                if input.board.rank() <= SLOW_RANK && input.depth >= SLOW_DEPTH =>
            {
                Some(format!(
                    "rank ≤ {SLOW_RANK} at depth ≥ {SLOW_DEPTH} takes {variant} seconds \
                     (no symmetric cache)"
                ))
            }
            _ => None,
        }
    }
    fn impractical(&self, variant: &str, input: &Problem) -> Option<String> {
        (variant == "naive"
            && cephalopod::path_count(input.depth, input.board, NAIVE_HOURS).is_none())
        .then(|| {
            format!(
                "over {NAIVE_HOURS:e} paths; naive visits every path, about 80 million a \
                 second on a recent core: hours"
            )
        })
    }
    /// One move less deep, or one die fewer.
    fn shrink(&self, input: &Problem) -> Vec<Problem> {
        let mut smaller = Vec::new();
        if input.depth > 0 {
            smaller.push(Problem {
                depth: input.depth - 1,
                ..*input
            });
        }
        let cells = input.board.cells();
        for i in (0..9).filter(|&i| cells[i] != 0) {
            let mut fewer = cells;
            fewer[i] = 0;
            if let Some(board) = cephalopod::Board::from_cells(fewer) {
                smaller.push(Problem { board, ..*input });
            }
        }
        smaller
    }
    #[cfg(feature = "fuzz")]
    fn arbitrary_inputs(
        &self,
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<Vec<Problem>> {
        Ok(vec![decode::problem(u)])
    }
}

/// The fuzz decoder: a board and a depth within the oracle's cost bound.
///
/// The oracle walks every path, so the depth is cut to the deepest one whose
/// path count stays under [`decode::MAX_PATHS`]. Half of each cell's byte
/// values mean "empty", so boards have room to play; depths past any game
/// (up to `u32::MAX`) are kept whenever the whole game tree fits the bound.
#[cfg(feature = "fuzz")]
mod decode {
    use crate::fuzz::byte;
    use arbitrary::Unstructured;
    use cephalopod::{Board, Problem, path_count};

    /// The most paths a problem may have. The oracle visits each: about 20
    /// ns a path in a release build, ten times that under the fuzzer's
    /// comparison tracing, so a problem stays around a few milliseconds.
    pub const MAX_PATHS: u64 = 10_000;

    /// The most moves a game can have (from the empty board).
    const LONGEST_GAME: u32 = 61;
    /// Depth bytes below this are depths 0..=69, past the longest game (61).
    const HUGE: u8 = 128;
    /// Cell bytes below this are empty cells.
    const EMPTY_BELOW: u8 = 128;

    pub fn problem(u: &mut Unstructured<'_>) -> Problem {
        let d = byte(u);
        let depth = if d < HUGE {
            u32::from(d % 70)
        } else {
            u32::MAX - u32::from(d - HUGE)
        };
        let cells = std::array::from_fn(|_| match byte(u) {
            b if b < EMPTY_BELOW => 0,
            b => 1 + b % 6,
        });
        let board = Board::from_cells(cells).expect("dice are 0..=6");
        Problem {
            depth: bounded_depth(depth, board),
            board,
        }
    }

    /// The deepest depth up to `depth` whose path count is at most
    /// [`MAX_PATHS`]. Path counts never fall as the depth grows (every
    /// unfinished board has a move), so a binary search finds it.
    fn bounded_depth(depth: u32, board: Board) -> u32 {
        let fits = |d: u32| path_count(d, board, MAX_PATHS).is_some();
        if fits(depth) {
            return depth;
        }
        // fits(lo) holds (depth 0 has one path) and fits(hi) does not; every
        // game ends within 61 moves, so deeper depths all fit or fail alike.
        let (mut lo, mut hi) = (0, depth.min(LONGEST_GAME + 1));
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::{expanded, generated};

    #[test]
    fn sets_expand_and_generate() {
        let official = expanded(&CEPHALOPOD, "official", false);
        assert_eq!(official.len(), 12);
        for (k, name) in official.iter().enumerate() {
            let p = generated(&CEPHALOPOD, name, 0, 5).unwrap();
            assert_eq!(p, vec![inputs::official()[k]]);
        }
        let full = expanded(&CEPHALOPOD, "rank-depth", false);
        assert_eq!(full.len(), 19 * 35);
        assert_eq!(full[0], "rank:0 depth:6");
        let quick = expanded(&CEPHALOPOD, "rank-depth", true);
        assert!(quick.len() < 40);
        for name in quick {
            let ps = generated(&CEPHALOPOD, &name, 1, 3).unwrap();
            let (r, d) = name
                .strip_prefix("rank:")
                .and_then(|rd| rd.split_once(" depth:"))
                .unwrap();
            let (r, d): (u32, u32) = (r.parse().unwrap(), d.parse().unwrap());
            assert!(
                ps.iter().all(|p| p.board.rank() == r && p.depth == d),
                "{name}"
            );
        }
        assert_eq!(
            generated(&CEPHALOPOD, "empty:40", 0, 5).unwrap(),
            vec![inputs::empty(40)]
        );
    }

    #[test]
    fn bad_set_names_are_errors() {
        for name in [
            "official:0",
            "official:13",
            "empty:x",
            "rank:55 depth:3",
            "rank:x depth:3",
            "nope",
        ] {
            assert!(generated(&CEPHALOPOD, name, 1, 3).is_err(), "{name}");
        }
    }

    #[test]
    fn cost_model_skips_only_the_expensive() {
        let cheap: Problem = "8 606/000/615".parse().unwrap();
        let deep = inputs::empty(40);
        assert!(CEPHALOPOD.skip("naive", &cheap).is_none());
        assert!(CEPHALOPOD.skip("naive", &deep).unwrap().contains("paths"));
        assert!(CEPHALOPOD.skip("memo", &deep).is_some());
        for fast in ["sym", "simd", "range", "simd-range", "front"] {
            assert!(CEPHALOPOD.skip(fast, &deep).is_none(), "{fast}");
        }
    }

    #[test]
    fn input_file_formats() {
        let contest = CEPHALOPOD
            .parse_input_file("20\n0 6 0\n2 2 2\n1 6 1\n")
            .unwrap();
        assert_eq!(contest, vec!["20 060/222/161".parse().unwrap()]);
        let lines = CEPHALOPOD
            .parse_input_file("20 060/222/161\n\n1 555/005/555\n")
            .unwrap();
        assert_eq!(lines.len(), 2);
        assert!(
            CEPHALOPOD
                .parse_input_file("20\n0 6 0\n2 2\n1 6 1\n")
                .is_err()
        );
    }
}
