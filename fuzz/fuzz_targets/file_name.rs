#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| idx::fuzzing::file_name_target(data));
