//! The results store: a plain directory with one results file per run.
//!
//! Layout: `<commit>/<machine_id>/<date>-<hash>.json`, where `commit` is
//! the run's `machine.git_commit`, `machine_id` comes from
//! [`machine_id`] and `hash` is a hash of the run's content. A plain tree
//! of JSON files can be committed to a `gh-pages` branch, kept as a CI
//! artifact or merged by copying directories; grouping by commit first
//! keeps one commit's runs together for `history compare`, and naming the
//! file by its content makes adding the same run twice a no-op whatever
//! the input file was called.

use crate::results::{Machine, ResultsError, ResultsFile};
use std::fmt;
use std::path::{Path, PathBuf};

/// A results store rooted at one directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

/// What [`Store::add`] did with a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Added {
    /// The run was filed at this path.
    New(PathBuf),
    /// The same run was already filed, at this path; nothing was written.
    Present(PathBuf),
}

/// A run read back from the store.
#[derive(Clone, Debug)]
pub struct StoredRun {
    /// Where it is filed.
    pub path: PathBuf,
    /// Its commit, as filed (the run's `machine.git_commit`).
    pub commit: String,
    /// Its machine's name (`machine.name`, as `--machine` set it).
    pub machine: String,
    /// Whether it was measured on a tree with uncommitted changes (filed
    /// with `allow_dirty`).
    pub dirty: bool,
    /// The run itself.
    pub file: ResultsFile,
}

/// Why the store refused a run or could not be read or written.
#[derive(Debug)]
pub enum HistoryError {
    /// A file or directory of the store could not be read or written.
    Io(PathBuf, std::io::Error),
    /// A file is not a bitbench results file (or of an unreadable schema).
    Results(ResultsError),
    /// The run does not name the commit it measured; names the run.
    NoCommit(String),
    /// The run names something that is not a commit hash; names the run.
    BadCommit(String, String),
    /// The run was measured on a tree with uncommitted changes; names the
    /// run and its commit.
    Dirty(String, String),
    /// The run holds records of several builds (an `ab` file: A and B);
    /// names the run and the builds.
    Mixed(String, Vec<String>),
    /// The store holds a different run under the name this one hashes to.
    Collision(PathBuf),
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            HistoryError::Results(e) => write!(f, "{e}"),
            HistoryError::NoCommit(run) => write!(
                f,
                "{run}: the run does not name its commit (git_commit is unknown); build it from a git checkout (as `ab` and `history run` do)"
            ),
            HistoryError::BadCommit(run, commit) => {
                write!(f, "{run}: git_commit `{commit}` is not a commit hash")
            }
            HistoryError::Dirty(run, commit) => write!(
                f,
                "{run}: measured on commit {commit} with uncommitted changes; pass --allow-dirty to file it anyway"
            ),
            HistoryError::Mixed(run, sources) => write!(
                f,
                "{run}: holds the records of several builds ({}); a store keeps one build's run per commit, so file each build's own results",
                sources.join(", ")
            ),
            HistoryError::Collision(path) => write!(
                f,
                "{}: holds a different run with the same content hash; not overwritten",
                path.display()
            ),
        }
    }
}

impl std::error::Error for HistoryError {}

impl From<ResultsError> for HistoryError {
    fn from(e: ResultsError) -> Self {
        HistoryError::Results(e)
    }
}

/// The machine part of a run's key: the machine's name as a path-safe
/// slug (`lab-1`, `vm-amd-epyc-family-25-model-17`).
///
/// The one place the key is computed. Runs are grouped by the name itself
/// ([`StoredRun::machine`]); the slug only places the file.
pub fn machine_id(machine: &Machine) -> String {
    let slug = crate::plan::slug(&machine.name);
    if slug.is_empty() {
        "unnamed-machine".to_owned()
    } else {
        slug
    }
}

/// Checks that `run` may be filed: it names a commit hash, holds one
/// build's records (not an `ab` file's two) and, unless `allow_dirty`, was
/// measured on a clean tree (an unknown dirty flag, as in files older
/// than the flag, is taken as clean). Returns the commit.
///
/// Separate from [`Store::add`] so a command filing several runs can check
/// all of them before writing any.
pub fn admit(run: &ResultsFile, allow_dirty: bool) -> Result<String, HistoryError> {
    let name = || describe(run);
    let commit = match run.machine.git_commit.as_deref().map(str::trim) {
        None | Some("" | "unknown") => return Err(HistoryError::NoCommit(name())),
        Some(c) => c,
    };
    let hex = commit.len() >= 7 && commit.len() <= 64;
    if !hex || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(HistoryError::BadCommit(name(), commit.to_owned()));
    }
    let mut sources: Vec<String> = run
        .records
        .iter()
        .filter_map(|r| r.source.clone())
        .collect();
    sources.sort();
    sources.dedup();
    if sources.len() > 1 {
        return Err(HistoryError::Mixed(name(), sources));
    }
    if run.machine.git_dirty == Some(true) && !allow_dirty {
        return Err(HistoryError::Dirty(name(), commit.to_owned()));
    }
    Ok(commit.to_ascii_lowercase())
}

/// A run named in errors by when and how it was made.
fn describe(run: &ResultsFile) -> String {
    format!("run of {} (`{}`)", run.date, run.command)
}

impl Store {
    /// Opens the store at `dir`, creating the directory if absent.
    pub fn open(dir: &Path) -> Result<Store, HistoryError> {
        std::fs::create_dir_all(dir).map_err(|e| HistoryError::Io(dir.to_owned(), e))?;
        if !dir.is_dir() {
            let e = std::io::Error::other("not a directory");
            return Err(HistoryError::Io(dir.to_owned(), e));
        }
        Ok(Store {
            dir: dir.to_owned(),
        })
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Files `run` (see [`admit`] for what is refused); a run with the same
    /// content already filed is left alone. The write is atomic.
    ///
    /// `from` is the directory the run's file was read from: its records'
    /// profiles ([`Record::profile`](crate::Record::profile), relative to
    /// it) are copied into a directory named like the filed run, and the
    /// filed run points there. A profile that is missing (or whose path
    /// leaves `from`) is dropped from the filed run rather than left
    /// dangling.
    pub fn add(
        &self,
        run: &ResultsFile,
        from: Option<&Path>,
        allow_dirty: bool,
    ) -> Result<Added, HistoryError> {
        let commit = admit(run, allow_dirty)?;
        let hash = crate::interval::seed_of(&[&content(run)]);
        let stem = format!("{}-{hash:016x}", date_stamp(&run.date));
        let dir = self.dir.join(&commit).join(machine_id(&run.machine));
        let path = dir.join(format!("{stem}.json"));
        let mut filed = run.clone();
        let mut profiles = Vec::new();
        for record in &mut filed.records {
            let Some(rel) = record.profile.take() else {
                continue;
            };
            let source = from
                .and_then(|from| inside(from, &rel))
                .filter(|p| p.is_file());
            if let Some(source) = source {
                let moved = Path::new(&stem).join(below_first(Path::new(&rel)));
                record.profile = Some(moved.to_string_lossy().into_owned());
                profiles.push((source, dir.join(moved)));
            }
        }
        let text = content(&filed);
        match std::fs::read(&path) {
            Ok(old) if old == text.as_bytes() => return Ok(Added::Present(path)),
            Ok(_) => return Err(HistoryError::Collision(path)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(HistoryError::Io(path, e)),
        }
        // The profiles first: a filed run never points at a missing file.
        for (source, target) in profiles {
            let io = |e| HistoryError::Io(target.clone(), e);
            std::fs::create_dir_all(target.parent().expect("inside the store")).map_err(io)?;
            std::fs::copy(&source, &target).map_err(io)?;
        }
        filed.write(&path)?;
        Ok(Added::New(path))
    }

    /// Every filed run, parsed, in path order (commit, machine, date).
    /// Hidden entries (`.git` of a `gh-pages` checkout) and files not
    /// ending in `.json` are not runs; a `.json` file that is not a
    /// results file is an error naming it.
    pub fn runs(&self) -> Result<Vec<StoredRun>, HistoryError> {
        let mut paths = Vec::new();
        collect(&self.dir, &mut paths)?;
        paths.sort();
        paths
            .into_iter()
            .map(|path| {
                let file = ResultsFile::read(&path)?;
                let commit = admit(&file, true).map_err(|e| match e {
                    HistoryError::NoCommit(_) | HistoryError::BadCommit(..) => {
                        HistoryError::NoCommit(path.display().to_string())
                    }
                    other => other,
                })?;
                Ok(StoredRun {
                    machine: file.machine.name.clone(),
                    dirty: file.machine.git_dirty == Some(true),
                    commit,
                    path,
                    file,
                })
            })
            .collect()
    }
}

/// The `.json` files under `dir`, skipping hidden entries.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), HistoryError> {
    let io = |e| HistoryError::Io(dir.to_owned(), e);
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(io)?;
        if kind.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// `from/rel` when `rel` is a plain relative path (no root, no `..`).
fn inside(from: &Path, rel: &str) -> Option<PathBuf> {
    let rel = Path::new(rel);
    rel.components()
        .all(|c| matches!(c, std::path::Component::Normal(_)))
        .then(|| from.join(rel))
}

/// `rel` below its first component (the directory beside the results file
/// that held it), or `rel` itself when it is a bare name.
fn below_first(rel: &Path) -> PathBuf {
    let mut parts = rel.components();
    parts.next();
    let rest = parts.as_path();
    if rest.as_os_str().is_empty() {
        rel.to_owned()
    } else {
        rest.to_owned()
    }
}

/// The run exactly as [`ResultsFile::write`] puts it on disk, so "the same
/// run" is decided on the bytes that would be filed.
fn content(run: &ResultsFile) -> String {
    let mut text = serde_json::to_string_pretty(run).expect("a results file serialises");
    text.push('\n');
    text
}

/// `2026-11-22T10:00:00Z` as `20261122T100000Z`: sortable and path-safe.
fn date_stamp(date: &str) -> String {
    let stamp: String = date
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(32)
        .collect();
    if stamp.is_empty() {
        "undated".to_owned()
    } else {
        stamp
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Build, Record};

    fn run(commit: Option<&str>, dirty: Option<bool>, median: f64) -> ResultsFile {
        let machine = Machine {
            name: "lab-1 · AMD EPYC 9454P".into(),
            cpu_model: "AMD EPYC 9454P 48-Core Processor".into(),
            cores: 2,
            git_commit: commit.map(str::to_owned),
            git_dirty: dirty,
            ..Machine::default()
        };
        let mut file = ResultsFile::new(
            "2026-11-22T10:00:00Z".into(),
            "bitbench bench".into(),
            machine,
            Build::default(),
        );
        file.records.push(Record {
            workload: "w".into(),
            variant: "v".into(),
            input_set: "s".into(),
            median,
            ..Record::default()
        });
        file
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("bitbench-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn machine_id_is_a_path_safe_slug() {
        let run = run(None, None, 1.0);
        assert_eq!(machine_id(&run.machine), "lab-1-amd-epyc-9454p");
        assert_eq!(machine_id(&Machine::default()), "unnamed-machine");
    }

    #[test]
    fn same_content_is_filed_once_and_read_back() {
        let dir = temp("twice");
        let store = Store::open(&dir).unwrap();
        let sha = "0123456789abcdef0123456789abcdef01234567";
        let Added::New(path) = store
            .add(&run(Some(sha), Some(false), 1.0), None, false)
            .unwrap()
        else {
            panic!("first add must file the run");
        };
        assert!(path.starts_with(dir.join(sha).join("lab-1-amd-epyc-9454p")));
        assert_eq!(
            store
                .add(&run(Some(sha), Some(false), 1.0), None, false)
                .unwrap(),
            Added::Present(path.clone())
        );
        assert!(matches!(
            store.add(&run(Some(sha), Some(false), 2.0), None, false).unwrap(),
            Added::New(other) if other != path
        ));
        let runs = store.runs().unwrap();
        assert_eq!(runs.len(), 2);
        assert!(runs.iter().all(|r| r.commit == sha && !r.dirty));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn profiles_are_filed_beside_the_run_and_still_resolve() {
        let dir = temp("profiles");
        let from = dir.join("results");
        std::fs::create_dir_all(from.join("count-1/A")).unwrap();
        std::fs::write(from.join("count-1/A/w-v-s.callgrind"), "events: Ir\n").unwrap();
        let mut counted = run(Some("0123456789abcdef"), Some(false), 1.0);
        counted.records.push(counted.records[0].clone());
        counted.records[0].profile = Some("count-1/A/w-v-s.callgrind".into());
        counted.records[1].profile = Some("count-1/A/gone.callgrind".into());
        let store = Store::open(&dir.join("store")).unwrap();
        let Added::New(path) = store.add(&counted, Some(&from), false).unwrap() else {
            panic!("first add must file the run");
        };
        let filed = ResultsFile::read(&path).unwrap();
        let rel = filed.records[0].profile.as_deref().expect("kept");
        let stem = path.file_stem().unwrap().to_string_lossy();
        assert_eq!(rel, format!("{stem}/A/w-v-s.callgrind"));
        let copied = path.parent().unwrap().join(rel);
        assert_eq!(std::fs::read_to_string(copied).unwrap(), "events: Ir\n");
        // A profile that is gone is dropped, not left dangling.
        assert_eq!(filed.records[1].profile, None);
        assert_eq!(
            store.add(&counted, Some(&from), false).unwrap(),
            Added::Present(path)
        );
        // A path that leaves the results directory is never followed.
        counted.records[0].profile = Some("../secret".into());
        counted.records[0].median = 3.0;
        let Added::New(path) = store.add(&counted, Some(&from), false).unwrap() else {
            panic!("a new run");
        };
        assert_eq!(ResultsFile::read(&path).unwrap().records[0].profile, None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn unknown_bad_and_dirty_commits_are_refused() {
        for commit in [None, Some("unknown"), Some("../etc"), Some("abc")] {
            assert!(
                admit(&run(commit, Some(false), 1.0), true).is_err(),
                "{commit:?}"
            );
        }
        let mut ab = run(Some("abcdef0"), Some(false), 1.0);
        ab.records.push(ab.records[0].clone());
        ab.records[0].source = Some("A old".into());
        ab.records[1].source = Some("B new".into());
        let err = admit(&ab, true).unwrap_err();
        assert!(err.to_string().contains("A old, B new"), "{err}");
        let dirty = run(Some("abcdef0"), Some(true), 1.0);
        let err = admit(&dirty, false).unwrap_err();
        assert!(err.to_string().contains("--allow-dirty"), "{err}");
        assert_eq!(admit(&dirty, true).unwrap(), "abcdef0");
    }

    #[test]
    fn a_foreign_json_file_in_the_store_is_named() {
        let dir = temp("foreign");
        std::fs::create_dir_all(dir.join("x")).unwrap();
        std::fs::write(dir.join("x/notes.json"), "[1]").unwrap();
        std::fs::write(dir.join("README.md"), "hi").unwrap();
        let err = Store::open(&dir).unwrap().runs().unwrap_err();
        assert!(err.to_string().contains("notes.json"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
