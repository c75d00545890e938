//! `load(mmap=True)`: a read-only view with the file's big-endian dtype over
//! the memory-mapped payload (Python's `mmap`), after the library parsed
//! the whole mapping strictly and judged its byte order (the IDX501
//! finding validation gives, issued as `idxkit.ByteOrderWarning`, or the
//! refusal when `severity=` makes it an error).

use crate::arrays::{numpy_error, numpy_holds};
use crate::errors::{invalid_file_error, warn_findings, IdxError};
use crate::source::{self, cached as python, frombuffer};
use idx::{ElementType, Rule};
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple};

static FSPATH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static OPEN: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static FSTAT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static MMAP: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static ACCESS_READ: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Maps a path, or a file object with a file descriptor (`fileno`), and
/// views its payload.
pub(crate) fn load_mapped(
    source: &Bound<'_, PyAny>,
    opts: &idx::ReadOptions,
) -> PyResult<Py<PyAny>> {
    let py = source.py();
    if source::is_path(source)? {
        let path = python(py, &FSPATH, "os", "fspath")?.call1((source,))?;
        let f = python(py, &OPEN, "builtins", "open")?.call1((path, "rb"))?;
        let mapped = map(&f, opts);
        let closed = f.call_method0("close");
        let mapped = mapped?;
        closed?;
        return Ok(mapped);
    }
    if source.hasattr("fileno")? {
        return map(source, opts);
    }
    Err(PyTypeError::new_err(
        "mmap=True needs a path or a file object with a file descriptor",
    ))
}

fn map(f: &Bound<'_, PyAny>, opts: &idx::ReadOptions) -> PyResult<Py<PyAny>> {
    let py = f.py();
    let size: u64 = python(py, &FSTAT, "os", "fstat")?
        .call1((f.call_method0("fileno")?,))?
        .getattr("st_size")?
        .extract()?;
    if size == 0 {
        // Nothing to map: the library reports the empty file (IDX103).
        let empty = source::u8_array(&pyo3::types::PyBytes::new(py, b"").into_any())?;
        return crate::decode::load_buffer(py, empty.extract()?, opts);
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("access", python(py, &ACCESS_READ, "mmap", "ACCESS_READ")?)?;
    let mapped =
        python(py, &MMAP, "mmap", "mmap")?.call((f.call_method0("fileno")?, 0), Some(&kwargs))?;
    let uint8 = numpy::dtype::<u8>(py);
    let whole: PyReadonlyArray1<'_, u8> = frombuffer(py)?.call1((&mapped, uint8))?.extract()?;
    let stated = opts.validate.byte_order;
    let bytes = whole
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let parsed = py.detach(|| {
        idx::parse(bytes).map(|v| {
            let warnings = byte_order_findings(bytes, v.dtype(), opts);
            (
                v.dtype(),
                v.dims().to_vec(),
                v.header().header_len(),
                warnings,
            )
        })
    });
    let (dtype, dims, header_len, warnings) = match parsed {
        Ok(p) => p,
        // the library recognises gzip (IDX402, at the magic)
        Err(e) if opts.validate.decompress && e.rule() == Rule::GzipCompressed => {
            return Err(IdxError::new_err(
                "mmap=True needs an uncompressed file and this one is gzip: \
                 load it without mmap, or decompress it first",
            ))
        }
        // with severity overrides, validation's first error (the
        // byte-order finding made an error, at the payload's start, comes
        // before a truncation), as every other path refuses the file
        Err(e) if !opts.validate.severity.is_empty() => {
            let checks = opts.validate.clone().with_lints(false);
            let report = py.detach(|| idx::validate_with(bytes, &checks));
            let first = report
                .findings
                .into_iter()
                .find(|f| f.severity() == idx::Severity::Error)
                .unwrap_or_else(|| e.into_finding());
            return Err(invalid_file_error(py, &[first]));
        }
        Err(e) => return Err(invalid_file_error(py, &[e.into_finding()])),
    };
    if let Some(refused) = warnings
        .iter()
        .find(|f| f.severity() == idx::Severity::Error)
    {
        return Err(invalid_file_error(py, std::slice::from_ref(refused)));
    }
    let shape: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
    if !numpy_holds(&shape, dtype) {
        return Err(numpy_error(&shape));
    }
    let count: usize = if shape.contains(&0) {
        0
    } else {
        shape.iter().product()
    };
    // as stored: little-endian when the caller says so, else as IDX says
    let order = stated.unwrap_or(idx::ByteOrder::Big);
    let stored = crate::arrays::numpy_dtype(py, dtype, order)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", stored)?;
    kwargs.set_item("count", count)?;
    kwargs.set_item("offset", header_len)?;
    let flat = frombuffer(py)?.call((&mapped,), Some(&kwargs))?;
    let out = flat.call_method1("reshape", (PyTuple::new(py, &shape)?,))?;
    warn_findings(py, &warnings)?;
    Ok(out.unbind())
}

/// The byte-order finding (IDX501) of a mapped, valid IDX file `bytes`
/// whose elements are `dtype`, exactly as validation gives it for `opts`
/// (the stated byte order, the severity overrides): the payload stays in
/// the mapping, in its stored order, and the test reads only what it
/// scores. Empty for one-byte types and when the test has nothing to say.
fn byte_order_findings(
    bytes: &[u8],
    dtype: ElementType,
    opts: &idx::ReadOptions,
) -> Vec<idx::Finding> {
    if dtype.size() == 1 || opts.validate.byte_order == Some(idx::ByteOrder::Big) {
        return Vec::new();
    }
    idx::validate_with(bytes, &opts.validate.clone().with_lints(false))
        .findings
        .into_iter()
        .filter(|f| f.rule == Rule::LikelyLittleEndian)
        .collect()
}
