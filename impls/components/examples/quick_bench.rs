//! Rough ns/board for every variant on a few input sets, for use while optimising
//! (`cargo run --release --example quick_bench [groups4] [sweep] [filter]`; `sweep` measures
//! densities 0.05 to 0.95 in steps of 0.05 instead). The harness's `bench` is the careful
//! measurement; this is a quick look.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bitbench_components::{Components, groups4_variants, inputs, variants};

/// Interleaved measuring rounds; the minimum over them is reported.
const ROUNDS: usize = 30;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let g4 = args.iter().any(|a| a == "groups4");
    let sweep = args.iter().any(|a| a == "sweep");
    let filter: Vec<&String> = args
        .iter()
        .filter(|a| *a != "groups4" && *a != "sweep")
        .collect();
    let n = 4096;
    let sets: Vec<(String, Vec<_>)> = if sweep {
        (1..20)
            .map(|k| {
                let p = 0.05 * k as f64;
                (format!("d{p:.2}"), inputs::density(p, 10 + k, n))
            })
            .collect()
    } else {
        vec![
            ("d0.125".into(), inputs::density(0.125, 1, n)),
            ("d0.5".into(), inputs::density(0.5, 2, n)),
            ("d0.875".into(), inputs::density(0.875, 3, n)),
            ("game".into(), inputs::game(4, n)),
            ("seed".into(), inputs::seed_set(5, n)),
        ]
    };
    print!("{:<10}", "variant");
    for (name, _) in &sets {
        print!("{name:>7}");
    }
    println!("   (ns/board, min over {ROUNDS} interleaved rounds)");
    let list = if g4 { groups4_variants() } else { variants() };
    let labelers: Vec<_> = list
        .into_iter()
        .filter(|v| filter.is_empty() || filter.iter().any(|f| v.name.contains(f.as_str())))
        .filter_map(|v| match (v.make)() {
            Some(l) => Some((v.name, l)),
            None => {
                println!("{:<22} unavailable on this CPU", v.name);
                None
            }
        })
        .collect();
    // Rounds interleave the variants so a burst of load elsewhere hits them all alike; the
    // minimum over rounds is the figure least disturbed by it.
    let mut best = vec![vec![f64::INFINITY; sets.len()]; labelers.len()];
    for _ in 0..ROUNDS {
        for (s, (_, boards)) in sets.iter().enumerate() {
            let mut out = vec![Components::new(); boards.len()];
            for (i, (_, l)) in labelers.iter().enumerate() {
                let start = Instant::now();
                let mut reps = 0;
                while start.elapsed() < Duration::from_millis(3) {
                    l.label_batch(black_box(boards), black_box(&mut out));
                    reps += 1;
                }
                let ns = start.elapsed().as_nanos() as f64 / (reps * boards.len()) as f64;
                best[i][s] = best[i][s].min(ns);
            }
        }
    }
    for ((name, _), row) in labelers.iter().zip(&best) {
        print!("{name:<10}");
        for ns in row {
            print!("{ns:>7.1}");
        }
        println!();
    }
}
