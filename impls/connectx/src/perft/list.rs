//! The perft oracle on Kaggle's list board: `play`, `is_win` through the
//! stone just played, Kaggle's full-board draw test, and undo.
//!
//! This is what an agent built on `kaggle_environments`' functions does;
//! the bitboard variants are checked against it.

use crate::{Config, Perft, Position, kaggle};

/// List-board perft (see the module docs).
pub struct List;

impl Perft for List {
    fn perft(&self, position: &Position, depth: u32) -> u64 {
        let config = position.config();
        let mut board = position.to_kaggle_list();
        if depth == 0 {
            return 1;
        }
        if kaggle::winner_every_cell(&board, config) != 0 || kaggle::is_full(&board) {
            return 0;
        }
        search(&mut board, config, position.to_move(), depth)
    }
}

/// Counts from a live node where `mark` moves, `depth >= 1`.
fn search(board: &mut [u8], config: Config, mark: u8, depth: u32) -> u64 {
    let w = config.columns();
    let mut nodes = 0;
    for column in 0..w {
        if !kaggle::is_legal(board, column) {
            continue;
        }
        let Some(row) = kaggle::play(board, config, column, mark) else {
            continue;
        };
        nodes += if depth == 1 {
            1
        } else if kaggle::is_win(board, config, row, column, mark) || kaggle::is_full(board) {
            0
        } else {
            search(board, config, 3 - mark, depth - 1)
        };
        board[column + row * w] = 0;
    }
    nodes
}
