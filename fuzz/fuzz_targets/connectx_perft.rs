//! Differential target `connectx-perft`: every perft counter against the
//! oracle, on a query the adapter decodes from the fuzzer's bytes (see
//! `bitbench::fuzz`).
#![no_main]

use bitbench::builtin::connectx;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| bitbench::fuzz::check(&connectx::PERFT, bytes));
