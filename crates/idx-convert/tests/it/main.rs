//! The integration tests of `idx-convert`, one crate (one binary to link)
//! with a module per subject; helpers shared with other packages live in the
//! `test-support` crate.

mod convert;
