//! Times every variant on the full puzzle and on partial boards:
//! `cargo run --release -p meteor --example timing [-- RUNS]`.
//! A quick look for tuning; `bitbench bench meteor` is the real measurement.

use std::time::{Duration, Instant};

use meteor::{Puzzle, inputs, variants};

/// Median wall-clock time of `runs` solves of every puzzle, and the last result.
fn time(
    solver: &dyn meteor::Solver,
    puzzles: &[Puzzle],
    runs: usize,
) -> (Duration, meteor::Solutions) {
    let mut samples = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        for p in puzzles {
            last = Some(std::hint::black_box(
                solver.solve(std::hint::black_box(&p.board), p.limit),
            ));
        }
        samples.push(start.elapsed());
    }
    samples.sort();
    (
        samples[runs / 2],
        last.expect("at least one run and one puzzle"),
    )
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(21);
    let sets = [
        ("full", vec![inputs::full()]),
        ("partial:3", inputs::partial(3, 0, 20)),
    ];
    for (name, puzzles) in &sets {
        for v in variants() {
            let Some(solver) = (v.make)() else { continue };
            let runs = if v.name == "naive" { 3 } else { runs };
            let (t, last) = time(solver.as_ref(), puzzles, runs);
            println!(
                "{name:10} {:10} {:>12.3?} nodes(last) {:>9}  {last}",
                v.name, t, last.nodes
            );
        }
    }
}
