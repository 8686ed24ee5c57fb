//! What machine and build a run measured, for the results file.
//!
//! Figures without their context are useless: a results file records the
//! CPU model and flags, the compiler, the target-cpu level and the commit,
//! so that two files can be compared knowingly. The commit is the one the
//! program's builder named at build time (see [`crate::Origin::commit`]),
//! and the host's load and frequency policy are recorded because they move
//! timings more than most code changes do. The machine's name
//! (`--machine`) is what reports facet by and `compare` matches on.

use crate::error::Error;
use reports::{Build, Machine, ResultsFile};
use std::sync::OnceLock;

/// `--machine`, shared by every command that writes a results file.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MachineArg {
    /// The name this machine's results go by: reports draw each machine
    /// apart and `compare` refuses two machines' files; no '/'. Default:
    /// the hostname and CPU model (and the architecture, other than x86-64).
    #[arg(long = "machine", value_name = "NAME")]
    pub name: Option<String>,
}

impl MachineArg {
    /// The name to record: the one given, checked, or the default.
    pub fn resolve(&self) -> Result<String, Error> {
        match &self.name {
            Some(name) => Machine::check_name(name)
                .map(|()| name.clone())
                .map_err(|why| Error::usage(format!("--machine {name:?}: {why}"))),
            None => Ok(default_name()),
        }
    }
}

/// This host's name and CPU model, e.g. `ci-7 · AMD EPYC 9454P ...`, and
/// the architecture where it is not x86-64: under user-mode emulation
/// (`qemu-aarch64` on an x86 host) the CPU model read is the host's, and
/// the emulated run must not pass for a native one.
pub fn default_name() -> String {
    let (cpu_model, _) = cpu(&std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default());
    let mut name = match hostname() {
        Some(host) => format!("{host} · {cpu_model}"),
        None => cpu_model,
    };
    if std::env::consts::ARCH != "x86_64" {
        name = format!("{name} · {}", std::env::consts::ARCH);
    }
    Machine::name_from(&name)
}

/// The hostname, from the kernel, the environment or `uname -n`.
fn hostname() -> Option<String> {
    read_trimmed("/proc/sys/kernel/hostname")
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| {
            let out = std::process::Command::new("uname")
                .arg("-n")
                .output()
                .ok()?;
            Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        })
        .filter(|h| !h.trim().is_empty())
}

/// The commit and dirty flag of the running program, set once at start-up.
static BUILD_COMMIT: OnceLock<(Option<&'static str>, Option<&'static str>)> = OnceLock::new();

/// Records the commit and dirty flag the program was built with (from
/// [`crate::Origin`]); called once by the command line.
pub fn set_build(commit: Option<&'static str>, dirty: Option<&'static str>) {
    let _ = BUILD_COMMIT.set((commit, dirty));
}

/// The build's commit (`unknown` when its builder did not say) and whether
/// its tree was dirty (`None`: unknown).
pub fn build_commit() -> (String, Option<bool>) {
    let (commit, dirty) = BUILD_COMMIT.get().copied().unwrap_or_default();
    (
        commit
            .filter(|c| !c.is_empty())
            .unwrap_or("unknown")
            .to_owned(),
        dirty.map(|d| d == "true"),
    )
}

/// CPU flags worth recording: the ones kernels and target-cpu levels use.
const INTERESTING_FLAGS: &[&str] = &[
    "sse2",
    "ssse3",
    "sse4_1",
    "sse4_2",
    "popcnt",
    "avx",
    "avx2",
    "bmi1",
    "bmi2",
    "fma",
    "lzcnt",
    "movbe",
    "avx512f",
    "avx512bw",
    "avx512cd",
    "avx512dq",
    "avx512vl",
    "avx512_vbmi",
    "avx512_vbmi2",
    "avx512_vpopcntdq",
    "avx512_bitalg",
    "gfni",
];

/// Describes this machine, named `name` (reads `/proc` where available).
pub fn machine(name: &str) -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let (cpu_model, cpu_flags) = cpu(&cpuinfo);
    let os_release = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_owned())
        .unwrap_or_default();
    Machine {
        name: name.to_owned(),
        cpu_model,
        cpu_flags,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        os: format!("{} {os_release}", std::env::consts::OS)
            .trim()
            .to_owned(),
        rustc: env!("BITBENCH_RUSTC").to_owned(),
        git_commit: Some(build_commit().0),
        git_dirty: build_commit().1,
        load_start: load_average(),
        load_end: None,
        cpu_governor: read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        cpu_boost: boost(),
        detected_features: Some(
            crate::features::detected_names()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        ),
    }
}

/// The one-minute load average, where `/proc/loadavg` is readable.
pub fn load_average() -> Option<f64> {
    read_trimmed("/proc/loadavg")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Frequency boost: `on`/`off` from whichever of the cpufreq (AMD, generic)
/// or intel_pstate switches this kernel exposes.
fn boost() -> Option<String> {
    if let Some(b) = read_trimmed("/sys/devices/system/cpu/cpufreq/boost") {
        return Some(if b == "1" { "on" } else { "off" }.to_owned());
    }
    read_trimmed("/sys/devices/system/cpu/intel_pstate/no_turbo")
        .map(|n| if n == "1" { "off" } else { "on" }.to_owned())
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_owned())
}

/// The CPU's model and its interesting flags, from the text of
/// `/proc/cpuinfo` (empty elsewhere: the model is then the architecture).
///
/// Virtual machines often report a bare "AMD EPYC", so the family and model
/// numbers follow the name: they tell a Zen 1 (256-bit operations split in
/// two, `pdep` in microcode) from a Zen 4, which changes what the SIMD
/// variants are worth.
fn cpu(cpuinfo: &str) -> (String, Vec<String>) {
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
    };
    let name = field("model name").unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let model = match (field("cpu family"), field("model")) {
        (Some(family), Some(model)) => format!("{name} (family {family}, model {model})"),
        _ => name,
    };
    let flags = field("flags").unwrap_or_default();
    let flags = flags
        .split_whitespace()
        .filter(|f| INTERESTING_FLAGS.contains(f))
        .map(str::to_owned)
        .collect();
    (model, flags)
}

/// An empty results file of a run of this program: its machine and
/// build, and the environment its kernels ran with, `in_children` of
/// this process or in it.
pub fn results_file(
    date: String,
    command: String,
    machine: Machine,
    build: Build,
    in_children: bool,
) -> ResultsFile {
    ResultsFile {
        environment: Some(crate::measuring_env::recorded(in_children)),
        ..ResultsFile::new(date, command, machine, build)
    }
}

/// Describes how this binary was built.
pub fn build() -> Build {
    Build {
        target_cpu: target_cpu().to_owned(),
        features: compiled_features(),
        profile: env!("BITBENCH_PROFILE").to_owned(),
    }
}

/// The `-C target-cpu` this binary was built with, or `default`.
pub fn target_cpu() -> &'static str {
    env!("BITBENCH_TARGET_CPU")
}

fn compiled_features() -> Vec<String> {
    let mut features = Vec::new();
    macro_rules! probe {
        ($($f:tt),*) => {$(
            if cfg!(target_feature = $f) {
                features.push($f.to_owned());
            }
        )*};
    }
    probe!(
        "sse2", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "fma",
        "lzcnt", "avx512f", "avx512bw", "avx512vl"
    );
    features
}

/// The current UTC time as RFC 3339, and a compact stamp for file names.
pub fn now() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    let (hh, mm, ss) = (rem / 3600, rem % 3600 / 60, rem % 60);
    (
        format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z"),
        format!("{y:04}{m:02}{d:02}-{hh:02}{mm:02}{ss:02}"),
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// algorithm), so no date crate is needed for one timestamp.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, cpu};

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
    }

    #[test]
    fn cpu_names_family_and_model_and_keeps_kernel_flags() {
        let text = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 23\n\
                    model\t\t: 1\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse2 avx2 bmi2 hypervisor\n";
        let (model, flags) = cpu(text);
        assert_eq!(model, "AMD EPYC (family 23, model 1)");
        assert_eq!(flags, ["sse2", "avx2", "bmi2"]);
        let (model, flags) = cpu("");
        assert_eq!(model, std::env::consts::ARCH);
        assert!(flags.is_empty());
    }
}
