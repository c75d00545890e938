//! The `idx-validate` and `idx` console scripts.

use pyo3::prelude::*;
use std::ffi::OsString;

/// The `idx-validate` command (console script), GIL released.
#[pyfunction]
pub(crate) fn run_idx_validate(py: Python<'_>, argv: Vec<OsString>) -> i32 {
    py.detach(|| idx_validate::run(argv).into())
}

/// The `idx` command (console script), GIL released.
#[pyfunction]
pub(crate) fn run_idx(py: Python<'_>, argv: Vec<OsString>) -> i32 {
    py.detach(|| idx_cli::run(argv).into())
}
