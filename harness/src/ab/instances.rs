//! Repeated executions: a record's pairs come from several pairs of
//! processes, started afresh in turn, and the pairs of processes are the
//! units the record is judged on.
//!
//! A process's speed can depend on where it landed: the addresses its
//! code, stack and pages got (address randomisation), and the state of
//! the core's predictors that the other build's process shares. Such an
//! effect is fixed for a process's life, so pairs from one pair of
//! processes all carry it and no number of them averages it out: they
//! only make an interval narrower about a biased value (a fixed offset of
//! 1.6 % in one pair of processes once read as a regression). As Kalibera
//! and Jones do with repeated executions, the record's time is cut into
//! slices, [`SLICES`] in the budget, and before each slice but the first
//! both builds are started again, their batch loaded and pinned; the
//! first pair after a start is not kept. Each pair of processes then
//! gives one change, and `stats.rs` judges their mean with Student's t.
//!
//! Once the budget is spent, slices go on, up to the cap, until the pairs
//! of processes are as many as their spread needs ([`stats::settled`]).
//! A restart costs a process start and a load (the batch solved once).
//! A slice is at most a tenth of the budget, or four restarts where a
//! restart is dear; once the spreads are known, `slices.rs` shortens it
//! to the length that buys the narrowest interval in the time.

use super::answers::{Batch, loading};
use super::build::Build;
use super::pairs::{Budget, Measured, Pairing, Side, Stop};
use super::plan::Planned;
use super::{slices, stats};
use crate::engine::serve::Answers;
use crate::error::Error;
use std::time::{Duration, Instant};

/// Slices of the budget, each from a pair of processes of its own.
pub const SLICES: u32 = 10;

/// Pairs of `builds` (children with `batch` loaded), from a fresh pair of
/// processes each slice, pinned to `core`.
pub fn measure(
    p: &Planned,
    batch: &Batch,
    [a, b]: [&mut Build; 2],
    budget: Budget,
    core: Option<usize>,
) -> Result<Measured, Error> {
    let mut slice = budget.base / SLICES;
    let mut pairing: Option<Pairing> = None;
    // The time spent starting processes again, not taking pairs.
    let mut restarting = Duration::ZERO;
    // Which pair of processes is measuring, and whether it has just started.
    let (mut process, mut fresh) = (0, false);
    loop {
        let (Some((ca, ha)), Some((cb, hb))) = (&mut a.child, &mut b.child) else {
            return Err(Error::failed("a build's serve mode stopped"));
        };
        if let Some(core) = core {
            ca.pin(core);
            cb.pin(core);
        }
        let (mut sa, mut sb) = (
            Side {
                child: ca,
                protocol: ha.protocol,
            },
            Side {
                child: cb,
                protocol: hb.protocol,
            },
        );
        let pairing = match &mut pairing {
            Some(pairing) => pairing,
            None => pairing.insert(Pairing::new(
                &mut sa,
                &mut sb,
                batch.inputs,
                batch.elements,
                budget,
            )?),
        };
        if fresh {
            pairing.warm(&mut sa, &mut sb)?;
        }
        let until = pairing.elapsed() + slice;
        if pairing.take(&mut sa, &mut sb, until, process)? == Stop::Done {
            break;
        }
        let changes = pairing.measured().changes();
        if pairing.elapsed() >= budget.base
            && stats::settled(&changes, budget.threshold_pct, budget.level())
        {
            break;
        }
        let started = Instant::now();
        process += 1;
        // The first pair of processes loaded A, then B; the next loads B
        // first, and so on, so that neither build is always the one whose
        // process started and filled its pages last before the slice.
        let order = if process % 2 == 1 {
            [&mut *b, &mut *a]
        } else {
            [&mut *a, &mut *b]
        };
        for build in order {
            build.restart(p, &batch.lines)?;
        }
        fresh = true;
        let restart = started.elapsed();
        restarting += restart;
        let m = pairing.measured();
        let taken = (m.pairs.len() + m.set_aside + process - 1) as u32;
        let pair = pairing.elapsed().saturating_sub(restarting) / taken.max(1);
        let longest = (budget.base / SLICES).max(restart * 4);
        // A restart's cost includes the pair not kept after it.
        slice = slices::next(m, restart + pair, pair, longest);
    }
    Ok(pairing.expect("the first slice makes the pairing").finish())
}

/// The seconds each pair of processes took, on average, in `measured`.
pub fn per_process(measured: &Measured) -> Duration {
    let processes = measured.taken.last().map_or(1, |t| t.instance + 1);
    measured.elapsed / processes as u32
}

impl Build {
    /// Starts its child again and loads `p`'s batch of `lines` into it.
    fn restart(&mut self, p: &Planned, lines: &[String]) -> Result<(), Error> {
        self.child = None;
        self.child = self.spawn();
        let (child, _) = self
            .child
            .as_mut()
            .ok_or_else(|| Error::failed(format!("{} did not start again", self.side.name)))?;
        // Its answers and what it counted were taken when the batch was
        // first loaded: the same batch in the same build.
        child.request::<Answers>(&loading(p, lines, false))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_of_processes_takes_its_share_of_the_time() {
        let m = Measured {
            pairs: vec![(1.0, 1.0); 6],
            taken: crate::ab::stats::tests::taken([0, 0, 1, 1, 2, 2].into_iter()),
            set_aside: 0,
            probe: "rusage",
            elapsed: Duration::from_secs(3),
        };
        assert_eq!(per_process(&m), Duration::from_secs(1));
    }
}
