//! Core cycles without a performance counter: the core's clock measured
//! against chains of instructions whose cycles are known.
//!
//! The machines bitbench runs on are often virtual, with no PMU (`perf`
//! counts nothing), yet the figure a reader compares across machines is
//! cycles per element, not nanoseconds, which move with every clock. As
//! uarch-bench does without counters, the clock is timed over a chain of
//! dependent instructions at two lengths: the difference in steps times
//! the steps' latency, over the difference in time, is the clock, and the
//! timer's own cost cancels. Each length keeps its fastest of a few
//! tries: a preemption or a busy sibling thread only ever slows a try.
//! (Their medians, on a Zen 4 guest, had the two chains 1–4.5 % apart,
//! the `add` chain reading low; their fastest agreed within 0.03 %.)
//!
//! The chains are chosen so nothing shortcuts them: `add reg, reg`
//! (1 cycle a step) cross-checked against `imul reg, reg` (3 cycles a step
//! on every x86-64 core seen). A chain of `add reg, imm` can run several
//! steps a cycle (the renamer folds immediates), and a tight loop of taken
//! branches two a cycle on Zen 5, so neither serves. When the two chains
//! disagree by more than [`AGREE`], the figure is refused: an emulated
//! CPU (qemu runs both at its own pace) or a clock changing under the
//! calibration.
//!
//! The clock moves (3.7–4.1 GHz on one Xeon, a quarter of successive
//! calibrations 50 MHz apart), so `bench` calibrates between its samples
//! and converts each sample with the calibrations beside it
//! ([`Calibrations::at`]).

use std::time::{Duration, Instant};

/// The most the two chains' clocks may differ, as a fraction.
pub const AGREE: f64 = 0.02;

/// Steps of the `add` chain in a short try; the long one takes
/// [`LONGER`] times as many. About 4 µs at 4 GHz.
const STEPS: u64 = 16 * 1024;

/// How much longer the long try is than the short one.
const LONGER: u64 = 4;

/// Calibrations made, at most, while the chains disagree: on a shared
/// host a burst of a sibling thread's work can outlast all the tries of
/// one (the `add` chain, on the busiest ports, then reads low).
const ATTEMPTS: usize = 3;

/// Tries of each chain at each length in one calibration.
const TRIES: usize = 7;

/// Cycles a step of each chain takes.
const ADD_LATENCY: u64 = 1;
const IMUL_LATENCY: u64 = 3;

/// The clock, in GHz, from a chain run `short` and then `long`, the long
/// one `extra_cycles` more: the difference cancels the timer's cost.
/// `None` when the long run was not the longer.
pub fn ghz(short: Duration, long: Duration, extra_cycles: u64) -> Option<f64> {
    let ns = long.checked_sub(short)?.as_secs_f64() * 1e9;
    (ns > 0.0).then(|| extra_cycles as f64 / ns)
}

/// One calibration's clock from the two chains' clocks; refused when
/// they disagree by more than [`AGREE`].
pub fn agreed(add: Option<f64>, imul: Option<f64>) -> Result<f64, String> {
    let (Some(a), Some(m)) = (add, imul) else {
        return Err("a chain's longer run was not the longer".to_owned());
    };
    let apart = (a - m).abs() / a.min(m);
    if apart > AGREE {
        return Err(format!(
            "the add chain read {a:.3} GHz and the imul chain {m:.3} GHz, {:.1} % apart (an emulated CPU, or a clock moving)",
            apart * 100.0
        ));
    }
    Ok((a + m) / 2.0)
}

/// Calibrates the clock of the core this thread runs on, in GHz: up to
/// [`ATTEMPTS`] times while the chains disagree.
pub fn calibrate() -> Result<f64, String> {
    let chains = chains().ok_or("no chain is written for this architecture")?;
    let mut refused = String::new();
    for _ in 0..ATTEMPTS {
        // The imul chain takes its steps thrice as long: a third as many
        // steps take about as long as the add chain's.
        match agreed(
            chain_ghz(chains.add, STEPS, ADD_LATENCY),
            chain_ghz(chains.imul, STEPS / IMUL_LATENCY, IMUL_LATENCY),
        ) {
            Ok(ghz) => return Ok(ghz),
            Err(why) => refused = why,
        }
    }
    Err(refused)
}

/// The clock `chain` reads, from the fastest of [`TRIES`] at each length.
fn chain_ghz(chain: fn(u64), steps: u64, latency: u64) -> Option<f64> {
    let fastest = |steps: u64| (0..TRIES).map(|_| timed(chain, steps)).min();
    ghz(
        fastest(steps)?,
        fastest(steps * LONGER)?,
        steps * (LONGER - 1) * latency,
    )
}

fn timed(chain: fn(u64), steps: u64) -> Duration {
    let started = Instant::now();
    chain(steps);
    started.elapsed()
}

/// The two chains of this architecture.
struct Chains {
    add: fn(u64),
    imul: fn(u64),
}

#[cfg(target_arch = "x86_64")]
fn chains() -> Option<Chains> {
    Some(Chains {
        add: x86::add_chain,
        imul: x86::imul_chain,
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn chains() -> Option<Chains> {
    None
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The chains, 64 steps a loop round so the loop's own branch is one
    //! in 64 and runs beside the chain, never on it.

    use std::arch::asm;

    /// A function running `steps` dependent `$op reg, reg` (rounded down
    /// to 64s): the two chains differ in their instruction only.
    macro_rules! chain {
        ($(#[$doc:meta])* $name:ident, $op:literal) => {
            $(#[$doc])*
            pub fn $name(steps: u64) {
                let mut x: u64 = 1;
                // SAFETY: registers only: no memory, no stack, no flags
                // read after; `rounds` counts down to zero and the loop
                // ends.
                unsafe {
                    asm!(
                        "2:",
                        ".rept 64",
                        concat!($op, " {x}, {y}"),
                        ".endr",
                        "dec {rounds}",
                        "jnz 2b",
                        x = inout(reg) x,
                        y = in(reg) 3u64,
                        rounds = inout(reg) (steps / 64).max(1) => _,
                        options(nomem, nostack),
                    );
                }
                std::hint::black_box(x);
            }
        };
    }

    chain!(
        /// Dependent `add reg, reg`: one cycle a step.
        add_chain,
        "add"
    );
    chain!(
        /// Dependent `imul reg, reg`: three cycles a step.
        imul_chain,
        "imul"
    );
}

/// The calibrations taken between a record's samples: after sample `i`,
/// the clock read `ghz`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibrations {
    /// `(samples before it, GHz)`, in order.
    pub taken: Vec<(usize, f64)>,
}

impl Calibrations {
    /// The clock for sample `i`: the mean of the calibrations just before
    /// and just after it (the nearest one at either end).
    pub fn at(&self, i: usize) -> Option<f64> {
        let after = self.taken.iter().position(|&(before, _)| before > i);
        let pick = |k: usize| self.taken.get(k).map(|t| t.1);
        match after {
            Some(0) => pick(0),
            Some(k) => Some((pick(k - 1)? + pick(k)?) / 2.0),
            None => self.taken.last().map(|t| t.1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS: fn(u64) -> Duration = Duration::from_nanos;

    #[test]
    fn the_timers_cost_cancels_between_the_two_lengths() {
        // 3 × 16384 more cycles at 4 GHz is 12 288 ns more, whatever the
        // fixed cost of reading the clock (here 500 ns) on both.
        let extra = 3 * 16384;
        let clock = ghz(NS(4096 + 500), NS(4 * 4096 + 500), extra).unwrap();
        assert!((clock - 4.0).abs() < 1e-9, "{clock}");
        assert_eq!(ghz(NS(10), NS(5), extra), None);
    }

    #[test]
    fn chains_that_disagree_are_refused() {
        assert_eq!(agreed(Some(4.0), Some(4.01)), Ok(4.005));
        // Under emulation both chains run at the emulator's pace: the
        // imul chain reads a third of the clock.
        let emulated = agreed(Some(2.0), Some(0.7)).unwrap_err();
        assert!(emulated.contains("apart"), "{emulated}");
        assert!(agreed(Some(4.0), Some(4.1)).is_err());
        assert!(agreed(None, Some(4.0)).is_err());
    }

    #[test]
    fn each_sample_takes_the_calibrations_beside_it() {
        let c = Calibrations {
            taken: vec![(0, 3.7), (4, 3.9), (8, 4.1)],
        };
        assert_eq!(c.at(0), Some((3.7 + 3.9) / 2.0));
        assert_eq!(c.at(5), Some(4.0));
        assert_eq!(c.at(9), Some(4.1));
        assert_eq!(Calibrations::default().at(0), None);
    }
}
