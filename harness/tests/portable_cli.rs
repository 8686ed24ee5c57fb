//! `bitbench check` of every workload on an emulated CPU with baseline
//! x86-64 only (QEMU's `qemu64` model: SSE2, no POPCNT, no SSE4, no AVX):
//! every variant that needs more must be listed unavailable and never run
//! (an illegal instruction would be a finding), and every portable path —
//! the ones CPUs without the features take — must agree with its oracle.
//! Skipped, with a message, where `qemu-x86_64` is missing
//! (`bash .ci/install-qemu-user` installs it; CI runs it).
#![cfg(target_arch = "x86_64")]

mod common;
use common::{list_entries, stderr, stdout, tool_missing, workloads};
use std::process::Command;

#[test]
fn check_passes_on_a_cpu_without_simd_extensions() {
    if tool_missing("qemu-x86_64") {
        eprintln!("SKIPPED: qemu-x86_64 is not installed (bash .ci/install-qemu-user installs it)");
        return;
    }
    let workloads = workloads(&list_entries());

    let out = Command::new("qemu-x86_64")
        .args(["-cpu", "qemu64", env!("CARGO_BIN_EXE_bitbench")])
        .args(["check", "--cases", "50"])
        .env("CI", "1")
        // The children that run the kernels run on the emulated CPU too.
        .env("BITBENCH_RUNNER", "qemu-x86_64 -cpu qemu64")
        .output()
        .expect("qemu-x86_64 runs");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    for w in &workloads {
        assert!(
            text.contains(&format!("\n{w}: ok in")),
            "{w} not ok:\n{text}"
        );
    }
    // The SIMD variants were seen and refused, with the features missing...
    for refused in [
        "avx2: not checked, unavailable (this CPU lacks avx2",
        "avx512: not checked, unavailable (this CPU lacks avx512f",
        "simd: not checked, unavailable (this CPU lacks avx2)",
    ] {
        assert!(text.contains(refused), "no {refused:?} in:\n{text}");
    }
    // ...and the portable paths behind the fast variants ran instead.
    for ran in [
        "swar: agreed with naive-bfs",
        "front: agreed with naive",
        "shift: agreed with kaggle-list",
    ] {
        assert!(text.contains(ran), "no {ran:?} in:\n{text}");
    }
}
