//! Which core to measure on, and pinning a thread to it.
//!
//! A sample on a core that another process keeps busy loses scheduler
//! slices; on a machine with an idle core it need not. So `ab`'s children
//! and `bench`'s measuring thread go to the core that was least busy over
//! a short look at `/proc/stat` (or the one `--core` names), and stay
//! there, so that neither build gains from a faster core or warmer caches.

use std::time::Duration;

/// How long [`least_busy`] watches the cores.
pub const LOOK: Duration = Duration::from_millis(100);

/// The core this process may run on that was least busy over `look`
/// (ties: the highest-numbered, away from where interrupts tend to
/// land); `None` where the cores cannot be read.
pub fn least_busy(look: Duration) -> Option<usize> {
    let allowed = allowed()?;
    let before = busy_and_total()?;
    std::thread::sleep(look);
    let after = busy_and_total()?;
    allowed
        .into_iter()
        .filter_map(|core| {
            let (b0, t0) = before.get(core).copied().flatten()?;
            let (b1, t1) = after.get(core).copied().flatten()?;
            let share = (b1.saturating_sub(b0)) as f64 / (t1.saturating_sub(t0)).max(1) as f64;
            Some((core, share))
        })
        .min_by(|(c0, s0), (c1, s1)| s0.total_cmp(s1).then(c1.cmp(c0)))
        .map(|(core, _)| core)
}

/// Each core's busy and total jiffies from `/proc/stat`, by core number.
fn busy_and_total() -> Option<Vec<Option<(u64, u64)>>> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let mut cores = Vec::new();
    for line in stat.lines() {
        let Some(rest) = line.strip_prefix("cpu") else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let Some(Ok(core)) = fields.next().map(str::parse::<usize>) else {
            continue; // the `cpu` line of all cores together
        };
        let ticks: Vec<u64> = fields.filter_map(|f| f.parse().ok()).collect();
        // user nice system idle iowait irq softirq steal ...
        let total: u64 = ticks.iter().take(8).sum();
        let idle = ticks.get(3).copied().unwrap_or(0) + ticks.get(4).copied().unwrap_or(0);
        if cores.len() <= core {
            cores.resize(core + 1, None);
        }
        cores[core] = Some((total - idle, total));
    }
    Some(cores)
}

/// The cores this process may run on, in order.
#[cfg(target_os = "linux")]
pub fn allowed() -> Option<Vec<usize>> {
    use nix::sched::{CpuSet, sched_getaffinity};
    use nix::unistd::Pid;
    let set = sched_getaffinity(Pid::from_raw(0)).ok()?;
    Some(
        (0..CpuSet::count())
            .filter(|&c| set.is_set(c).unwrap_or(false))
            .collect(),
    )
}

/// Pins thread `tid` (0: the calling thread; a process id: that process's
/// main thread) to `cores`; false where it cannot be done.
#[cfg(target_os = "linux")]
pub fn pin(tid: u32, cores: &[usize]) -> bool {
    use nix::sched::{CpuSet, sched_setaffinity};
    use nix::unistd::Pid;
    let mut set = CpuSet::new();
    if cores.iter().any(|&c| set.set(c).is_err()) {
        return false;
    }
    i32::try_from(tid).is_ok_and(|tid| sched_setaffinity(Pid::from_raw(tid), &set).is_ok())
}

/// The cores this process may run on: unknown on this OS.
#[cfg(not(target_os = "linux"))]
pub fn allowed() -> Option<Vec<usize>> {
    None
}

/// Pinning: not done on this OS.
#[cfg(not(target_os = "linux"))]
pub fn pin(_tid: u32, _cores: &[usize]) -> bool {
    false
}

/// Whether `core` is one this process may run on: why not, if not.
pub fn check(core: usize) -> Result<(), String> {
    match allowed() {
        Some(cores) if cores.contains(&core) => Ok(()),
        Some(cores) => Err(format!(
            "--core {core}: this process may run on cores {}",
            list(&cores)
        )),
        None => Err(format!("--core {core}: cores cannot be pinned on this OS")),
    }
}

/// Cores as text: `0, 1`.
pub fn list(cores: &[usize]) -> String {
    let names: Vec<String> = cores.iter().map(usize::to_string).collect();
    names.join(", ")
}

/// The calling thread pinned to one core until dropped, when its former
/// cores are restored (a thread that then starts a pool must not hand
/// its one core down to every worker).
pub struct Pinned {
    former: Vec<usize>,
}

impl Pinned {
    /// Pins the calling thread to `core`; `None` where it cannot.
    pub fn to(core: usize) -> Option<Pinned> {
        let former = allowed()?;
        pin(0, &[core]).then_some(Pinned { former })
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        pin(0, &self.former);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn the_least_busy_core_is_one_we_may_use_and_pinning_restores() {
        let allowed = allowed().unwrap();
        let core = least_busy(Duration::from_millis(20)).unwrap();
        assert!(allowed.contains(&core));
        {
            let _pinned = Pinned::to(core).unwrap();
            assert_eq!(super::allowed().unwrap(), vec![core]);
        }
        assert_eq!(super::allowed().unwrap(), allowed);
        assert!(check(usize::MAX / 2).is_err());
        assert!(check(core).is_ok());
    }
}
