//! The `idx` companion command: pictures and statistics of IDX data, and the
//! reference reader and writer of the conformance runner (`dump`, `write`).
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod input;
pub mod picture;
pub mod stats;

// The binary's source, compiled into the library too, so that front ends
// other than the binary (the Python package's console script) run exactly
// the same command. `extern crate self` lets it name this crate as the
// binary does.
extern crate self as idx_cli;
#[allow(clippy::print_stdout, clippy::print_stderr)]
mod commands;

pub use idx_io::ExitStatus;

/// Runs the command on `args` (the first is the program name, as in
/// `std::env::args_os`): what the binary does, for every caller (the
/// binary's `main`, the Python package's console script, tests).
pub fn run<I, T>(args: I) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    commands::run_command(args)
}
