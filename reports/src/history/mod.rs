//! History: runs kept across commits, drawn as trends, searched for steps.
//!
//! One comparison of two files forgets; a regression often only shows in
//! a series. This module keeps runs in a plain-directory [`store`], keyed
//! by commit and machine, so later commands can line them up in commit
//! order, never mixing machines.

pub mod steps;
pub mod store;

pub use store::{Added, HistoryError, Store, StoredRun, admit, machine_id};
