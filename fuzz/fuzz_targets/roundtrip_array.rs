#![no_main]
libfuzzer_sys::fuzz_target!(|array: idx::Array| idx::fuzzing::roundtrip_array_target(&array));
