//! The engines: the work itself, run in process on one workload, generic
//! over its [`Workload`](crate::Workload).
//!
//! [`verify`] runs a variant and its reference, `checked` compares their
//! answers before timing, [`check`] is the differential check,
//! [`minimise`] shrinks what either finds and `wrong_answer.rs` tells it
//! in a few KB, [`bench`] times each variant on each set, [`batch`]
//! prepares one batch for `cargo bench`, [`solve`] answers given inputs
//! and [`serve`] answers `ab`'s requests.
//! Each announces the batches of user code it runs on the beacon of
//! [`crate::fault`], and none knows the type-erased workload above it
//! ([`crate::dyn_workload`]), the runner that isolates it
//! ([`crate::isolated`]) or the commands.

pub mod batch;
pub mod bench;
pub mod check;
mod checked;
pub(crate) mod minimise;
pub mod serve;
pub mod solve;
pub mod verify;
mod wrong_answer;

#[cfg(test)]
mod preparation_tests;
#[cfg(test)]
mod wrong_answer_tests;
