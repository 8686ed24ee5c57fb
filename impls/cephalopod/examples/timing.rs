//! Quick per-test timing of every variant (median of repeated cold solves):
//! `cargo run --release -p bitbench-cephalopod --example timing [--empty] [VARIANT...]`
//! (`--empty` adds the empty board at depth 40).
//! A development aid; `bitbench bench cephalopod` is the real benchmark.
//! On Linux it reads the thread's CPU time from `/proc/thread-self/schedstat`
//! (so a busy machine inflates the figures less), elsewhere the wall clock.

use std::time::{Duration, Instant};

use bitbench_cephalopod::{Problem, inputs, path_count, variants};

/// The oracle runs only where it has at most this many paths.
const NAIVE_LIMIT: u64 = 20_000_000;

/// The thread's CPU time so far, or the wall clock where that is unknown.
fn now() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed())
}

/// Median time per solve over batches long enough for the clock.
fn median(solve: impl Fn() -> u32) -> (Duration, u32) {
    let t = now();
    let answer = std::hint::black_box(solve());
    let once = now() - t;
    let batch =
        (Duration::from_millis(20).as_nanos() / once.as_nanos().max(1)).clamp(1, 10_000) as u32;
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || (start.elapsed() < Duration::from_millis(400) && times.len() < 15) {
        let t = now();
        for _ in 0..batch {
            std::hint::black_box(solve());
        }
        times.push((now() - t) / batch);
    }
    times.sort_unstable();
    (times[times.len() / 2], answer)
}

fn main() {
    let mut only: Vec<String> = std::env::args().skip(1).collect();
    let mut problems = inputs::official();
    if let Some(i) = only.iter().position(|a| a == "--empty") {
        only.remove(i);
        problems.push(inputs::empty(40));
    }
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
