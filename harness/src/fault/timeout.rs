//! `--timeout`, the one option every command that runs kernels takes: its
//! parser, its default and the two ways a command reads it, in one place.
//!
//! The engines never see it. A command hands the deadline to the runner
//! that watches the child ([`crate::isolated`]) or, for `ab`, to the
//! builds it serves from; the work inside the child runs the same with
//! any deadline.

use std::time::Duration;

/// What a batch of user code may take beyond its allowance (see
/// [`super::beacon::Step::allowance`]) before it counts as hung, when
/// `--timeout` is not given.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// `--timeout SECONDS`, flattened into each command that runs kernels.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct TimeoutArg {
    /// Seconds a kernel may run on a batch beyond what it is expected to
    /// take (for `ab`, on one request) before it counts as hung and is
    /// stopped [default: 10; `solve`: none, and after 10 s it says how to
    /// stop it]
    #[arg(long, value_name = "SECONDS", value_parser = parse)]
    timeout: Option<Duration>,
}

impl TimeoutArg {
    /// The deadline of work the harness chose (a check's batches, a
    /// measuring round): the seconds given, else [`DEFAULT_TIMEOUT`].
    pub(crate) fn per_batch(self) -> Duration {
        self.timeout.unwrap_or(DEFAULT_TIMEOUT)
    }

    /// The deadline of work the user asked for by name (`solve`): none
    /// unless given, so a slow variant runs to its answer.
    pub(crate) fn asked(self) -> Option<Duration> {
        self.timeout
    }
}

/// Parses `--timeout`: seconds, a positive number.
fn parse(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s < 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("'{text}' is not a number of seconds above 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        timeout: TimeoutArg,
    }

    fn parsed(args: &[&str]) -> Result<TimeoutArg, String> {
        Cli::try_parse_from(std::iter::once("t").chain(args.iter().copied()))
            .map(|c| c.timeout)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn absent_is_the_default_per_batch_and_none_when_asked() {
        let arg = parsed(&[]).unwrap();
        assert_eq!(arg.per_batch(), DEFAULT_TIMEOUT);
        assert_eq!(arg.asked(), None);
    }

    #[test]
    fn given_seconds_are_both_deadlines() {
        let arg = parsed(&["--timeout", "0.5"]).unwrap();
        assert_eq!(arg.per_batch(), Duration::from_millis(500));
        assert_eq!(arg.asked(), Some(Duration::from_millis(500)));
    }

    #[test]
    fn zero_negative_and_words_are_refused() {
        for bad in ["0", "-1", "ten", "inf"] {
            let e = parsed(&[&format!("--timeout={bad}")]).unwrap_err();
            assert!(e.contains("is not a number of seconds above 0"), "{e}");
        }
    }
}
