//! What a report is asked for: the caller's side of [`render`](super::render).

/// What the report is for, beyond the results themselves.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// The command that produced the report, shown on the pages.
    pub command: String,
    /// Workloads the caller expects the files to hold; absent ones are
    /// named in "Not shown". `bitbench report` leaves it empty: a report
    /// speaks only of the workloads in its files.
    pub expected_workloads: Vec<String>,
    /// `Some(root)`: draw a flame graph of every counted instruction record
    /// that kept its callgrind profile, its stacks rooted at the functions
    /// named like `root` (see [`Flame::root`](crate::profile::Flame::root)).
    pub flamegraphs: Option<String>,
}
