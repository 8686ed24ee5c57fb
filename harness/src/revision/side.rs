//! [`Side`]: one side of an A/B, and `ab`'s two: two revisions built, or
//! two binaries given.

use super::builder::{Builder, Built};
use crate::entry::Origin;
use crate::error::Error;
use std::path::{Path, PathBuf};

/// One side of the comparison.
#[derive(Clone, Debug)]
pub struct Side {
    /// `A` or `B`.
    pub label: &'static str,
    /// What it is, for people: a short commit, `working tree`, a path.
    pub name: String,
    /// The executable.
    pub exe: PathBuf,
}

impl Built {
    fn side(self, label: &'static str) -> Side {
        Side {
            label,
            name: self.name,
            exe: self.exe,
        }
    }
}

/// Two prebuilt binaries: nothing to build, no git needed.
pub fn binaries(a: &Path, b: &Path) -> Result<(Side, Side), Error> {
    let side = |label, path: &Path| {
        if !path.is_file() {
            return Err(Error::usage(format!(
                "--binaries: {}: no such file",
                path.display()
            )));
        }
        let exe = path
            .canonicalize()
            .map_err(|e| Error::usage(format!("--binaries: {}: {e}", path.display())))?;
        Ok(Side {
            label,
            name: path.display().to_string(),
            exe,
        })
    };
    Ok((side("A", a)?, side("B", b)?))
}

/// Builds revision `base` as A and `head` (default: the working tree) as
/// B, each with `features` too.
pub fn revisions(
    origin: &Origin,
    base: &str,
    head: Option<&str>,
    features: &[String],
) -> Result<(Side, Side), Error> {
    let builder = Builder::open(origin, "ab")
        .map_err(|e| Error::usage(format!("{e}; compare builds with --binaries A B")))?
        .with_features(features.to_vec());
    let a = builder.revision(base)?.side("A");
    let b = match head {
        Some(head) => builder.revision(head)?.side("B"),
        None => builder.working_tree()?.side("B"),
    };
    Ok((a, b))
}
