//! Quick per-test timing of every variant (median of repeated cold solves):
//! `cargo run --release -p cephalopod --example timing [VARIANT...]`.
//! A development aid; `bitbench bench cephalopod` is the real benchmark.

use std::time::{Duration, Instant};

use cephalopod::{Problem, inputs, path_count, variants};

/// The oracle runs only where it has at most this many paths.
const NAIVE_LIMIT: u64 = 20_000_000;

fn median(solve: impl Fn() -> u32) -> (Duration, u32) {
    let mut times = Vec::new();
    let start = Instant::now();
    let mut answer = 0;
    while times.len() < 5 || (start.elapsed() < Duration::from_millis(300) && times.len() < 200) {
        let t = Instant::now();
        answer = std::hint::black_box(solve());
        times.push(t.elapsed());
    }
    times.sort_unstable();
    (times[times.len() / 2], answer)
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    let mut problems = inputs::official();
    problems.push(inputs::empty(40));
    for v in variants() {
        if !only.is_empty() && !only.iter().any(|o| o == v.name) {
            continue;
        }
        let Some(solver) = (v.make)() else {
            println!("{}: unavailable", v.name);
            continue;
        };
        let mut total = Duration::ZERO;
        for (i, p) in problems.iter().enumerate() {
            let Problem { depth, board } = *p;
            if v.name == "naive" && path_count(depth, board, NAIVE_LIMIT).is_none() {
                println!(
                    "{:>6} {:>2} {:<18} skipped (over {NAIVE_LIMIT} paths)",
                    v.name,
                    i,
                    p.to_string()
                );
                continue;
            }
            let (t, answer) = median(|| solver.solve(depth, board));
            if i < 12 {
                total += t;
            }
            println!(
                "{:>6} {:>2} {:<18} {:>10} {:>12.3?}",
                v.name,
                i,
                p.to_string(),
                answer,
                t
            );
        }
        println!("{:>6} official total {:.3?}", v.name, total);
    }
}
