//! The `idx` companion command: pictures and statistics of IDX data, and the
//! reference reader and writer of the conformance runner (`dump`, `write`).
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod dump;
pub mod input;
pub mod picture;
pub mod stats;
