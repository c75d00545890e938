//! The kinds of `source` every function takes: a path (`str` or
//! `os.PathLike`), a bytes-like object or a binary file object, and the
//! bytes of the last two.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

/// A Python object found once (`module.name`): `cell` holds it.
pub(crate) fn cached<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    module: &str,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    cell.get_or_try_init(py, || py.import(module)?.getattr(name).map(Bound::unbind))
        .map(|o| o.bind(py).clone())
}

/// `numpy.frombuffer`.
pub(crate) fn frombuffer(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    static F: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &F, "numpy", "frombuffer")
}

/// Whether `source` is a path: a `str` or an `os.PathLike` (not bytes,
/// which are data).
pub(crate) fn is_path(source: &Bound<'_, PyAny>) -> PyResult<bool> {
    static PATH_LIKE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    if source.is_instance_of::<PyString>() {
        return Ok(true);
    }
    source.is_instance(&cached(source.py(), &PATH_LIKE, "os", "PathLike")?)
}

/// Whether `source` is a file object (it has `read`).
pub(crate) fn is_file_object(source: &Bound<'_, PyAny>) -> PyResult<bool> {
    source.hasattr("read")
}

/// A read-only uint8 numpy array over any bytes-like object: no copy of an
/// immutable contiguous buffer (`bytes`, a read-only view). A writable one
/// (`bytearray`, a numpy array) is copied first, because the native code
/// reads it with the GIL released and another thread could change it
/// meanwhile.
pub(crate) fn u8_array<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = data.py();
    let uint8 = numpy::dtype::<u8>(py);
    if data.get_type().is(py.get_type::<PyBytes>()) {
        return frombuffer(py)?.call1((data, uint8));
    }
    let mut view = PyMemoryView::from(data)?;
    if !view.getattr("contiguous")?.is_truthy()? || !view.getattr("readonly")?.is_truthy()? {
        view = PyMemoryView::from(&view.call_method0("tobytes")?)?;
    }
    let format: String = view.getattr("format")?.extract()?;
    let ndim: usize = view.getattr("ndim")?.extract()?;
    let flat = if format != "B" || ndim != 1 {
        view.call_method1("cast", ("B",))?
    } else {
        view.into_any()
    };
    frombuffer(py)?.call1((flat, uint8))
}

/// The bytes of a bytes-like object, or of a binary file object read whole
/// from its position (a uint8 array: [`u8_array`]).
pub(crate) fn bytes_of<'py>(source: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if is_file_object(source)? {
        let data = source.call_method0("read")?;
        if !(data.is_instance_of::<PyBytes>()
            || data.is_instance_of::<PyByteArray>()
            || data.is_instance_of::<PyMemoryView>())
        {
            return Err(PyTypeError::new_err(
                "the file object must be opened in binary mode",
            ));
        }
        return u8_array(&data);
    }
    u8_array(source).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(source.py()) {
            let name = source
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            PyTypeError::new_err(format!(
                "source must be a path, a bytes-like object or a binary file, not {name}"
            ))
        } else {
            e
        }
    })
}
