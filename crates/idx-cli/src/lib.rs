//! The `idx` companion command: pictures and statistics of IDX data, and the
//! reference reader and writer of the conformance runner (`dump`, `write`).
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod dump;
pub mod input;
pub mod picture;
pub mod stats;
pub mod write;

// The binary's source, compiled into the library too, so that front ends
// other than the binary (the Python package's console script) run exactly
// the same command. `extern crate self` lets it name this crate as the
// binary does.
extern crate self as idx_cli;
#[allow(dead_code, clippy::print_stdout, clippy::print_stderr)]
#[path = "main.rs"]
mod command;

/// Runs the command on `args` (the first is the program name, as in
/// `std::env::args_os`) and returns its exit status: what the binary does,
/// for callers that are not the binary.
pub fn run(args: Vec<std::ffi::OsString>) -> i32 {
    let code = command::run_command(args);
    // `ExitCode` has no accessor for its value; it compares by value.
    (0..=u8::MAX)
        .find(|&n| std::process::ExitCode::from(n) == code)
        .map_or(1, i32::from)
}
