//! Repeated executions: a record's pairs come from several pairs of
//! processes, started afresh in turn.
//!
//! A process's speed can depend on where it landed: the addresses its
//! code, stack and pages got (address randomisation), and the state of
//! the core's predictors that the other build's process shares. Such an
//! effect is fixed for a process's life, so pairs from one pair of
//! processes all carry it and no number of them averages it out: they
//! only make the interval narrower about a biased value. As Kalibera and
//! Jones do with repeated executions, the record's time is cut into
//! slices ([`SLICES`] in the budget, as many more in the extension), and
//! before each slice but the first both builds are started again, their
//! batch loaded and pinned; the first pair after a start is not kept.
//! The effect then varies between slices, and the interval is widened by
//! the spread between them beyond what their own pairs' spread explains.
//!
//! A restart costs a process start and a load (the batch solved once):
//! where that takes more than a quarter of a slice, the processes are
//! kept from then on.

use super::answers::Batch;
use super::build::Build;
use super::pairs::{Budget, Measured, Pairing, Side, Stop};
use super::plan::Planned;
use crate::engine::serve::{Answers, Request};
use crate::error::Error;
use reports::interval::Interval;
use std::time::Instant;

/// Slices of the budget, each from a pair of processes of its own.
pub const SLICES: u32 = 4;

/// Pairs of `builds` (children with `batch` loaded), from a fresh pair of
/// processes each slice, pinned to `core`.
pub fn measure(
    p: &Planned,
    batch: &Batch,
    [a, b]: [&mut Build; 2],
    budget: Budget,
    core: Option<usize>,
) -> Result<Measured, Error> {
    let slice = budget.base / SLICES;
    let mut pairing: Option<Pairing> = None;
    // Which pair of processes is measuring, whether it has just started,
    // and whether starting them again is cheap enough.
    let (mut process, mut fresh, mut restart) = (0, false, true);
    for slices in 1.. {
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
        if pairing.take(&mut sa, &mut sb, slice * slices, process)? == Stop::Done {
            break;
        }
        fresh = restart;
        if restart {
            let started = Instant::now();
            for build in [&mut *a, &mut *b] {
                build.restart(p, &batch.lines)?;
            }
            process += 1;
            restart = started.elapsed() < slice / 4;
        }
    }
    Ok(pairing.expect("the first slice makes the pairing").finish())
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
        child.request::<Answers>(&Request::Load {
            workload: p.workload.clone(),
            variant: p.variant.clone(),
            inputs: lines.to_vec(),
        })?;
        Ok(())
    }
}

/// The spread of the change between the pairs of processes, beyond what
/// their own pairs' spread explains (a random-effects variance), as a
/// log-ratio's σ; 0 when there is none or fewer than two slices hold
/// [`super::stats::MIN_PAIRS`] pairs. `kept` are the pairs judged.
pub fn between(measured: &Measured, kept: &[usize]) -> (f64, usize) {
    let mut slices: Vec<Vec<f64>> = Vec::new();
    for &i in kept {
        let instance = measured.instances[i];
        if slices.len() <= instance {
            slices.resize(instance + 1, Vec::new());
        }
        let (x, y) = measured.pairs[i];
        slices[instance].push((y / x).ln());
    }
    // Each slice's median and its squared standard error (1.2533 σ ÷ √n
    // for a median, σ from the median absolute deviation).
    let summaries: Vec<(f64, f64)> = slices
        .iter()
        .filter(|d| d.len() >= super::stats::MIN_PAIRS)
        .filter_map(|d| {
            let s = crate::stats::summarize(d)?;
            let se = 1.2533 * 1.4826 * s.mad / (d.len() as f64).sqrt();
            Some((s.median, se * se))
        })
        .collect();
    let k = summaries.len();
    if k < 2 {
        return (0.0, k);
    }
    let mean = summaries.iter().map(|s| s.0).sum::<f64>() / k as f64;
    let var = summaries.iter().map(|s| (s.0 - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let within = summaries.iter().map(|s| s.1).sum::<f64>() / k as f64;
    ((var - within).max(0.0).sqrt(), k)
}

/// `interval` (of a ratio, about `ratio`) widened by a spread `tau` of
/// the change between `k` pairs of processes: 1.96 standard errors of
/// the mean of `k` slices, added in quadrature to each side's width.
/// (Student's t for `k − 1` degrees of freedom would be the textbook
/// choice, but with two pairs of processes it is 12.7, and one pair that
/// read 0.3 % off made a true +1 % read −1.7 … +3.8 %: the spread widens
/// an interval the sign test has already decided on; it is not the test.)
pub fn widen(ratio: f64, interval: Interval, tau: f64, k: usize) -> Interval {
    if k < 2 || tau == 0.0 {
        return interval;
    }
    let extra = 1.96 * tau / (k as f64).sqrt();
    let centre = ratio.ln();
    let side = |edge: f64| ((centre - edge.ln()).powi(2) + extra * extra).sqrt();
    Interval {
        low: (centre - side(interval.low)).exp(),
        high: (centre + side(interval.high)).exp(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn measured(slices: &[f64], per: usize) -> Measured {
        let mut m = Measured {
            pairs: Vec::new(),
            windows: Vec::new(),
            instances: Vec::new(),
            set_aside: 0,
            probe: "rusage",
            elapsed: Duration::from_secs(2),
            needed: 10,
        };
        for (instance, shift) in slices.iter().enumerate() {
            for j in 0..per {
                let noise = 0.002 * ((j * 37 % per) as f64 / per as f64 - 0.5);
                m.pairs.push((100.0, 100.0 * (shift + noise).exp()));
                m.windows.push(0);
                m.instances.push(instance);
            }
        }
        m
    }

    #[test]
    fn processes_that_disagree_widen_the_interval_and_agreeing_ones_do_not() {
        let agree = measured(&[0.01; 4], 100);
        let all: Vec<usize> = (0..400).collect();
        assert_eq!(between(&agree, &all), (0.0, 4));
        let disagree = measured(&[0.0, 0.02, 0.0, 0.02], 100);
        let (tau, k) = between(&disagree, &all);
        assert!((tau - 0.0115).abs() < 0.001, "{tau}");
        let narrow = Interval {
            low: 1.009,
            high: 1.011,
        };
        let wide = widen(1.01, narrow, tau, k);
        assert!(wide.low < 1.0 && wide.high > 1.02, "{wide:?}");
        assert_eq!(widen(1.01, narrow, 0.0, k), narrow);
        // One slice only: nothing to compare.
        assert_eq!(between(&measured(&[0.01], 100), &all[..100]).1, 1);
    }
}
