//! Differential properties: every variant equals its oracle on random
//! positions of random configurations, and Kaggle's last-stone `is_win`
//! equals the every-cell check along random games.

use bitbench_connectx::{
    Bits, Config, Geometry, Position, inputs, kaggle, perft_variants, variants,
};
use proptest::prelude::*;

/// Says that a variant's checks were skipped: this CPU lacks its features.
fn skipped(name: &str, features: &[&str]) {
    let needs = features.join(", ");
    eprintln!("skipped: variant {name} needs {needs}, which this CPU lacks");
}

/// Any configuration the crate supports, biased towards small boards.
fn config() -> impl Strategy<Value = Config> {
    (1usize..=16, 1usize..=12)
        .prop_filter("fits 128 bits", |&(w, h)| w * (h + 1) <= 128)
        .prop_flat_map(|(w, h)| (Just(w), Just(h), 1..=w.max(h)))
        .prop_map(|(w, h, k)| Config::new(w, h, k).expect("valid by construction"))
}

fn positions() -> impl Strategy<Value = Vec<Position>> {
    (config(), 0usize..=128, any::<u64>(), 1usize..40).prop_map(|(config, plies, seed, n)| {
        inputs::random(config, plies.min(config.cells()), seed, n)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_win_check_equals_the_oracle(batch in positions(), extra in positions()) {
        // Two configurations in one batch exercise the per-run set-up.
        let batch: Vec<Position> = batch.into_iter().chain(extra).collect();
        let all = variants();
        let oracle = (all[0].make)().expect("portable oracle");
        let mut expected = vec![9; batch.len()];
        oracle.winners(&batch, &mut expected);
        for v in &all[1..] {
            let Some(kernel) = (v.make)() else {
                skipped(v.name, v.features);
                continue;
            };
            let mut got = vec![9; batch.len()];
            kernel.winners(&batch, &mut got);
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                prop_assert_eq!(g, e, "{} on {}", v.name, batch[i]);
            }
        }
    }

    #[test]
    fn every_perft_equals_the_oracle(config in config(), plies in 0usize..20, seed in any::<u64>(), depth in 0u32..=4) {
        let position = inputs::random(config, plies.min(config.cells()), seed, 1)[0];
        let all = perft_variants();
        let expected = (all[0].make)().expect("portable oracle").perft(&position, depth);
        for v in &all[1..] {
            let kernel = (v.make)().expect("portable variant");
            prop_assert_eq!(kernel.perft(&position, depth), expected, "{} on {} depth {}", v.name, position, depth);
        }
    }

    #[test]
    fn last_stone_is_win_equals_every_cell_check(config in config(), seed in any::<u64>()) {
        let moves = inputs::random_game(config, config.cells(), seed);
        let mut board = vec![0u8; config.cells()];
        for (i, &column) in moves.iter().enumerate() {
            let mark = 1 + (i % 2) as u8;
            let row = kaggle::play(&mut board, config, column, mark).expect("legal move");
            let last = kaggle::is_win(&board, config, row, column, mark);
            let every = kaggle::winner_every_cell(&board, config);
            prop_assert_eq!(every, if last { mark } else { 0 }, "after move {} of {:?}", i + 1, moves);
            // The game stops at the first win.
            prop_assert!(!last || i + 1 == moves.len());
        }
    }
}

proptest! {
    #[test]
    fn short_shifts_equal_plain_shifts(lo in any::<u64>(), hi in any::<u64>(), n in 1u32..64) {
        let w = u128::from_halves(lo, hi);
        prop_assert_eq!(w.shr_short(n), w >> n);
        prop_assert_eq!(lo.shr_short(n), lo >> n);
    }
}

#[test]
fn boards_with_a_shift_of_64_or_more_take_the_plain_shift() {
    let geometry = |text: &str| Geometry::<u128>::new(text.parse::<Config>().expect("valid"));
    assert!(geometry("10x10k5").short);
    // Horizontal lines of 16 on 8-bit columns double to a shift of 64.
    assert!(!geometry("16x7k16").short);
}
