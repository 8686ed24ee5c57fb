//! Progress bars for long runs: shown on a terminal, silent in CI and pipes.
//!
//! A watched child ([`crate::fault`]) writes to a pipe its parent passes
//! through to the terminal; the parent tells it to draw with [`FORCE_ENV`],
//! and the child draws through [`Ansi`], which writes the escape codes a
//! terminal reads whatever stderr is.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::{IsTerminal, Write};

/// Set by a parent whose stderr is a terminal: draw progress on stderr.
pub const FORCE_ENV: &str = "BITBENCH_PROGRESS";

/// Whether progress should be drawn: stderr is a terminal (or the parent
/// passing it through says so) and `CI` is unset.
pub fn enabled() -> bool {
    (std::io::stderr().is_terminal() || forced()) && std::env::var_os("CI").is_none()
}

fn forced() -> bool {
    std::env::var_os(FORCE_ENV).is_some_and(|v| v == "1")
}

/// A bar of `len` steps, hidden when [`enabled`] is false.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    if !enabled() {
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(len)
    } else {
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::term_like(Box::new(Ansi)))
    };
    bar.set_style(
        ProgressStyle::with_template("{prefix:>12.bold} [{bar:30}] {pos}/{len} {msg} ({eta})")
            .expect("static template is valid")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_owned());
    bar
}

/// Stderr as a terminal, for a child whose parent passes it to one.
#[derive(Debug)]
struct Ansi;

impl Ansi {
    fn put(&self, text: &str) -> std::io::Result<()> {
        std::io::stderr().lock().write_all(text.as_bytes())
    }

    /// Moves the cursor `n` cells in the direction of CSI code `code`.
    fn cursor(&self, n: usize, code: char) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.put(&format!("\x1b[{n}{code}"))
    }
}

impl TermLike for Ansi {
    fn width(&self) -> u16 {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100)
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'A')
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'B')
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'C')
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'D')
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(&format!("{s}\n"))
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}
