//! `PROGRAM ci`: the program's own pull-request gate. `--init` writes it
//! into the program's repository (`fuzz --init` is the model: the files
//! are the user's, a second run changes nothing and an edited file is left
//! alone), `--check` says whether the files are still what `--init`
//! writes, and `--install-tools` installs the tools the gate counts with.
//!
//! What goes into the files comes from the program's crate ([`project`]);
//! the text is in [`workflow`], this repository's own gate being one of
//! its outputs; the header that tells an edited file apart is in [`files`].

mod files;
mod project;
mod workflow;

use crate::entry::Suite;
use crate::error::Error;
use crate::outln;
use files::State;
use project::Project;
use std::path::{Path, PathBuf};

/// `PROGRAM ci`'s command line.
#[derive(clap::Args, Debug)]
#[command(group(
    clap::ArgGroup::new("action")
        .required(true)
        .args(["init", "check", "install_tools"])
))]
pub struct Args {
    /// Write .github/workflows/bench-gate.yml (an `ab` of each pull
    /// request's base and head: answers and instructions decide, paired
    /// time is reported) and bench-comment.yml (posts its report as one
    /// comment) into this program's repository, for its package, binary,
    /// toolchain and features. A file already as it would be written is
    /// left as it is; one edited since is left alone and named.
    #[arg(long)]
    init: bool,
    /// Write nothing: exit 1 naming each of the two files that is not what
    /// --init would write now (edited, missing, or written for other
    /// settings or another bitbench).
    #[arg(long)]
    check: bool,
    /// Install valgrind (apt-get; sudo when not root) and gungraun-runner
    /// at the version this program links (cargo install --locked), each
    /// only when missing: the gate's first step after the build.
    #[arg(long)]
    install_tools: bool,
    /// With --init: rewrite the files edited since --init wrote them (or
    /// written by something else).
    #[arg(long, requires = "init")]
    force: bool,
    /// Paired time fails the gate too, besides answers and instructions
    /// (time on a shared runner can move by itself; default: reported).
    #[arg(long, conflicts_with = "install_tools")]
    time_gates: bool,
    /// The folder to treat as the repository's root, instead of the git
    /// repository the crate is in: its .github/workflows gets the files,
    /// and the steps run from the crate's place inside it. For a crate
    /// kept inside another repository until it has one of its own, such
    /// as an example.
    #[arg(long, value_name = "DIR", conflicts_with = "install_tools")]
    root: Option<PathBuf>,
}

/// Runs `PROGRAM ci`.
pub fn run(suite: &Suite, args: Args) -> Result<(), Error> {
    if args.install_tools {
        return install_tools();
    }
    let command = if args.init { "ci --init" } else { "ci --check" };
    let (project, notes) = Project::read(suite.origin(), command, args.root.as_deref())?;
    for note in &notes {
        eprintln!("{command}: {note}");
    }
    let wanted = [
        (
            files::GATE,
            files::stamped(&project.binary, &workflow::gate(&project, args.time_gates)),
        ),
        (
            files::COMMENT,
            files::stamped(&project.binary, &workflow::comment_workflow()),
        ),
    ];
    if args.check {
        return check(&project, &wanted);
    }
    say_settings(&project, args.time_gates);
    init(&project.repo, &wanted, args.force)
}

/// What the gate was written for, on stderr: the toolchain's source and
/// what decides.
fn say_settings(project: &Project, time_gates: bool) {
    let within = if project.dir.is_empty() {
        "the repository's root".to_owned()
    } else {
        format!("{}/", project.dir)
    };
    eprintln!(
        "ci --init: package {}, binary {}, run from {within}; toolchain {}, from {}",
        project.package, project.binary, project.toolchain, project.toolchain_from
    );
    let decides = match (project.count, time_gates) {
        (true, false) => {
            "answers and instructions decide, paired time is reported (--time-gates: it decides too)"
        }
        (true, true) => "answers, instructions and paired time decide",
        (false, _) => "answers and paired time decide (no instruction counts)",
    };
    eprintln!("ci --init: {decides}");
}

/// Writes each file that is missing or stale (or edited, with `force`);
/// says what it did with each.
fn init(repo: &Path, wanted: &[(&str, String)], force: bool) -> Result<(), Error> {
    let mut changed = false;
    for (name, text) in wanted {
        let path = repo.join(name);
        let state = files::state(files::read(&path).as_deref(), text);
        let done = match state {
            State::Current => {
                outln!("ci --init: {name} is up to date");
                continue;
            }
            State::Edited if !force => {
                outln!(
                    "ci --init: left {name} alone: edited since ci --init wrote it, or not \
                     written by it (--force rewrites it)"
                );
                continue;
            }
            State::Missing => "wrote",
            State::Stale => "updated",
            State::Edited => "rewrote (--force)",
        };
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(path.parent().expect("a workflow has a folder"))?;
            std::fs::write(&path, text)
        };
        write().map_err(|e| {
            Error::usage(format!("ci --init: cannot write {}: {e}", path.display()))
        })?;
        outln!("ci --init: {done} {name}");
        changed = true;
    }
    if changed {
        outln!("ci --init: commit them; the gate runs on every pull request");
    } else {
        outln!("ci --init: nothing changed");
    }
    Ok(())
}

/// Exit 1 naming each file that is not what `--init` would write.
fn check(project: &Project, wanted: &[(&str, String)]) -> Result<(), Error> {
    let mut differ = Vec::new();
    for (name, text) in wanted {
        let state = files::state(files::read(&project.repo.join(name)).as_deref(), text);
        match state {
            State::Current => outln!("ci --check: {name} is what ci --init writes"),
            State::Missing => differ.push(format!("{name} is missing")),
            State::Stale => differ.push(format!(
                "{name} was written for other settings or another bitbench"
            )),
            State::Edited => differ.push(format!("{name} was edited")),
        }
    }
    if differ.is_empty() {
        return Ok(());
    }
    Err(Error::failed(format!(
        "ci --check: {}; `{} ci --init` writes them (--force over an edited one)",
        differ.join(", "),
        crate::repro::program(&project.binary)
    )))
}

/// `--install-tools`: what the gate's tool step runs.
#[cfg(feature = "count")]
fn install_tools() -> Result<(), Error> {
    let done = crate::counting::install_tools()
        .map_err(|e| Error::usage(format!("ci --install-tools: {e}")))?;
    for line in done {
        outln!("ci --install-tools: {line}");
    }
    Ok(())
}

/// `--install-tools` in a program that cannot count: nothing to install.
#[cfg(not(feature = "count"))]
fn install_tools() -> Result<(), Error> {
    Err(Error::usage(
        "ci --install-tools: this program was built without bitbench's `count` feature, which \
         is what valgrind and gungraun-runner are for; add features = [\"count\"] to its \
         bitbench dependency in Cargo.toml",
    ))
}
