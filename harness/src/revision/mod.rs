//! Building the program at a revision: the one place that runs cargo and
//! git to make executables of the program's own source.
//!
//! `ab` builds its two sides here, `history run` and `history bisect` the
//! commits they measure, and `matrix` takes cargo and the target directory
//! from here for its per-level builds. It lives beside them rather than in
//! any of them, so none imports another (or a command module) for it.
//!
//! A revision is exported (`git archive`) and built with cargo for the
//! program's own package and binary ([`Origin`](crate::entry::Origin)), in
//! one target directory shared by every revision so dependencies compile
//! once. Binaries are kept at `<target>/bitbench-ab/<sha>/`, so a later run
//! reuses them and the repro commands printed for a broken answer stay
//! valid. The working tree (`ab`'s default head) with uncommitted changes
//! is copied, keyed `<sha>-dirty`, and rebuilt every time.
//!
//! Cargo keys a path package by its path relative to its workspace, so
//! every copy of the tree shares one set of artifacts for it, and its
//! freshness check looks at the files of the copy built first. So before
//! each build the workspace's own packages are cleaned (`cargo clean -p`):
//! they are rebuilt, the registry dependencies are not. And after it too:
//! a build of the working tree itself into the same target directory
//! (`CARGO_TARGET_DIR`) would otherwise find the copy's artifacts fresh and
//! keep them, silently running a revision's code.
//!
//! - `builder.rs`: [`Builder`], which builds and keeps revisions, and
//!   [`Built`], one kept build.
//! - `side.rs`: [`Side`], one side of an A/B, and `ab`'s two of them.
//! - `git.rs`: git in the program's repository: commits, export, copy.
//! - `cargo.rs`: which cargo to run and where it puts its builds.

mod builder;
mod cargo;
mod git;
mod side;

pub use builder::{Builder, Built, ab_dir};
pub use cargo::{cargo, target_dir};
pub use git::{git, working_tree_commit};
pub use side::{Side, binaries, revisions};
