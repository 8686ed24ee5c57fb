//! Records how the binary was built (compiler, target-cpu, commit) so every
//! results file can say what produced it.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    println!("cargo:rerun-if-changed=build.rs");

    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=BITBENCH_RUSTC={version}");

    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let args: Vec<&str> = flags.split('\x1f').collect();
    let mut target_cpu = "default".to_owned();
    for (i, arg) in args.iter().enumerate() {
        let joined = match *arg {
            "-C" | "--codegen" => args.get(i + 1).copied().unwrap_or(""),
            a => a.strip_prefix("-C").unwrap_or(""),
        };
        if let Some(cpu) = joined.strip_prefix("target-cpu=") {
            target_cpu = cpu.to_owned();
        }
    }
    println!("cargo:rustc-env=BITBENCH_TARGET_CPU={target_cpu}");
    // The flags themselves, for results files: the same RUSTFLAGS build
    // every crate of the program, its kernels included.
    println!(
        "cargo:rustc-env=BITBENCH_RUSTFLAGS={}",
        args.join(" ").trim()
    );
    println!(
        "cargo:rustc-env=BITBENCH_PROFILE={}",
        std::env::var("PROFILE").unwrap_or_default()
    );
}
