//! The CLI's one error type and its exit codes.
//!
//! Every failure a user can cause ends as one line on stderr and a
//! documented exit code: 1 when a check or gate found a problem, 2 for bad
//! usage or input. Nothing user-facing panics.

use std::fmt;

/// An error that ends the command with a message and an exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// Process exit code: 1 failed check or gate, 2 usage or input error.
    pub code: u8,
    /// One line naming the input and what is wrong.
    pub message: String,
}

impl CliError {
    /// Bad usage or bad input: exit code 2.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: 2,
            message: message.into(),
        }
    }

    /// A check or gate failed: exit code 1.
    pub fn failed(message: impl Into<String>) -> Self {
        CliError {
            code: 1,
            message: message.into(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

impl From<reports::ResultsError> for CliError {
    fn from(e: reports::ResultsError) -> Self {
        CliError::usage(e.to_string())
    }
}
