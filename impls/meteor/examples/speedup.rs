//! Times every variant on the full puzzle and on partial boards, and the
//! parallel variant's speed-up over the fastest single-threaded one:
//! `cargo run --release -p bitbench-meteor --example speedup [-- RUNS]`
//! (`RAYON_NUM_THREADS=2` for the two-core figure). A quick look for
//! tuning; `bitbench bench meteor` is the real measurement.
//!
//! On a shared machine the load changes from one moment to the next, so the
//! speed-up is measured on pairs of short blocks of runs taken back to back
//! (the fastest single-threaded variant, then the parallel one, five runs
//! each so that the parallel runs find rayon's threads awake, as in a
//! benchmark) and reported as the median of the pairs' ratios of their
//! blocks' medians.

use std::time::{Duration, Instant};

use bitbench_meteor::{Puzzle, Solutions, Solver, inputs, variants};

/// Runs in a block of the speed-up measurement.
const BLOCK: usize = 5;

/// One pass over `puzzles`: its wall-clock time and the last puzzle's result.
fn pass(solver: &dyn Solver, puzzles: &[Puzzle]) -> (Duration, Solutions) {
    let start = Instant::now();
    let mut last = Solutions::default();
    for p in puzzles {
        last = std::hint::black_box(solver.solve(std::hint::black_box(&p.board), p.limit));
    }
    (start.elapsed(), last)
}

/// The median of `samples` (sorted in place).
fn median<T: PartialOrd + Copy>(samples: &mut [T]) -> T {
    samples.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    samples[samples.len() / 2]
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
    let solvers: Vec<_> = variants()
        .into_iter()
        .filter_map(|v| Some((v.name, (v.make)()?)))
        .collect();
    for (name, puzzles) in &sets {
        let mut best: Option<(Duration, &dyn Solver, &str)> = None;
        for (variant, solver) in &solvers {
            let runs = if *variant == "naive" {
                runs.min(3)
            } else {
                runs
            };
            let mut last = Solutions::default();
            let mut samples: Vec<Duration> = (0..runs)
                .map(|_| {
                    let (time, found) = pass(solver.as_ref(), puzzles);
                    last = found;
                    time
                })
                .collect();
            let min = *samples.iter().min().expect("runs >= 1");
            let med = median(&mut samples);
            println!(
                "{name:10} {variant:10} min {min:>10.3?} median {med:>10.3?} nodes(last) {:>9}  {last}",
                last.nodes
            );
            if *variant != "parallel" && best.is_none_or(|(t, _, _)| med < t) {
                best = Some((med, solver.as_ref(), variant));
            }
        }
        let parallel = solvers.iter().find(|(v, _)| *v == "parallel");
        if let (Some((_, single, single_name)), Some((_, parallel))) = (best, parallel) {
            let block = |solver: &dyn Solver| {
                let mut times: Vec<f64> = (0..BLOCK)
                    .map(|_| pass(solver, puzzles).0.as_secs_f64())
                    .collect();
                median(&mut times)
            };
            let (mut ones, mut pars, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..runs {
                let one = block(single);
                let par = block(parallel.as_ref());
                ones.push(one);
                pars.push(par);
                ratios.push(one / par);
            }
            println!(
                "{name:10} parallel vs {single_name}, {runs} back-to-back pairs of {BLOCK}-run blocks: medians {:.3} ms vs {:.3} ms, median speed-up {:.2}×",
                median(&mut ones) * 1e3,
                median(&mut pars) * 1e3,
                median(&mut ratios)
            );
        }
    }
}
