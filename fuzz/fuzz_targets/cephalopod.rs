//! Differential target `cephalopod`: every variant against the oracle on a valid
//! input decoded from the fuzzer's bytes (see `bitbench_fuzz::cephalopod`).
#![no_main]

libfuzzer_sys::fuzz_target!(|case: bitbench_fuzz::cephalopod::Case| case.check());
