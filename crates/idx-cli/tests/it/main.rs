//! The integration tests of `idx-cli`, one crate (one binary to link) with a
//! module per subject; helpers shared with other packages live in the
//! `test-support` crate. insta keeps the snapshots in `snapshots/`, named
//! `it__<module>__<name>`.

mod support;

mod cli;
mod convert;
mod level;
mod round_trip;
mod run;
mod verdict;
