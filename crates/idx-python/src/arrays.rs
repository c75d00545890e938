//! numpy arrays and IDX element types: the running numpy's limits, dtypes,
//! and owned arrays handed to numpy.

use crate::errors::{IdxError, UnsupportedDtypeError};
use idx::{Array, Data, ElementType};
use numpy::ndarray::IxDyn;
use numpy::{PyArray, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::OnceLock;

/// The running numpy's limits, found once when the module is imported
/// ([`numpy_limits`]).
pub(crate) struct NumpyLimits {
    /// The most dimensions an array may have (`NPY_MAXDIMS`: 32 in numpy 1,
    /// 64 in numpy 2); IDX allows 255.
    pub(crate) max_rank: usize,
    /// `numpy.__version__`, for messages.
    version: String,
}

static NUMPY_LIMITS: OnceLock<NumpyLimits> = OnceLock::new();

/// Asks the running numpy for its limits. numpy 2 keeps its rank limit in
/// a private module (`numpy._core.multiarray.MAXDIMS`), so the limit is
/// what numpy does: the largest rank `numpy.empty` makes an array of (a
/// binary search over IDX's ranks, eight calls with one element each).
pub(crate) fn numpy_limits(py: Python<'_>) -> PyResult<&'static NumpyLimits> {
    if let Some(l) = NUMPY_LIMITS.get() {
        return Ok(l);
    }
    let np = py.import("numpy")?;
    let empty = np.getattr("empty")?;
    let fits = |rank: usize| -> PyResult<bool> {
        match empty.call1((PyTuple::new(py, vec![1usize; rank])?,)) {
            Ok(_) => Ok(true),
            // "maximum supported dimension for an ndarray is currently 64"
            Err(e) if e.is_instance_of::<PyValueError>(py) => Ok(false),
            Err(e) => Err(e),
        }
    };
    // numpy makes arrays of rank 1 and no IDX file has rank 256
    let (mut fits_rank, mut too_many) = (1usize, usize::from(u8::MAX) + 1);
    while too_many - fits_rank > 1 {
        let mid = fits_rank + (too_many - fits_rank) / 2;
        if fits(mid)? {
            fits_rank = mid;
        } else {
            too_many = mid;
        }
    }
    let version = np.getattr("__version__")?.extract::<String>()?;
    Ok(NUMPY_LIMITS.get_or_init(|| NumpyLimits {
        max_rank: fits_rank,
        version,
    }))
}

/// The running numpy's rank limit (found when the module is imported, before
/// any function can be called; numpy 1's limit until then).
pub(crate) fn numpy_max_rank() -> usize {
    NUMPY_LIMITS.get().map_or(32, |l| l.max_rank)
}

/// Whether numpy can make an array of this shape: at most numpy's rank
/// limit, and the product of the non-zero dimensions (numpy ignores none
/// of them) times the element size within `isize`.
pub(crate) fn numpy_holds(dims: &[usize], dtype: ElementType) -> bool {
    dims.len() <= numpy_max_rank()
        && dims
            .iter()
            .filter(|&&d| d != 0)
            .try_fold(dtype.size(), |a, &d| a.checked_mul(d))
            .is_some_and(|n| isize::try_from(n).is_ok())
}

pub(crate) fn numpy_error(dims: &[usize]) -> PyErr {
    let why = if dims.len() > numpy_max_rank() {
        let version = NUMPY_LIMITS.get().map_or("", |l| l.version.as_str());
        format!(
            "numpy arrays hold at most {} dimensions (numpy {version})",
            numpy_max_rank()
        )
    } else {
        "numpy cannot make an array of that shape (the product of its non-zero \
         dimensions is too large)"
            .to_string()
    };
    IdxError::new_err(format!(
        "the data is valid IDX of rank {} but {why}: validate() it, or read it \
         with the idx command (idx dump)",
        dims.len()
    ))
}

/// A numpy array of shape `dims` owning `v` (no copy). A one-dimensional
/// array reshaped: the numpy crate's constructors of other shapes assume
/// numpy 1's 32 dimensions at most.
fn owned_array<'py, T: numpy::Element>(
    py: Python<'py>,
    dims: &[usize],
    v: Vec<T>,
) -> PyResult<Bound<'py, PyAny>> {
    let flat = PyArray::from_vec(py, v);
    if dims.len() == 1 {
        return Ok(flat.into_any());
    }
    Ok(flat.reshape(IxDyn(dims))?.into_any())
}

static DTYPE: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();

/// The byte order of the machine (numpy's `=`).
pub(crate) const NATIVE: idx::ByteOrder = if cfg!(target_endian = "little") {
    idx::ByteOrder::Little
} else {
    idx::ByteOrder::Big
};

/// The numpy dtype of an element type stored in `order`, from the library's
/// one table ([`ElementType::numpy_dtype`]).
pub(crate) fn numpy_dtype(
    py: Python<'_>,
    t: ElementType,
    order: idx::ByteOrder,
) -> PyResult<Bound<'_, PyAny>> {
    crate::source::cached(py, &DTYPE, "numpy", "dtype")?.call1((t.numpy_dtype(order),))
}

/// `_native.NUMPY_DTYPES`: each IDX element type's name (`u8`, ..., `f64`,
/// in type-code order) and its numpy type string as IDX stores it
/// (`|u1`, `>i2`, ...: [`ElementType::numpy_dtype`]), the table the
/// Python layer builds its dtypes from.
pub(crate) fn numpy_dtypes(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    let out = pyo3::types::PyDict::new(py);
    for t in ElementType::ALL {
        out.set_item(t.name(), t.numpy_dtype(idx::ByteOrder::Big))?;
    }
    Ok(out)
}

/// Moves an owned array into numpy without copying the elements.
pub(crate) fn to_numpy(py: Python<'_>, a: Array) -> PyResult<Py<PyAny>> {
    if !numpy_holds(a.dims(), a.dtype()) {
        return Err(numpy_error(a.dims()));
    }
    let (dims, data) = a.into_parts();
    fn arr<T: numpy::Element>(py: Python<'_>, dims: &[usize], v: Vec<T>) -> PyResult<Py<PyAny>> {
        owned_array(py, dims, v).map(Bound::unbind)
    }
    match data {
        Data::U8(v) => arr(py, &dims, v),
        Data::I8(v) => arr(py, &dims, v),
        Data::I16(v) => arr(py, &dims, v),
        Data::I32(v) => arr(py, &dims, v),
        Data::F32(v) => arr(py, &dims, v),
        Data::F64(v) => arr(py, &dims, v),
    }
}

/// IDX's element types by their numpy names (IDX's own short names, `u8`
/// and `i8` above all, mean other types in numpy).
const IDX_NUMPY_TYPES: &str = "uint8, int8, int16, int32, float32, float64";

/// Why a dtype cannot be stored, and what to cast to.
pub(crate) fn unsupported(array: &Bound<'_, PyUntypedArray>) -> PyErr {
    let d = array.dtype();
    let name = d.str().map(|s| s.to_string()).unwrap_or_default();
    let advice = match (d.kind(), d.itemsize()) {
        (b'b', _) => "cast to uint8: array.astype(numpy.uint8)",
        (b'u', 2) => "cast to int32, which holds every uint16 value: array.astype(numpy.int32)",
        (b'u', _) | (b'i', _) => {
            "cast to int32 if the values fit in 32 bits (array.astype(numpy.int32)), or to float64"
        }
        (b'f', 2) => {
            "cast to float32, which holds every float16 value: array.astype(numpy.float32)"
        }
        (b'f', _) => "cast to float64 (array.astype(numpy.float64)), which rounds wider floats",
        (b'c', _) => {
            "IDX has no complex type: save the real and imaginary parts as two float arrays"
        }
        _ => "IDX holds numbers only",
    };
    UnsupportedDtypeError::new_err(format!(
        "dtype {name} cannot be stored in IDX (it holds {IDX_NUMPY_TYPES}): {advice}"
    ))
}

/// The element type of a numpy dtype of any byte order.
pub(crate) fn idx_type(array: &Bound<'_, PyUntypedArray>) -> Option<ElementType> {
    let d = array.dtype();
    match (d.kind(), d.itemsize()) {
        (b'u', 1) => Some(ElementType::U8),
        (b'i', 1) => Some(ElementType::I8),
        (b'i', 2) => Some(ElementType::I16),
        (b'i', 4) => Some(ElementType::I32),
        (b'f', 4) => Some(ElementType::F32),
        (b'f', 8) => Some(ElementType::F64),
        _ => None,
    }
}
