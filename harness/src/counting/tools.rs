//! The tools counting needs, valgrind and a gungraun-runner of exactly
//! the linked library's version, and how to install them.

use std::process::Command;

/// The gungraun version this build links; the runner must match it.
pub const GUNGRAUN_VERSION: &str = "0.20.0";

/// How to get the tools, for error messages.
pub const INSTALL_HINT: &str = "install them with `bash .ci/install-measure-tools` \
     (apt-get install valgrind; cargo install gungraun-runner --version 0.20.0 --locked)";

/// Checks that valgrind and a matching gungraun-runner are installed.
pub fn check_tools() -> Result<(), String> {
    let version = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    if version("valgrind").is_none() {
        return Err(format!("valgrind is not installed; {INSTALL_HINT}"));
    }
    match version("gungraun-runner") {
        None => Err(format!("gungraun-runner is not on PATH; {INSTALL_HINT}")),
        Some(v) if !v.split_whitespace().any(|w| w == GUNGRAUN_VERSION) => Err(format!(
            "gungraun-runner is '{v}' but this build links gungraun {GUNGRAUN_VERSION}; \
             {INSTALL_HINT}"
        )),
        Some(_) => Ok(()),
    }
}
