//! `save` and `encode`: numpy arrays written as IDX by the library.

use crate::arrays::unsupported;
use crate::errors::{os_error, output_error, IdxError};
use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Borrowed native-endian elements of a numpy array.
enum Slice<'a> {
    U8(&'a [u8]),
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    F32(&'a [f32]),
    F64(&'a [f64]),
}

fn write_slice<W: Write>(w: W, dims: &[usize], s: &Slice<'_>) -> Result<u64, idx::WriteError> {
    match *s {
        Slice::U8(v) => idx::write_slice(w, dims, v),
        Slice::I8(v) => idx::write_slice(w, dims, v),
        Slice::I16(v) => idx::write_slice(w, dims, v),
        Slice::I32(v) => idx::write_slice(w, dims, v),
        Slice::F32(v) => idx::write_slice(w, dims, v),
        Slice::F64(v) => idx::write_slice(w, dims, v),
    }
}

/// Runs `f` on the elements of a C-contiguous, native-endian numpy array
/// (the Python layer makes it so), with the GIL released.
fn with_elements<R: Send>(
    array: &Bound<'_, PyUntypedArray>,
    f: impl FnOnce(&[usize], &Slice<'_>) -> R + Send,
) -> PyResult<R> {
    let py = array.py();
    let dims: Vec<usize> = array.shape().to_vec();
    macro_rules! try_type {
        ($t:ty, $v:ident) => {
            if let Ok(a) = array.cast::<PyArrayDyn<$t>>() {
                let ro = a.readonly();
                let s = Slice::$v(
                    ro.as_slice()
                        .map_err(|e| PyValueError::new_err(e.to_string()))?,
                );
                return Ok(py.detach(|| f(&dims, &s)));
            }
        };
    }
    try_type!(u8, U8);
    try_type!(i8, I8);
    try_type!(i16, I16);
    try_type!(i32, I32);
    try_type!(f32, F32);
    try_type!(f64, F64);
    Err(unsupported(array))
}

/// A write error as a Python exception; `path` is the file written, if any.
fn write_error(py: Python<'_>, e: idx::WriteError, path: Option<&Path>) -> PyErr {
    match e {
        idx::WriteError::Io(e) => os_error(py, &e, path),
        other => IdxError::new_err(other.to_string()),
    }
}

/// Why saving to a path failed.
enum SaveError {
    /// The atomic writer (creating, committing).
    Output(idx_io::OutputError),
    /// Encoding, or writing the encoding.
    Write(idx::WriteError),
}

/// Encodes to `w`, gzip-compressed when asked.
fn encode_to<W: Write>(
    w: W,
    dims: &[usize],
    s: &Slice<'_>,
    compress: bool,
) -> Result<(), idx::WriteError> {
    if compress {
        let mut gz = flate2::write::GzEncoder::new(w, flate2::Compression::default());
        write_slice(&mut gz, dims, s)?;
        gz.finish()?.flush()?;
    } else {
        let mut w = w;
        write_slice(&mut w, dims, s)?;
        w.flush()?;
    }
    Ok(())
}

/// Writes the canonical encoding of `array` to a file.
fn save_path(path: PathBuf, array: &Bound<'_, PyUntypedArray>, compress: bool) -> PyResult<()> {
    // through the one atomic writer: a complete file or none, replacing
    // an existing one as numpy.save does, with the umask's permissions
    let done = with_elements(array, |dims, s| {
        let mut f = idx_io::AtomicFile::create(&path, idx_io::Policy::Overwrite, &[])
            .map_err(SaveError::Output)?;
        encode_to(&mut f, dims, s, compress).map_err(SaveError::Write)?;
        f.commit().map_err(SaveError::Output)
    })?;
    let py = array.py();
    match done {
        Ok(()) => Ok(()),
        Err(SaveError::Output(e)) => Err(output_error(py, &e)),
        Err(SaveError::Write(e)) => Err(write_error(py, e, Some(&path))),
    }
}

/// The canonical encoding of `array`, as bytes.
fn encode(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    compress: bool,
) -> PyResult<Py<PyBytes>> {
    let out = with_elements(array, |dims, s| {
        let mut out = Vec::new();
        encode_to(&mut out, dims, s, compress).map(|()| out)
    })?
    .map_err(|e| write_error(py, e, None))?;
    Ok(PyBytes::new(py, &out).unbind())
}

/// `idxkit.save` of a C-contiguous native-endian array: to a path (`str`,
/// `os.PathLike`) through the atomic writer, to a binary file object (its
/// `write`), or, when `dest` is None, to the bytes returned.
#[pyfunction]
#[pyo3(signature = (dest, array, compress=false))]
pub(crate) fn save(
    dest: &Bound<'_, PyAny>,
    array: &Bound<'_, PyUntypedArray>,
    compress: bool,
) -> PyResult<Option<Py<PyBytes>>> {
    let py = dest.py();
    if dest.is_none() {
        return encode(py, array, compress).map(Some);
    }
    if crate::source::is_path(dest)? {
        save_path(dest.extract()?, array, compress)?;
        return Ok(None);
    }
    if dest.hasattr("write")? {
        dest.call_method1("write", (encode(py, array, compress)?,))?;
        return Ok(None);
    }
    let kind = dest
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    Err(PyTypeError::new_err(format!(
        "dest must be a path, a binary file or None, not {kind}"
    )))
}
