//! Rough ns/board for every variant on a few input sets, for use while optimising
//! (`cargo run --release --example quick_bench [groups4] [filter]`). The harness's `bench` is
//! the careful measurement; this is a quick look.

use std::hint::black_box;
use std::time::{Duration, Instant};

use components::{Components, inputs, variants, groups4_variants};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let g4 = args.iter().any(|a| a == "groups4");
    let filter: Vec<&String> = args.iter().filter(|a| *a != "groups4").collect();
    let n = 4096;
    let sets = [
        ("d0.125", inputs::density(0.125, 1, n)),
        ("d0.5", inputs::density(0.5, 2, n)),
        ("d0.875", inputs::density(0.875, 3, n)),
        ("game", inputs::game(4, n)),
        ("seed", inputs::seed_set(5, n)),
    ];
    print!("{:<22}", "variant");
    for (name, _) in &sets {
        print!("{name:>10}");
    }
    println!("   (ns/board, best of 7)");
    let list = if g4 { groups4_variants() } else { variants() };
    for v in list {
        if !filter.is_empty() && !filter.iter().any(|f| v.name.contains(f.as_str())) {
            continue;
        }
        let Some(l) = (v.make)() else {
            println!("{:<22} unavailable on this CPU", v.name);
            continue;
        };
        print!("{:<22}", v.name);
        for (_, boards) in &sets {
            let mut out = vec![Components::new(); boards.len()];
            let mut best = f64::INFINITY;
            for _ in 0..7 {
                let start = Instant::now();
                let mut reps = 0;
                while start.elapsed() < Duration::from_millis(30) {
                    l.label_batch(black_box(boards), black_box(&mut out));
                    reps += 1;
                }
                let ns = start.elapsed().as_nanos() as f64 / (reps * boards.len()) as f64;
                best = best.min(ns);
            }
            print!("{best:>10.2}");
        }
        println!();
    }
}
