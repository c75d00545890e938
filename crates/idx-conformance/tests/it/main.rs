//! The integration tests of `idx-conformance`, one crate (one binary to
//! link) with a module per subject; helpers shared by several modules live
//! in `support`, those shared with other packages in the `test-support`
//! crate. The synthetic adapters the tests run are in `tests/adapters`.

mod support;

mod corpus;
mod corpus_check;
mod datasets;
mod differential;
mod errors;
mod matrix;
mod page;
mod runner;
mod strict_expected;
