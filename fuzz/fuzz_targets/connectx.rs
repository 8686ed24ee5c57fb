//! Differential target `connectx`: every win detector against the oracle, on
//! positions the adapter decodes from the fuzzer's bytes (see `bitbench::fuzz`).
#![no_main]

use bitbench::builtin::connectx;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| bitbench::fuzz::check(&connectx::WIN, bytes));
