//! What went wrong, in words a user reads: the signal's name and what it
//! usually means, told apart by what the process printed (a Rust stack
//! overflow and a `panic = "abort"` panic both end in SIGABRT).

use std::time::Duration;

/// How a run of user code ended without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Killed by `signal`; `stderr` is the end of what it printed.
    Signal { signal: i32, stderr: String },
    /// Still running after `after` and stopped.
    Hung { after: Duration },
    /// Exited with `code` before finishing its work (a kernel calling
    /// `process::exit`, say).
    Exited { code: i32, stderr: String },
}

impl Fault {
    /// Whether `other` is the same finding, for shrinking: the same signal
    /// (and for aborts, the same kind of abort), or both hung.
    pub(crate) fn same_kind(&self, other: &Fault) -> bool {
        match (self, other) {
            (Fault::Hung { .. }, Fault::Hung { .. }) => true,
            (Fault::Signal { signal: a, .. }, Fault::Signal { signal: b, .. }) => {
                a == b && self.describe() == other.describe()
            }
            (Fault::Exited { code: a, .. }, Fault::Exited { code: b, .. }) => a == b,
            _ => false,
        }
    }

    /// The deadline a hang ran into, for its repro line to stop at too.
    pub(crate) fn deadline(&self) -> Option<Duration> {
        match self {
            Fault::Hung { after } => Some(*after),
            _ => None,
        }
    }

    /// Whether the variant crashed (rather than hung).
    pub(crate) fn crashed(&self) -> bool {
        !matches!(self, Fault::Hung { .. })
    }

    /// The results file's status for it.
    pub(crate) fn status(&self) -> reports::Status {
        if self.crashed() {
            reports::Status::Crashed
        } else {
            reports::Status::Hung
        }
    }

    /// What happened, in words: "crashed: segmentation fault (SIGSEGV)",
    /// "aborted: stack overflow", "did not finish in 10 s".
    pub(crate) fn describe(&self) -> String {
        match self {
            Fault::Hung { after } => format!("did not finish in {}", seconds(*after)),
            Fault::Exited { code, stderr } => {
                let said = last_line(stderr).map_or_else(String::new, |l| format!(": {l}"));
                format!("exited with code {code} without finishing{said}")
            }
            Fault::Signal { signal, stderr } => match *signal {
                4 => "illegal instruction (SIGILL): does the variant declare every CPU \
                      feature it uses?"
                    .to_owned(),
                6 if stderr.contains("has overflowed its stack") => {
                    "aborted: stack overflow".to_owned()
                }
                6 => match panic_message(stderr) {
                    Some(message) => format!("aborted: panicked ({message})"),
                    None => "aborted (SIGABRT)".to_owned(),
                },
                7 => "crashed: bus error (SIGBUS)".to_owned(),
                8 => "crashed: arithmetic exception (SIGFPE)".to_owned(),
                9 => "killed (SIGKILL): out of memory?".to_owned(),
                11 => "crashed: segmentation fault (SIGSEGV)".to_owned(),
                n => format!("crashed: signal {n}"),
            },
        }
    }
}

/// `10 s`, `0.5 s`: a duration as the deadline was given.
pub(crate) fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{} s", (s * 1000.0).round() / 1000.0)
    }
}

/// The message of a panic a `panic = "abort"` build printed before
/// aborting: the line after `panicked at FILE:LINE:COL:`.
fn panic_message(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    lines.find(|l| l.contains("panicked at"))?;
    lines.next().map(|l| l.trim().to_owned())
}

fn last_line(text: &str) -> Option<&str> {
    text.lines().rev().map(str::trim).find(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signal(signal: i32, stderr: &str) -> Fault {
        Fault::Signal {
            signal,
            stderr: stderr.to_owned(),
        }
    }

    #[test]
    fn signals_read_as_what_they_usually_mean() {
        assert_eq!(
            signal(11, "").describe(),
            "crashed: segmentation fault (SIGSEGV)"
        );
        assert!(
            signal(4, "")
                .describe()
                .contains("declare every CPU feature")
        );
        let overflow =
            "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n";
        assert_eq!(signal(6, overflow).describe(), "aborted: stack overflow");
        assert_eq!(signal(6, "").describe(), "aborted (SIGABRT)");
        let panic = "thread 'main' panicked at src/lib.rs:3:5:\nboom 7\nnote: run with...\n";
        assert_eq!(signal(6, panic).describe(), "aborted: panicked (boom 7)");
        let hung = Fault::Hung {
            after: Duration::from_millis(1500),
        };
        assert_eq!(hung.describe(), "did not finish in 1.5 s");
        assert_eq!(
            Fault::Hung {
                after: Duration::from_secs(10)
            }
            .describe(),
            "did not finish in 10 s"
        );
    }

    #[test]
    fn shrinking_keeps_to_the_same_kind_of_fault() {
        assert!(signal(11, "a").same_kind(&signal(11, "b")));
        assert!(!signal(11, "").same_kind(&signal(6, "")));
        assert!(!signal(6, "has overflowed its stack").same_kind(&signal(6, "")));
        let hung = Fault::Hung {
            after: Duration::from_secs(1),
        };
        assert!(hung.same_kind(&Fault::Hung {
            after: Duration::from_secs(2)
        }));
        assert!(!hung.same_kind(&signal(11, "")));
    }
}
