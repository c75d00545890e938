//! Helpers shared by several of `idx-validate`'s test modules: the built
//! binary run to an [`Out`].

use std::path::Path;
use test_support::{Cmd, Out};

/// The built `idx-validate` binary.
pub const IDX_VALIDATE: &str = env!("CARGO_BIN_EXE_idx-validate");

/// The binary from the repository root.
pub fn run(args: &[&str]) -> Out {
    run_stdin(args, None)
}

/// The binary from the repository root, `input` fed to it when given.
pub fn run_stdin(args: &[&str], input: Option<&[u8]>) -> Out {
    Cmd::new(IDX_VALIDATE).args(args).stdin(input).out()
}

/// The binary in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Out {
    Cmd::new(IDX_VALIDATE).args(args).dir(dir).out()
}
