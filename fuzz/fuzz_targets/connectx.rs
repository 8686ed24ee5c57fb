//! Differential target `connectx`: every variant against the oracle on a valid
//! input decoded from the fuzzer's bytes (see `bitbench_fuzz::connectx`).
#![no_main]

libfuzzer_sys::fuzz_target!(|case: bitbench_fuzz::connectx::WinCase| case.check());
