//! Differential target `components`: every variant of `components` and of
//! `components-groups4` against its oracle, on batches of boards the adapter
//! decodes from the fuzzer's bytes (see `bitbench::fuzz`).
#![no_main]

use bitbench::builtin::components;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    bitbench::fuzz::check(&components::ALL, bytes);
    bitbench::fuzz::check(&components::GROUPS4, bytes);
});
