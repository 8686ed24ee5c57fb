//! Differential target `meteor`: every solver against the oracle, on a puzzle
//! the adapter decodes from the fuzzer's bytes (see `bitbench::fuzz`).
#![no_main]

use bitbench::builtin::meteor;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| bitbench::fuzz::check(&meteor::METEOR, bytes));
