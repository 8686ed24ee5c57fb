//! Differential target `cephalopod`: every variant against the oracle, on a
//! problem the adapter decodes from the fuzzer's bytes (see `bitbench::fuzz`).
#![no_main]

use bitbench::builtin::cephalopod;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| bitbench::fuzz::check(&cephalopod::CEPHALOPOD, bytes));
