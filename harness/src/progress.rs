//! Progress bars for long runs: shown on a terminal, silent in CI and pipes.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Whether progress should be drawn: stderr is a terminal and `CI` is unset.
pub fn enabled() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// A bar of `len` steps, hidden when [`enabled`] is false.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    if !enabled() {
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>12.bold} [{bar:30}] {pos}/{len} {msg} ({eta})")
            .expect("static template is valid")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_owned());
    bar
}
