//! Git in the program's repository: the commit of a tree, a revision
//! exported, the working tree copied.

use std::path::Path;
use std::process::{Command, Stdio};

/// `git archive` of `sha` unpacked into `dest`, marked complete at the end.
pub(super) fn export(repo: &Path, sha: &str, dest: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dest)?;
    let mut archive = Command::new("git")
        .args(["archive", "--format=tar", sha])
        .current_dir(repo)
        .stdout(Stdio::piped())
        .spawn()?;
    let tar = Command::new("tar")
        .args(["-x", "-C"])
        .arg(dest)
        .stdin(archive.stdout.take().expect("stdout is piped"))
        .status()?;
    let git = archive.wait()?;
    if !(tar.success() && git.success()) {
        return Err(std::io::Error::other(format!(
            "git archive ({git}) | tar -x ({tar}) failed"
        )));
    }
    std::fs::write(dest.join(".exported"), sha)
}

/// The working tree of `repo` as git sees it (tracked files with their
/// changes, untracked ones not ignored) copied afresh into `dest`.
pub(super) fn copy_tree(repo: &Path, dest: &Path) -> std::io::Result<()> {
    if dest.exists() {
        std::fs::remove_dir_all(dest)?;
    }
    let listed = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(repo)
        .output()?;
    if !listed.status.success() {
        return Err(std::io::Error::other("git ls-files failed"));
    }
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = Path::new(std::str::from_utf8(name).map_err(std::io::Error::other)?);
        let from = repo.join(name);
        // A tracked file deleted in the working tree is not copied.
        if !from.is_file() {
            continue;
        }
        let to = dest.join(name);
        std::fs::create_dir_all(to.parent().expect("a file has a directory"))?;
        std::fs::copy(&from, &to)?;
    }
    Ok(())
}

/// The commit checked out at `dir` and whether its tree has uncommitted
/// changes, as the `BITBENCH_BUILD_COMMIT` and `BITBENCH_BUILD_DIRTY`
/// values a builder passes to cargo; `None` outside a git repository.
pub fn working_tree_commit(dir: &Path) -> Option<(String, String)> {
    let sha = git(dir, &["rev-parse", "HEAD"]).ok()?;
    let dirty = !git(dir, &["status", "--porcelain"]).ok()?.is_empty();
    Some((sha, dirty.to_string()))
}

/// `git ARGS` in `dir`, its trimmed stdout, or `Err` with its stderr.
pub fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}
