//! Whether one sample was disturbed: its wall time well beyond the
//! measuring thread's CPU time, or the thread preempted.
//!
//! On a busy machine a sample that loses the core for a scheduler slice
//! reads several milliseconds slow, and no statistic of the samples alone
//! tells it from a slow kernel. The thread itself knows: `getrusage`
//! with `RUSAGE_THREAD` counts its involuntary context switches (it was
//! preempted; a migration to another core needs one too), and
//! `CLOCK_THREAD_CPUTIME_ID` its CPU time, which stops while a hypervisor
//! runs another guest on the core where it accounts steal time. Each
//! costs about a microsecond, once at each end of a sample of at least a
//! quarter of a millisecond.
//!
//! A thread that waits of its own accord (a parallel variant joining its
//! workers) makes voluntary switches and loses CPU time without being
//! disturbed: its wall time is then what it measures, and only a
//! preemption counts. Its workers' preemptions are not seen.
//!
//! perf's software events count the same switches and migrations, but
//! need `perf_event_paranoid` to allow them, which CI runners often do
//! not; `getrusage` needs nothing, so it is the one probe, named
//! [`PROBE`] in the results file.

use std::time::{Duration, Instant};

/// The name of the probe in results files: `rusage` where the thread's
/// counters are read, `none` where this OS has no such counters (every
/// sample then counts as undisturbed).
pub const PROBE: &str = if cfg!(target_os = "linux") {
    "rusage"
} else {
    "none"
};

/// Wall time beyond CPU time that a quiet sample shows: interrupts and
/// the probe's own reads (under 50 µs per 2 ms sample on an idle Zen 4).
const SLACK: Duration = Duration::from_micros(20);

/// And the share of the sample's wall time allowed beyond that.
const SLACK_SHARE: f64 = 0.01;

/// What one sample saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// Wall time of the sample.
    pub wall: Duration,
    /// The thread's CPU time over it, where the OS tells.
    pub cpu: Option<Duration>,
    /// The thread's involuntary context switches over it: preemptions.
    pub preempted: Option<u64>,
    /// Its voluntary context switches: waits of its own.
    pub waited: Option<u64>,
}

impl Observed {
    /// Whether the sample was disturbed; `None` when nothing was watched.
    ///
    /// Where the thread's CPU time is known and it did not wait, what
    /// counts is the time it lost: a kernel thread's 5 µs in a long sample
    /// does not disturb it, a busy neighbour's scheduler slice does.
    /// Otherwise any preemption does.
    pub fn disturbed(&self) -> Option<bool> {
        match (self.cpu, self.waited, self.preempted) {
            (Some(cpu), None | Some(0), _) => {
                Some(self.wall > cpu + SLACK + self.wall.mul_f64(SLACK_SHARE))
            }
            (_, _, Some(preempted)) => Some(preempted > 0),
            _ => None,
        }
    }
}

/// A sample being watched: the counters read at its start.
pub struct Watch {
    cpu: Option<Duration>,
    switches: Option<Switches>,
    start: Instant,
}

/// A thread's context switches so far.
#[derive(Clone, Copy, Debug)]
struct Switches {
    involuntary: u64,
    voluntary: u64,
}

impl Watch {
    /// Starts watching: the counters first, the wall clock last, so the
    /// reads are outside the timed span.
    pub fn start() -> Watch {
        let (cpu, switches) = (thread_cpu(), thread_switches());
        Watch {
            cpu,
            switches,
            start: Instant::now(),
        }
    }

    /// Stops: the wall clock first, then the counters.
    pub fn stop(self) -> Observed {
        let wall = self.start.elapsed();
        let (cpu, switches) = (thread_cpu(), thread_switches());
        let switched = switches.zip(self.switches);
        Observed {
            wall,
            cpu: cpu
                .zip(self.cpu)
                .map(|(end, start)| end.saturating_sub(start)),
            preempted: switched.map(|(end, start)| end.involuntary - start.involuntary),
            waited: switched.map(|(end, start)| end.voluntary - start.voluntary),
        }
    }
}

#[cfg(target_os = "linux")]
fn thread_cpu() -> Option<Duration> {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .ok()
        .map(Duration::from)
}

#[cfg(target_os = "linux")]
fn thread_switches() -> Option<Switches> {
    use nix::sys::resource::{UsageWho, getrusage};
    let usage = getrusage(UsageWho::RUSAGE_THREAD).ok()?;
    Some(Switches {
        involuntary: u64::try_from(usage.involuntary_context_switches()).ok()?,
        voluntary: u64::try_from(usage.voluntary_context_switches()).ok()?,
    })
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> Option<Duration> {
    None
}

#[cfg(not(target_os = "linux"))]
fn thread_switches() -> Option<Switches> {
    None
}

/// The involuntary context switches of process `pid`'s main thread so
/// far, read from `/proc`: how the driver watches a build that reports
/// nothing itself (one from before samples were watched). The span it
/// covers is the whole request, not only the timed part.
pub fn involuntary_switches(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("nonvoluntary_ctxt_switches:"))
        .and_then(|n| n.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observed(wall_us: u64, cpu_us: Option<u64>, switches: Option<(u64, u64)>) -> Observed {
        Observed {
            wall: Duration::from_micros(wall_us),
            cpu: cpu_us.map(Duration::from_micros),
            preempted: switches.map(|s| s.0),
            waited: switches.map(|s| s.1),
        }
    }

    #[test]
    fn a_preemption_or_lost_cpu_time_disturbs_a_sample() {
        let quiet = Some((0, 0));
        assert_eq!(observed(2000, Some(1995), quiet).disturbed(), Some(false));
        // A preemption of a few microseconds is not a disturbance...
        assert_eq!(
            observed(2000, Some(1995), Some((1, 0))).disturbed(),
            Some(false)
        );
        // ... 2 ms of wall time of which the thread ran 1.9 is: 100 µs lost.
        assert_eq!(observed(2000, Some(1900), quiet).disturbed(), Some(true));
        // ... unless it waited of its own accord (joining its workers).
        assert_eq!(
            observed(2000, Some(500), Some((0, 3))).disturbed(),
            Some(false)
        );
        assert_eq!(
            observed(2000, Some(500), Some((1, 3))).disturbed(),
            Some(true)
        );
        assert_eq!(observed(2000, None, quiet).disturbed(), Some(false));
        assert_eq!(observed(2000, None, Some((1, 0))).disturbed(), Some(true));
        assert_eq!(observed(2000, None, None).disturbed(), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_probe_tells_a_wait_from_a_spin() {
        let watch = Watch::start();
        let mut x = 1u64;
        for _ in 0..1000 {
            x = std::hint::black_box(x.wrapping_mul(3));
        }
        let spin = watch.stop();
        assert_eq!(spin.waited, Some(0), "{spin:?}");
        let watch = Watch::start();
        std::thread::sleep(Duration::from_millis(2));
        let slept = watch.stop();
        assert!(slept.waited.unwrap() > 0, "{slept:?}");
        assert!(slept.cpu.unwrap() < slept.wall, "{slept:?}");
        assert!(involuntary_switches(std::process::id()).is_some());
    }
}
