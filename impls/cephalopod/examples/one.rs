//! Solves one problem with one variant, repeatedly, for profiling:
//! `cargo run --release -p bitbench-cephalopod --example one -- VARIANT "DEPTH ROW/ROW/ROW" [TIMES]`.

use bitbench_cephalopod::{Problem, variants};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, name, problem, rest @ ..] = args.as_slice() else {
        eprintln!("usage: one VARIANT \"DEPTH ROW/ROW/ROW\" [TIMES]");
        std::process::exit(2);
    };
    let p: Problem = problem.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let times: u32 = rest
        .first()
        .map_or(1, |t| t.parse().expect("TIMES is a number"));
    let v = variants()
        .into_iter()
        .find(|v| v.name == name)
        .expect("known variant");
    let solver = (v.make)().expect("available on this CPU");
    let mut took: Vec<_> = (0..times)
        .map(|_| {
            let start = std::time::Instant::now();
            println!("{}", solver.solve(p.depth, p.board));
            start.elapsed()
        })
        .collect();
    took.sort_unstable();
    eprintln!(
        "{:?} min, {:?} median per solve (wall clock)",
        took[0],
        took[took.len() / 2]
    );
}
