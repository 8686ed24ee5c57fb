//! Differential target `components`: every variant against the oracle on a valid
//! input decoded from the fuzzer's bytes (see `bitbench_fuzz::components`).
#![no_main]

libfuzzer_sys::fuzz_target!(|case: bitbench_fuzz::components::Case| case.check());
