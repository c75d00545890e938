#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| idx::fuzzing::parse_target(data));
