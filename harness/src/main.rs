//! The `bitbench` command.
fn main() {}
