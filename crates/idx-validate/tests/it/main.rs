//! The integration tests of `idx-validate`, one crate (one binary to link)
//! with a module per subject; helpers shared by several modules live in
//! `support`, those shared with other packages in the `test-support` crate.
//! insta keeps the snapshots in `snapshots/`, named `it__<module>__<name>`.

mod support;

mod cli;
mod config;
mod dataset;
mod endless;
mod fix;
mod formats;
mod names;
mod polish;
mod readme;
mod rule_pages;
mod run;
mod snapshots;
mod verdict;
mod walk;
