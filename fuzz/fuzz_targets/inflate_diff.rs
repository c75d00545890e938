#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| idx::fuzzing::inflate_diff_target(data));
