#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| idx::fuzzing::roundtrip_bytes_target(data));
