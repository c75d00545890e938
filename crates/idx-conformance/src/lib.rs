//! The IDX conformance suite: the corpus recipes, the generator and checker
//! of `corpus/`, and a runner for third-party readers and writers.
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod cases;
/// The content encoding (the `idx-content` crate).
pub use idx_content as content;
pub mod corpus;
pub mod datasets;
pub mod differential;
pub mod json;
/// The bitmap font of the matrix PNG (the `idx-text` crate's, shared with `idx show`'s histograms).
pub use idx_text::font;
pub mod matrix;
pub mod page;
pub mod picture;
pub mod process;
pub mod reports;
pub mod runner;

/// The corpus folder of this repository.
pub fn default_corpus() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// The adapters folder of this crate.
pub fn adapters_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters")
}
