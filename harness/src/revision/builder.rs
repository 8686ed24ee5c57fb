//! [`Builder`]: builds revisions of the program's repository and keeps
//! them; [`Built`]: one kept build.

use super::cargo::{cargo, metadata, metadata_target};
use super::features::{self, Count};
use super::git::{copy_tree, export, git, working_tree_commit};
use crate::entry::Origin;
use crate::error::Error;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where an A/B keeps its builds and files: `<target>/bitbench-ab`, the
/// target directory of the program's package in its repository.
pub fn ab_dir(origin: &Origin) -> Result<PathBuf, Error> {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => metadata_target(Path::new(origin.source_dir()), "ab")?,
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
    /// `<target>/bitbench-ab`.
    dir: PathBuf,
    /// The user's `--features`.
    features: Vec<String>,
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

/// What a revision's build takes from its manifest.
struct Plan {
    /// The packages of its workspace, cleaned from the build directory
    /// before it builds (see the module docs).
    members: Vec<String>,
    /// `--features`, sorted: the user's and the one turning on `count`.
    features: Vec<String>,
    /// This program counts and nothing in the revision's manifest (nor
    /// the user) turns `count` on.
    uncounted: bool,
}

impl<'a> Builder<'a> {
    /// The builder of `origin`'s repository, the one its build recorded or
    /// else the one its manifest directory is in; `command` prefixes its
    /// messages. `Err` when that is no git repository.
    pub fn open(origin: &'a Origin, command: &'static str) -> Result<Builder<'a>, Error> {
        let source = Path::new(origin.source_dir());
        let repo = git(source, &["rev-parse", "--show-toplevel"]).map_err(|_| {
            Error::usage(format!(
                "{command}: {} is not in a git repository",
                source.display()
            ))
        })?;
        let repo = PathBuf::from(repo);
        let within = source
            .canonicalize()
            .ok()
            .and_then(|m| {
                let root = repo.canonicalize().ok()?;
                m.strip_prefix(root).ok().map(Path::to_owned)
            })
            .unwrap_or_default();
        let dir = ab_dir(origin)?;
        eprintln!("{command}: revisions of {}", repo.display());
        Ok(Builder {
            origin,
            command,
            repo,
            within,
            dir,
            features: Vec::new(),
        })
    }

    /// Builds every revision with `features` too (`--features`).
    pub fn with_features(mut self, features: Vec<String>) -> Self {
        self.features = features;
        self
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

    /// Where the build of `key` (a commit, or `<sha>-dirty`) with
    /// `features` is kept: `<sha>/`, or `<sha>+<features>/`.
    fn kept(&self, key: &str, features: &[String]) -> PathBuf {
        let key = if features.is_empty() {
            key.to_owned()
        } else {
            format!("{key}+{}", features.join("+").replace('/', "."))
        };
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
        let src = src.join(&self.within);
        let plan = self.plan(&src);
        let exe = self.kept(&sha, &plan.features);
        let mut seconds = None;
        if !exe.is_file() {
            seconds = Some(self.build(&name, &src, &sha, false, &plan, &exe)?);
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
        let src = src.join(&self.within);
        let plan = self.plan(&src);
        let exe = self.kept(&key, &plan.features);
        let seconds = self.build(&name, &src, &sha, true, &plan, &exe)?;
        Ok(Built {
            sha,
            name,
            exe,
            seconds: Some(seconds),
        })
    }

    /// What the build of the package in `src` takes from its workspace's
    /// `cargo metadata`; without one (a manifest that does not parse)
    /// only the user's features, and cargo's own error when it builds.
    fn plan(&self, src: &Path) -> Plan {
        let metadata = metadata(src).unwrap_or_default();
        let packages = metadata["packages"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        let members = packages
            .iter()
            .filter_map(|p| p["name"].as_str().map(str::to_owned))
            .collect();
        let mut features = self.features.clone();
        let mut uncounted = false;
        let package = packages.iter().find(|p| p["name"] == self.origin.package);
        // Inside bitbench, this is the running program's own feature.
        if cfg!(feature = "count")
            && let Some(package) = package
        {
            match features::count(package) {
                Count::Default => {}
                Count::Feature(feature) => features.push(feature),
                Count::Nowhere => uncounted = self.features.is_empty(),
            }
        }
        features.sort();
        features.dedup();
        Plan {
            members,
            features,
            uncounted,
        }
    }

    /// `cargo build --release` of the program in `src` into the build
    /// directory of ours, with the commit and the repository passed on for
    /// `main!` to record; the binary is copied to `kept`. Returns the
    /// build's seconds.
    fn build(
        &self,
        name: &str,
        src: &Path,
        sha: &str,
        dirty: bool,
        plan: &Plan,
        kept: &Path,
    ) -> Result<f64, Error> {
        let command = self.command;
        let target = self.dir.join("build");
        eprintln!("{command}: building {name}");
        if plan.uncounted {
            eprintln!(
                "{command}: {name}: nothing in its manifest turns on bitbench's `count` feature, \
                 so its instructions cannot be counted; name the feature that does with --features"
            );
        }
        let started = std::time::Instant::now();
        let _lock = lock(command, &target)?;
        self.clean(src, &target, &plan.members);
        let mut cargo = Command::new(cargo());
        cargo
            .args(["build", "--release", "--quiet", "-p", self.origin.package])
            .args(["--bin", self.origin.binary]);
        if !plan.features.is_empty() {
            cargo.args(["--features", &plan.features.join(",")]);
        }
        let out = cargo
            .current_dir(src)
            // Both: a `build.build-dir` of the user's config would
            // otherwise take the intermediate artifacts, and the cleaning.
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_BUILD_BUILD_DIR", &target)
            .env("BITBENCH_BUILD_COMMIT", sha)
            .env("BITBENCH_BUILD_DIRTY", dirty.to_string())
            .env("BITBENCH_BUILD_SOURCE", self.repo.join(&self.within))
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
        let built = target.join("release").join(format!(
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
        Ok(seconds)
    }

    /// Removes the artifacts of `members`, the packages of `src`'s
    /// workspace, from our build directory `target` (see the module docs).
    /// Best effort: a failure here shows up as cargo's own error in the
    /// build.
    fn clean(&self, src: &Path, target: &Path, members: &[String]) {
        if members.is_empty() {
            return;
        }
        let mut clean = Command::new(cargo());
        clean.args(["clean", "--release", "--quiet"]);
        for name in members {
            clean.args(["-p", name]);
        }
        let _ = clean
            .current_dir(src)
            .env("CARGO_TARGET_DIR", target)
            .env("CARGO_BUILD_BUILD_DIR", target)
            .stderr(Stdio::null())
            .status();
    }
}

/// Holds our build directory `target` for one revision's clean, build and
/// copy, which another run building at the same time would interleave with
/// (its build finding the artifacts of ours fresh) until the file is
/// dropped.
fn lock(command: &str, target: &Path) -> Result<std::fs::File, Error> {
    let path = target.join("bitbench-build.lock");
    let failed =
        |e: std::io::Error| Error::usage(format!("{command}: cannot lock {}: {e}", path.display()));
    std::fs::create_dir_all(target).map_err(failed)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(failed)?;
    if file.try_lock().is_err() {
        eprintln!(
            "{command}: waiting for another build in {}",
            target.display()
        );
        file.lock().map_err(failed)?;
    }
    Ok(file)
}
