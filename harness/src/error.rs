//! The library's error type.
//!
//! Every failure a user can cause ends as one line naming the input and
//! what is wrong, never a panic. The library says which kind of failure it
//! was; only the command line ([`crate::cli`]) turns kinds into exit codes.

use std::fmt;

/// A failure with a one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Bad usage or bad input (an unknown name, a malformed input, an
    /// unwritable file).
    Usage(String),
    /// A check or gate found a problem (a disagreement, a regression, a
    /// build that failed).
    Failed(String),
}

impl Error {
    /// Bad usage or bad input.
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// A check or gate failed.
    pub fn failed(message: impl Into<String>) -> Self {
        Error::Failed(message.into())
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        match self {
            Error::Usage(m) | Error::Failed(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

impl From<reports::ResultsError> for Error {
    fn from(e: reports::ResultsError) -> Self {
        Error::usage(e.to_string())
    }
}
