//! Solves one problem with one variant, repeatedly, for profiling:
//! `cargo run --release -p cephalopod --example one -- VARIANT "DEPTH ROW/ROW/ROW" [TIMES]`.

use cephalopod::{Problem, variants};

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
    let start = std::time::Instant::now();
    for _ in 0..times {
        println!("{}", solver.solve(p.depth, p.board));
    }
    eprintln!("{:?} per solve (wall clock)", start.elapsed() / times);
}
