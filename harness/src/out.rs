//! Standard output that ends quietly when the reader goes away.
//!
//! `println!` panics when stdout is a closed pipe (`bitbench bench | head`).
//! Every command prints through [`out!`](crate::out!) and
//! [`outln!`](crate::outln!) instead. A failed write unwinds with a
//! [`StdoutClosed`] payload (no panic message is printed) out of the
//! command, and the command line turns it into an exit: status 0 for a
//! closed pipe, as a tool killed by `SIGPIPE` would stop, status 1 with one
//! line for any other error. The library itself never exits the process.

use std::fmt;
use std::io::{self, Write};

/// Why standard output can no longer be written: what [`write`](fn@write)
/// unwinds with, caught by [`crate::cli::main`].
#[derive(Debug)]
pub struct StdoutClosed(pub io::Error);

/// Writes `args` to stdout (see the module docs for errors).
pub fn write(args: fmt::Arguments<'_>) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        std::panic::resume_unwind(Box::new(StdoutClosed(e)));
    }
}

/// `print!` that stops quietly on a closed pipe.
#[doc(hidden)]
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` that stops quietly on a closed pipe.
#[doc(hidden)]
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
