//! `idxkit._native`: the native module of the `idxkit` Python package.
//!
//! Only conversions between Python objects and the `idx` library: every
//! verdict, finding and check comes from `idx` (parse, read, write,
//! validate), `idx-validate` (checking a file and rendering it as the CLI
//! does) and `idx-conformance` (the corpus and the runner's judgement).
//! Parsing, decoding, encoding and validation run with the GIL released.
//! The Python layer (`python/idxkit/__init__.py`) only normalises arguments:
//! each function takes the caller's `source` and decides here, by its kind
//! (path, bytes-like, file object: `source.rs`), how it is read.

mod args;
mod arrays;
mod cli;
mod conformance;
mod datasets;
mod decode;
mod errors;
mod file_object;
mod finding;
mod fix;
mod load;
mod mapped;
mod save;
mod source;
mod validate;

use arrays::numpy_limits;
use cli::{run_idx, run_idx_validate};
use conformance::{check_reader, check_writer, CaseResult, ConformanceReport};
use decode::load_file_at;
use errors::{ByteOrderWarning, DatasetError, IdxError, InvalidFileError, UnsupportedDtypeError};
use finding::Finding;
use fix::{AppliedFix, FixReport};
use pyo3::prelude::*;
use validate::Report;

#[pymodule]
#[pyo3(name = "_native")]
fn idxkit_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NUMPY_MAX_RANK", numpy_limits(py)?.max_rank)?;
    m.add("NUMPY_DTYPES", arrays::numpy_dtypes(py)?)?;
    m.add("IdxError", py.get_type::<IdxError>())?;
    m.add("InvalidFileError", py.get_type::<InvalidFileError>())?;
    m.add(
        "UnsupportedDtypeError",
        py.get_type::<UnsupportedDtypeError>(),
    )?;
    m.add("DatasetError", py.get_type::<DatasetError>())?;
    m.add("ByteOrderWarning", py.get_type::<ByteOrderWarning>())?;
    m.add_class::<Finding>()?;
    m.add_class::<Report>()?;
    m.add_class::<CaseResult>()?;
    m.add_class::<ConformanceReport>()?;
    m.add_class::<AppliedFix>()?;
    m.add_class::<FixReport>()?;
    m.add_function(wrap_pyfunction!(load::load, m)?)?;
    m.add_function(wrap_pyfunction!(load_file_at, m)?)?;
    m.add_function(wrap_pyfunction!(save::save, m)?)?;
    m.add_function(wrap_pyfunction!(validate::validate, m)?)?;
    m.add_function(wrap_pyfunction!(check_reader, m)?)?;
    m.add_function(wrap_pyfunction!(check_writer, m)?)?;
    m.add_function(wrap_pyfunction!(fix::fix, m)?)?;
    m.add_function(wrap_pyfunction!(datasets::load_pair, m)?)?;
    m.add_function(wrap_pyfunction!(run_idx_validate, m)?)?;
    m.add_function(wrap_pyfunction!(run_idx, m)?)?;
    Ok(())
}
