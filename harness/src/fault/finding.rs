//! A fault as the user reads it: workload, variant, where the input came
//! from, what happened in words, the (shrunk) input and its picture, and
//! the command that reproduces it. An input or picture too long to read is
//! cut ([`reports::excerpt`]), so a finding stays a few KB.

use super::kind::Fault;
use crate::outln;
use reports::excerpt::around;

/// One variant's crash or hang, investigated.
#[derive(Clone, Debug)]
pub(crate) struct Finding {
    /// Workload name.
    pub workload: String,
    /// The variant that faulted.
    pub variant: String,
    /// The variant a dispatching variant chose for the one input found.
    pub chosen: Option<&'static str>,
    /// The input set (or origin) of the batch it faulted on.
    pub set: String,
    /// Where the input came from, for the report.
    pub origin: String,
    /// What happened.
    pub fault: Fault,
    /// The input that does it, in `solve`'s format, when one was found
    /// alone (several when the fault needs them together).
    pub inputs: Vec<String>,
    /// Whether the input was shrunk (`false`: as drawn).
    pub shrunk: bool,
    /// Whether shrinking stopped at its budget (of time or steps).
    pub out_of_time: bool,
    /// The input drawn for humans (one input only).
    pub picture: String,
    /// The command that reproduces it.
    pub repro: Option<String>,
}

impl Finding {
    /// The record's reason: what happened and on which input.
    pub(crate) fn reason(&self) -> String {
        match self.inputs.as_slice() {
            [] => format!(
                "{} (the batch did not fault again alone)",
                self.fault.describe()
            ),
            [one] => format!("{} on {}", self.fault.describe(), around(one, 0)),
            many => format!(
                "{} on {} inputs together",
                self.fault.describe(),
                many.len()
            ),
        }
    }

    /// The workload, the variant (with the variant a dispatcher chose) and
    /// what it did: `popcount dispatch (chose popcnt for this input) CRASHED`.
    fn headline(&self) -> String {
        let chosen = chose_note(self.chosen);
        format!(
            "{} {}{chosen} {}",
            self.workload,
            self.variant,
            self.fault.status().as_str().to_uppercase()
        )
    }

    /// Prints the finding under a command's report: a header naming the
    /// variant and what happened, the picture, the repro line.
    pub(crate) fn print(&self) {
        outln!();
        let how = match (self.inputs.len(), self.shrunk, self.out_of_time) {
            (0, ..) => "no single input found: the batch did not fault again in a fresh process",
            (1, true, false) => "minimised",
            (1, true, true) => "minimised until its budget ran out",
            (1, false, _) => "not minimised: no smaller input faults the same way",
            _ => "the fault needs these inputs together",
        };
        outln!("  {} ({how}; from {}):", self.headline(), self.origin);
        outln!("    what: {}", self.fault.describe());
        match self.inputs.as_slice() {
            [] => {}
            [one] => {
                outln!("    input: {}", around(one, 0));
                for line in around(&self.picture, 0).lines() {
                    outln!("      {line}");
                }
            }
            many => {
                for input in many {
                    outln!("    input: {}", around(input, 0));
                }
            }
        }
        if let Some(repro) = &self.repro {
            outln!("    reproduce: {repro}");
        }
    }
}

/// What a finding adds after a dispatcher's answer or name: the variant it
/// chose for the input (` (chose popcnt for this input)`), as
/// [`Solve::chosen`](crate::Solve) says; nothing for any other solver.
pub(crate) fn chose_note(chosen: Option<&str>) -> String {
    chosen.map_or_else(String::new, |c| format!(" (chose {c} for this input)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(chosen: Option<&'static str>) -> Finding {
        Finding {
            workload: "popcount".to_owned(),
            variant: "dispatch".to_owned(),
            chosen,
            set: "bytes-8".to_owned(),
            origin: "input set 'bytes-8' (seed 1)".to_owned(),
            fault: Fault::Signal {
                signal: 11,
                stderr: String::new(),
            },
            inputs: vec!["ff".to_owned()],
            shrunk: true,
            out_of_time: false,
            picture: String::new(),
            repro: None,
        }
    }

    #[test]
    fn a_dispatchers_finding_names_the_variant_it_chose() {
        assert_eq!(finding(None).headline(), "popcount dispatch CRASHED");
        assert_eq!(
            finding(Some("popcnt")).headline(),
            "popcount dispatch (chose popcnt for this input) CRASHED"
        );
        // The record's reason is the same either way.
        assert_eq!(finding(Some("popcnt")).reason(), finding(None).reason());
    }
}
