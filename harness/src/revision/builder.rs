//! [`Builder`]: builds revisions of the program's repository and keeps
//! them; [`Built`]: one kept build.

use super::cargo::{cargo, target_dir};
use super::git::{copy_tree, export, git, working_tree_commit};
use crate::entry::Origin;
use crate::error::Error;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where an A/B keeps its builds and files: `<target>/bitbench-ab`.
pub fn ab_dir(origin: &Origin) -> Result<PathBuf, Error> {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => target_dir(origin)?,
    };
    Ok(target.join("bitbench-ab"))
}

/// Builds revisions of the program's repository, each once: a build is
/// kept and reused by every later run, of `ab` or of any other command.
pub struct Builder<'a> {
    origin: &'a Origin,
    /// The command the messages name (`ab`, `history run`).
    command: &'static str,
    repo: PathBuf,
    /// The package's directory inside the repository.
    within: PathBuf,
    /// The cargo target directory every revision builds into.
    target: PathBuf,
    /// `<target>/bitbench-ab`.
    dir: PathBuf,
}

/// One built revision.
#[derive(Clone, Debug)]
pub struct Built {
    /// The full commit.
    pub sha: String,
    /// `REV (sha10)`, for people.
    pub name: String,
    /// The kept executable.
    pub exe: PathBuf,
    /// How long its build took; `None`: a kept build was reused.
    pub seconds: Option<f64>,
}

impl<'a> Builder<'a> {
    /// The builder of `origin`'s repository; `command` prefixes its messages.
    /// `Err` when the program is not in a git repository.
    pub fn open(origin: &'a Origin, command: &'static str) -> Result<Builder<'a>, Error> {
        let manifest = Path::new(origin.manifest_dir);
        let repo = git(manifest, &["rev-parse", "--show-toplevel"]).map_err(|_| {
            Error::usage(format!(
                "{command}: {} is not in a git repository",
                manifest.display()
            ))
        })?;
        let repo = PathBuf::from(repo);
        let within = manifest
            .canonicalize()
            .ok()
            .and_then(|m| {
                let root = repo.canonicalize().ok()?;
                m.strip_prefix(root).ok().map(Path::to_owned)
            })
            .unwrap_or_default();
        let dir = ab_dir(origin)?;
        Ok(Builder {
            origin,
            command,
            repo,
            within,
            target: std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| dir.join("build"), PathBuf::from),
            dir,
        })
    }

    /// `<target>/bitbench-ab`, where the builds are kept.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `git ARGS` in the program's repository: its trimmed stdout, or
    /// `Err` with its stderr.
    pub fn git(&self, args: &[&str]) -> Result<String, String> {
        git(&self.repo, args)
    }

    /// The full commit `rev` names; `Err` (usage) naming `rev` when none.
    pub fn sha(&self, rev: &str) -> Result<String, Error> {
        git(
            &self.repo,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{rev}^{{commit}}"),
            ],
        )
        .map_err(|_| {
            Error::usage(format!(
                "{}: '{rev}' is not a commit of {}",
                self.command,
                self.repo.display()
            ))
        })
    }

    fn kept(&self, key: &str) -> PathBuf {
        self.dir.join(key).join(format!(
            "{}{}",
            self.origin.binary,
            std::env::consts::EXE_SUFFIX
        ))
    }

    /// Revision `rev`, its kept build or a new one; `Err` (usage) when it
    /// is no commit or does not build.
    pub fn revision(&self, rev: &str) -> Result<Built, Error> {
        let sha = self.sha(rev)?;
        let name = format!("{rev} ({})", &sha[..sha.len().min(10)]);
        let exe = self.kept(&sha);
        let mut seconds = None;
        if !exe.is_file() {
            let src = self.dir.join("src").join(&sha);
            if !src.join(".exported").is_file() {
                export(&self.repo, &sha, &src).map_err(|e| {
                    Error::usage(format!(
                        "{}: cannot export {name} to {}: {e}",
                        self.command,
                        src.display()
                    ))
                })?;
            }
            seconds = Some(self.build(&name, &src.join(&self.within), &sha, false, &exe)?);
        }
        Ok(Built {
            sha,
            name,
            exe,
            seconds,
        })
    }

    /// The working tree as it is, named `working tree (sha10)`: the build
    /// of its commit when it has no uncommitted changes, else a copy built
    /// afresh (kept as `<sha>-dirty`).
    pub fn working_tree(&self) -> Result<Built, Error> {
        let sha = self.sha("HEAD")?;
        let dirty = working_tree_commit(&self.repo).is_some_and(|(_, dirty)| dirty == "true");
        if !dirty {
            let mut built = self.revision("HEAD")?;
            built.name = format!("working tree ({})", &sha[..sha.len().min(10)]);
            return Ok(built);
        }
        let name = format!("working tree ({}+changes)", &sha[..sha.len().min(10)]);
        let key = format!("{sha}-dirty");
        let src = self.dir.join("src").join(&key);
        copy_tree(&self.repo, &src).map_err(|e| {
            Error::usage(format!(
                "{}: cannot copy the {name} to {}: {e}",
                self.command,
                src.display()
            ))
        })?;
        let exe = self.kept(&key);
        let seconds = self.build(&name, &src.join(&self.within), &sha, true, &exe)?;
        Ok(Built {
            sha,
            name,
            exe,
            seconds: Some(seconds),
        })
    }

    /// `cargo build --release` of the program in `src`, with the commit
    /// passed on for `main!` to record; the binary is copied to `kept`.
    /// Returns the build's seconds.
    fn build(
        &self,
        name: &str,
        src: &Path,
        sha: &str,
        dirty: bool,
        kept: &Path,
    ) -> Result<f64, Error> {
        let command = self.command;
        eprintln!("{command}: building {name}");
        let started = std::time::Instant::now();
        self.clean_members(src);
        let out = Command::new(cargo())
            .args(["build", "--release", "--quiet", "-p", self.origin.package])
            .args(["--bin", self.origin.binary])
            .current_dir(src)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("BITBENCH_BUILD_COMMIT", sha)
            .env("BITBENCH_BUILD_DIRTY", dirty.to_string())
            .stdout(Stdio::null())
            .output()
            .map_err(|e| Error::usage(format!("{command}: cannot run cargo: {e}")))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why = stderr
                .lines()
                .find(|l| l.starts_with("error"))
                .unwrap_or_else(|| stderr.lines().last().unwrap_or("cargo failed"));
            return Err(Error::usage(format!(
                "{command}: revision {name} does not build: {why}"
            )));
        }
        let built = self.target.join("release").join(format!(
            "{}{}",
            self.origin.binary,
            std::env::consts::EXE_SUFFIX
        ));
        let copy = || -> std::io::Result<()> {
            let dir = kept.parent().expect("a kept binary has a directory");
            std::fs::create_dir_all(dir)?;
            let tmp = dir.join(".partial");
            std::fs::copy(&built, &tmp)?;
            std::fs::rename(&tmp, kept)
        };
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("{command}: built {name} in {seconds:.0} s");
        copy().map_err(|e| {
            Error::usage(format!(
                "{command}: {name}: cannot keep {} as {}: {e}",
                built.display(),
                kept.display()
            ))
        })?;
        // Cleaned again so that the program's own next build in a shared
        // target directory does not take the copy's artifacts for its own.
        self.clean_members(src);
        Ok(seconds)
    }
}

impl Builder<'_> {
    /// Removes the artifacts of the packages of `src`'s workspace from the
    /// shared target directory (see the module docs). Best effort: a
    /// failure here shows up as cargo's own error in the build.
    fn clean_members(&self, src: &Path) {
        let Ok(out) = Command::new(cargo())
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--offline",
            ])
            .current_dir(src)
            .output()
        else {
            return;
        };
        let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let Some(packages) = metadata["packages"].as_array() else {
            return;
        };
        let mut clean = Command::new(cargo());
        clean.args(["clean", "--release", "--quiet"]);
        for name in packages.iter().filter_map(|p| p["name"].as_str()) {
            clean.args(["-p", name]);
        }
        let _ = clean
            .current_dir(src)
            .env("CARGO_TARGET_DIR", &self.target)
            .stderr(Stdio::null())
            .status();
    }
}
