//! What valgrind can run: its CPUID hides what it cannot execute
//! (AVX-512), so `bitbench list --json` run under it answers honestly, and
//! each case is marked countable or not, with the reason.

use super::{CountCase, Planned, install_hint};
use reports::Status;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// Marks the countable cases valgrind cannot run (see [`not_countable`]).
pub fn mark_unrunnable(planned: &mut [Planned<'_>], bitbench: &Path) -> Result<(), String> {
    if !planned.iter().any(|p| p.outcome.is_ok()) {
        return Ok(());
    }
    let under_valgrind = valgrind_availability(bitbench)?;
    for p in planned.iter_mut().filter(|p| p.outcome.is_ok()) {
        if let Some(reason) = not_countable(&None, &under_valgrind, &p.case) {
            p.outcome = Err((Status::Skipped, reason));
        }
    }
    Ok(())
}

/// Which variants valgrind can run: `(workload, variant) → None` when
/// available under valgrind, `Some(reason)` when not. Found by running
/// `bitbench list --json` under valgrind, whose CPUID hides what it cannot
/// execute (AVX-512), so runtime detection answers honestly.
pub fn valgrind_availability(
    bitbench: &Path,
) -> Result<HashMap<(String, String), Option<String>>, String> {
    let out = list_under_valgrind(bitbench, "--json")?;
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&out)
        .map_err(|e| format!("unexpected `list --json` output under valgrind: {e}"))?;
    Ok(entries
        .iter()
        .map(|e| {
            let text = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
            let reason = (e["available"] != true).then(|| text("reason"));
            ((text("workload"), text("variant")), reason)
        })
        .collect())
}

/// The CPU features a process detects under valgrind (`list --features`
/// run there): what a counted variant that dispatches by itself saw.
pub fn valgrind_features(bitbench: &Path) -> Result<Vec<String>, String> {
    let out = list_under_valgrind(bitbench, "--features")?;
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// The standard output of `bitbench list FLAG` run under valgrind.
fn list_under_valgrind(bitbench: &Path, flag: &str) -> Result<Vec<u8>, String> {
    let out = Command::new("valgrind")
        .args(["--tool=none", "-q", "--error-exitcode=99"])
        .arg(bitbench)
        .args(["list", flag])
        .env("CI", "1")
        .output()
        .map_err(|e| format!("cannot run valgrind ({e}); {}", install_hint()))?;
    if !out.status.success() {
        return Err(format!(
            "`valgrind {} list {flag}` failed: {}",
            bitbench.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}

/// Why a case cannot be counted, given the variant's native availability
/// and what valgrind can run; `None` when it can.
pub fn not_countable(
    native: &Option<String>,
    under_valgrind: &HashMap<(String, String), Option<String>>,
    case: &CountCase,
) -> Option<String> {
    if let Some(reason) = native {
        return Some(unavailable_here(reason));
    }
    let key = (case.workload.clone(), case.variant.clone());
    match under_valgrind.get(&key) {
        Some(None) => None,
        Some(Some(reason)) if reason.contains("avx512") => Some(format!(
            "{} (under valgrind {reason})",
            crate::levels::NO_AVX512
        )),
        Some(Some(reason)) => Some(format!("not countable: under valgrind {reason}")),
        None => Some("not countable: unknown to the valgrind probe".to_owned()),
    }
}

/// The count record's reason for a variant this CPU cannot run: for
/// AVX-512 ones, that valgrind could not count them on any CPU comes first.
pub fn unavailable_here(reason: &str) -> String {
    if reason.contains("avx512") {
        format!("{} (and {reason})", crate::levels::NO_AVX512)
    } else {
        reason.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avx512_variants_are_named_not_countable() {
        let case = CountCase {
            workload: "w".into(),
            variant: "avx512".into(),
            set: "s".into(),
        };
        let mut probe = HashMap::new();
        probe.insert(
            ("w".to_owned(), "avx512".to_owned()),
            Some("this CPU lacks avx512bw+avx512vl".to_owned()),
        );
        assert_eq!(
            not_countable(&None, &probe, &case).unwrap(),
            "not countable: valgrind has no AVX-512 (under valgrind this CPU lacks avx512bw+avx512vl)"
        );
        let native = Some("this CPU lacks avx2".to_owned());
        assert_eq!(not_countable(&native, &probe, &case), native);
        let native = Some("this CPU lacks avx512f".to_owned());
        assert_eq!(
            not_countable(&native, &probe, &case).unwrap(),
            "not countable: valgrind has no AVX-512 (and this CPU lacks avx512f)"
        );
        probe.insert(("w".to_owned(), "avx512".to_owned()), None);
        assert_eq!(not_countable(&None, &probe, &case), None);
    }
}
