//! The integration tests of `idx`, one crate (one binary to link) with a
//! module per subject; helpers shared by several modules live in `support`,
//! those shared with other packages in the `test-support` crate. The counting
//! allocator's test stays its own binary (`tests/read_alloc.rs`): a global
//! allocator counts every thread's allocations, so it must not share a
//! process with other tests.

mod support;

mod array;
mod byteorder;
mod dataset;
mod finding_texts;
mod fix;
mod formats;
mod fuzz_replay;
mod label_scan;
mod lints;
mod messages;
mod props;
mod read_at;
mod read_into;
mod reader;
mod rules;
mod size;
mod spec;
mod structure;
mod views;
mod write;
