//! What `idx-cli`'s test modules share.

/// The built `idx` binary.
pub const IDX: &str = env!("CARGO_BIN_EXE_idx");
