#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| idxc::fuzzing::c_abi(data));
