//! Kaggle's list-board rules, ported from `kaggle_environments`' connectx.
//!
//! The board is a flat row-major list, top-left first, `0` empty and `1`/`2`
//! the players. These functions are the reference the bitboard code is
//! checked against, so they follow Kaggle's logic rather than optimise it.

use crate::Config;

/// Kaggle's `play`: drops `mark` into `column`, returning the row it lands
/// on, or `None` when the column is full.
pub fn play(board: &mut [u8], config: Config, column: usize, mark: u8) -> Option<usize> {
    let w = config.columns();
    let row = (0..config.rows())
        .rev()
        .find(|&r| board[column + r * w] == 0)?;
    board[column + row * w] = mark;
    Some(row)
}

/// Kaggle's valid-action test: the column's top cell is empty.
pub fn is_legal(board: &[u8], column: usize) -> bool {
    board[column] == 0
}

/// Kaggle's `is_draw`: no empty cell left.
pub fn is_full(board: &[u8]) -> bool {
    !board.contains(&0)
}

/// Kaggle's `is_win` for the stone at (`row`, `column`): counts `mark`
/// stones outward in each direction and reports whether some line through
/// the cell holds K.
pub fn is_win(board: &[u8], config: Config, row: usize, column: usize, mark: u8) -> bool {
    let (w, h) = (config.columns() as isize, config.rows() as isize);
    let need = config.inarow() as isize - 1;
    let (row, column) = (row as isize, column as isize);
    let count = |dr: isize, dc: isize| -> isize {
        for i in 1..=need {
            let (r, c) = (row + dr * i, column + dc * i);
            if r < 0 || r >= h || c < 0 || c >= w || board[(c + r * w) as usize] != mark {
                return i - 1;
            }
        }
        need
    };
    count(1, 0) >= need
        || count(0, 1) + count(0, -1) >= need
        || count(-1, -1) + count(1, 1) >= need
        || count(-1, 1) + count(1, -1) >= need
}

/// Who has K aligned anywhere: Kaggle's line counting through every stone,
/// player 1 first. `0` when nobody does.
pub fn winner_every_cell(board: &[u8], config: Config) -> u8 {
    let w = config.columns();
    for mark in [1, 2] {
        for r in 0..config.rows() {
            for c in 0..w {
                if board[c + r * w] == mark && is_win(board, config, r, c, mark) {
                    return mark;
                }
            }
        }
    }
    0
}
