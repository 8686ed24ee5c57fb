//! The tools counting needs, valgrind and a gungraun-runner of exactly
//! the linked library's version: whether they are here, and installing
//! them (`PROGRAM ci --install-tools`, which a CI gate runs, so that no
//! step needs a script or a lock file of bitbench's repository).

use std::process::Command;

/// The gungraun version this build links; the runner must match it. The
/// workspace pins the library with `=` to this version (a test holds the
/// two equal), so a program built on bitbench links exactly it.
pub const GUNGRAUN_VERSION: &str = "0.20.0";

/// How to get the tools, for error messages: the running program's own
/// command, and what it does.
pub fn install_hint() -> String {
    format!(
        "install them with `{} ci --install-tools` (valgrind by apt-get; \
         cargo install gungraun-runner --version {GUNGRAUN_VERSION} --locked)",
        crate::repro::program("bitbench")
    )
}

/// What `program --version` prints, trimmed; `None` when it does not run.
fn version(program: &str) -> Option<String> {
    Command::new(program)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
}

/// Whether a `gungraun-runner --version` line is this build's version.
fn matches(runner: &str) -> bool {
    runner.split_whitespace().any(|w| w == GUNGRAUN_VERSION)
}

/// Checks that valgrind and a matching gungraun-runner are installed.
pub fn check_tools() -> Result<(), String> {
    if version("valgrind").is_none() {
        return Err(format!("valgrind is not installed; {}", install_hint()));
    }
    match version("gungraun-runner") {
        None => Err(format!(
            "gungraun-runner is not on PATH; {}",
            install_hint()
        )),
        Some(v) if !matches(&v) => Err(format!(
            "gungraun-runner is '{v}' but this build links gungraun {GUNGRAUN_VERSION}; {}",
            install_hint()
        )),
        Some(_) => Ok(()),
    }
}

/// Installs what [`check_tools`] asks for, each only when it is missing or
/// at another version, so a second run (or a kept machine) costs two
/// `--version` calls: valgrind with apt-get (through sudo unless root),
/// gungraun-runner [`GUNGRAUN_VERSION`] with `cargo install --locked`.
/// Returns a line per tool saying what it found or did; `Err` is one line
/// saying which step failed.
pub fn install_tools() -> Result<Vec<String>, String> {
    let mut done = Vec::new();
    match version("valgrind") {
        Some(v) => done.push(format!("{v}: installed already")),
        None => {
            eprintln!("installing valgrind (apt-get)");
            apt_get(&["update", "-qq"])?;
            apt_get(&["install", "-y", "-qq", "valgrind"])?;
            let v = version("valgrind")
                .ok_or("apt-get installed valgrind, but `valgrind --version` does not run")?;
            done.push(format!("{v}: installed"));
        }
    }
    match version("gungraun-runner") {
        Some(v) if matches(&v) => done.push(format!("{v}: installed already")),
        found => {
            eprintln!(
                "installing gungraun-runner {GUNGRAUN_VERSION} (cargo install, several minutes)"
            );
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status = Command::new(cargo)
                .args(["install", "gungraun-runner", "--locked", "--quiet"])
                .args(["--version", GUNGRAUN_VERSION])
                .status()
                .map_err(|e| format!("cannot run cargo install: {e}"))?;
            if !status.success() {
                return Err(format!(
                    "cargo install gungraun-runner --version {GUNGRAUN_VERSION} failed ({status})"
                ));
            }
            let now = version("gungraun-runner").unwrap_or_default();
            if !matches(&now) {
                return Err(format!(
                    "cargo installed gungraun-runner {GUNGRAUN_VERSION}, but the one on PATH \
                     says '{now}': put cargo's bin directory (~/.cargo/bin) first on PATH"
                ));
            }
            let was = found.map_or_else(String::new, |v| format!(", replacing '{v}'"));
            done.push(format!("{now}: installed{was}"));
        }
    }
    Ok(done)
}

/// `apt-get ARGS`, non-interactive, through sudo unless this is root.
fn apt_get(args: &[&str]) -> Result<(), String> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let mut command = Command::new(if root { "env" } else { "sudo" });
    if !root {
        command.arg("env");
    }
    let status = command
        .arg("DEBIAN_FRONTEND=noninteractive")
        .arg("apt-get")
        .args(args)
        .status()
        .map_err(|e| {
            format!(
                "valgrind is not installed and apt-get cannot run here ({e}): install valgrind \
                 with the system's package manager"
            )
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("apt-get {} failed ({status})", args.join(" ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workspace's manifest pins the library to the version the runner
    /// is installed at: one number, held in two places by this test.
    #[test]
    fn the_runner_version_is_the_library_pinned_in_the_workspace() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            // A packaged crate has no workspace beside it; the pin travels
            // in its own manifest as `=` and is checked where it is made.
            return;
        };
        let pin = text
            .lines()
            .find_map(|l| l.strip_prefix("gungraun = \"="))
            .and_then(|rest| rest.strip_suffix('"'))
            .expect("the workspace pins gungraun with `=`");
        assert_eq!(pin, GUNGRAUN_VERSION);
    }

    #[test]
    fn a_runner_matches_by_its_version_word() {
        assert!(matches(&format!("gungraun-runner {GUNGRAUN_VERSION}")));
        assert!(!matches("gungraun-runner 0.19.9"));
        assert!(!matches(""));
    }
}
