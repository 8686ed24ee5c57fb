//! Building the program at a revision: the one place that runs cargo and
//! git to make executables of the program's own source.
//!
//! `ab` builds its two sides here, `history run` and `history bisect` the
//! commits they measure, and `matrix` takes cargo and the target directory
//! from here for its per-level builds. It lives beside them rather than in
//! any of them, so none imports another (or a command module) for it.
//!
//! A revision is exported (`git archive`) and built with cargo for the
//! program's own package and binary ([`Origin`](crate::entry::Origin)), with
//! the features that make it like the running program (`features.rs`), into
//! a target directory of ours, `<target>/bitbench-ab/build`, shared by every
//! revision so registry dependencies compile once. The program's own target
//! directory (`CARGO_TARGET_DIR` or the workspace's) is never built in nor
//! cleaned, so its binary stays as the user built it. Binaries are kept at
//! `<target>/bitbench-ab/<sha>/` (`<sha>+<features>/` when built with
//! features), so a later run reuses them and the repro commands printed
//! for a broken answer stay valid. The working tree (`ab`'s default head)
//! with uncommitted changes is copied, keyed `<sha>-dirty`, and rebuilt
//! every time. Each build records its commit and the package's directory in
//! its repository, so a kept binary run from anywhere finds that repository.
//!
//! Cargo keys a path package by its path relative to its workspace, so
//! every copy of the tree shares one set of artifacts for it, and its
//! freshness check compares their time with the copy's files, which
//! `git archive` dates to their commit. So before each build the
//! workspace's own packages are cleaned from our build directory (`cargo
//! clean -p`, never elsewhere): they are rebuilt, the registry dependencies
//! are not; a lock on that directory keeps two runs' clean and build apart.
//!
//! - `builder.rs`: [`Builder`], which builds and keeps revisions, and
//!   [`Built`], one kept build.
//! - `features.rs`: which features a revision is built with, and how the
//!   one that turns on bitbench's `count` is found.
//! - `side.rs`: [`Side`], one side of an A/B, and `ab`'s two of them.
//! - `git.rs`: git in the program's repository: commits, export, copy.
//! - `cargo.rs`: which cargo to run and where it puts its builds.

mod builder;
mod cargo;
mod features;
mod git;
mod side;

pub use builder::{Builder, Built, ab_dir};
pub use cargo::{cargo, metadata, target_dir};
pub use features::{Count, FeaturesArg, count_through};
pub use git::{git, working_tree_commit};
pub use side::{Side, binaries, revisions};
