//! Where a change happened: callgrind profiles read, compared function by
//! function, and drawn as flame graphs.
//!
//! A results record says *whether* a counted kernel changed; the profile
//! `count` keeps beside it says *where*. [`Profile`] reads callgrind's
//! output format with a small reader of our own: the format is a few line
//! kinds, and we need per-line costs and call edges, which no maintained
//! crate offers as a library (gungraun's runner parses profiles for its
//! own summaries only). [`Delta`] ranks functions by the change of their self
//! cost per element, with one "rest" row so the rows add up exactly to the
//! record's total change, and ranks the source lines of one function when
//! that function holds the change. [`flamegraph_svg`] and
//! [`differential_svgs`] draw the profiles with `inferno`, and [`store()`]
//! keeps a profile beside its results file, compressed when large.
//!
//! A function is its demangled name with Rust's `::h…` hash and callgrind's
//! recursion suffix (`walk'2`) removed, so every recursion level is one
//! function; its calls into itself are then left out of its inclusive cost
//! and out of its call edges, so recursion is not counted twice. Callgrind
//! keeps caller→callee edges, not whole stacks, so flame-graph stacks are
//! rebuilt by walking down from a root and splitting each function's
//! inclusive cost over its calls in proportion; a function already on the
//! stack is not entered again, so recursion shows as one frame. Mutual
//! recursion (`a` calls `b` calls `a`) still counts nested calls more than
//! once in inclusive costs, as `callgrind_annotate` does; self costs, and so
//! the table's sums and the flame graphs' widths, are exact.

mod callgrind;
mod delta;
mod flame;
mod measure;
mod store;
mod symbol;
mod table;

pub use callgrind::{FormatError, Function, Profile, ReadError, SourceLine};
pub use delta::{Change, DOMINANT_SHARE, Delta, FunctionRow, LineRow, LineTable, Rest};
pub use flame::{Flame, FlameError, differential_svgs, flamegraph_svg, folded};
pub use measure::{Measure, MetricError};
pub use store::{COMPRESS_ABOVE, store};
