//! Standard output that ends quietly when the reader goes away.
//!
//! `println!` panics when stdout is a closed pipe (`bitbench bench | head`).
//! Every command prints through [`out!`](crate::out!) and
//! [`outln!`](crate::outln!) instead: a closed pipe exits the process with
//! status 0, as a tool killed by `SIGPIPE` would stop, and any other write
//! error is one line on stderr and status 1.

use std::fmt;
use std::io::{self, Write};

/// Writes `args` to stdout (see the module docs for errors).
pub fn write(args: fmt::Arguments<'_>) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("bitbench: writing to stdout: {e}");
        std::process::exit(1);
    }
}

/// `print!` that stops quietly on a closed pipe.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` that stops quietly on a closed pipe.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
