//! Times every variant on the full puzzle and on partial boards, and the
//! parallel variant's speed-up over the fastest single-threaded one:
//! `cargo run --release -p meteor --example timing [-- RUNS]`
//! (`RAYON_NUM_THREADS=2` for the two-core figure). A quick look for
//! tuning; `bitbench bench meteor` is the real measurement.

use std::time::{Duration, Instant};

use meteor::{Puzzle, Solutions, Solver, inputs, variants};

/// Minimum and median wall-clock time of `runs` passes over `puzzles`, and
/// the last pass's result for the last puzzle.
fn time(solver: &dyn Solver, puzzles: &[Puzzle], runs: usize) -> (Duration, Duration, Solutions) {
    let mut samples = Vec::with_capacity(runs);
    let mut last = Solutions::default();
    for _ in 0..runs {
        let start = Instant::now();
        for p in puzzles {
            last = std::hint::black_box(solver.solve(std::hint::black_box(&p.board), p.limit));
        }
        samples.push(start.elapsed());
    }
    samples.sort();
    (samples[0], samples[runs / 2], last)
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(51)
        .max(1);
    let sets = [
        ("full", vec![inputs::full()]),
        ("partial:3", inputs::partial(3, 0, 20)),
    ];
    for (name, puzzles) in &sets {
        let mut best_single = Duration::MAX;
        for v in variants() {
            let Some(solver) = (v.make)() else { continue };
            let runs = if v.name == "naive" { runs.min(3) } else { runs };
            let (min, median, last) = time(solver.as_ref(), puzzles, runs);
            println!(
                "{name:10} {:10} min {:>10.3?} median {:>10.3?} nodes(last) {:>9}  {last}",
                v.name, min, median, last.nodes
            );
            if v.name == "parallel" {
                println!(
                    "{name:10} parallel speed-up over the best single-threaded variant (min times): {:.2}×",
                    best_single.as_secs_f64() / min.as_secs_f64()
                );
            } else {
                best_single = best_single.min(min);
            }
        }
    }
}
