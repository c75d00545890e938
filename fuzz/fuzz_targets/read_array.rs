#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| idx::fuzzing::read_array_target(data));
