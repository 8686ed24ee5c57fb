//! Differential target `meteor`: every variant against the oracle on a valid
//! input decoded from the fuzzer's bytes (see `bitbench_fuzz::meteor`).
#![no_main]

libfuzzer_sys::fuzz_target!(|case: bitbench_fuzz::meteor::Case| case.check());
