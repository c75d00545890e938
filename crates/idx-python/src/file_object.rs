//! `load` from a seekable file object: the plan, and the in-place byte swap
//! after `readinto`.

use crate::args::order_arg;
use crate::arrays::{idx_type, numpy_holds, unsupported};
use crate::errors::LoadError;
use crate::load::{empty_array, load_threads};
use idx::ElementType;
use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// How `load` reads a seekable binary file object straight into the array:
/// `head` is its first bytes (up to 1,024, the longest IDX header) and
/// `remaining` the bytes from its position to its end. When `head` starts
/// with a valid header (and not with the gzip magic when decompressing),
/// numpy can hold the array and the header and payload make up exactly
/// `remaining` bytes, returns a new array of the header's shape and native
/// element type (contents unspecified: [`empty_array`]) and the header's
/// length; the caller reads the payload into it with `readinto` and then
/// calls [`to_native`]. Anything else (gzip, a bad or truncated header,
/// missing or trailing bytes) is `None`: the caller then loads the whole
/// input through `load_buffer`, which reports it.
#[pyfunction]
#[pyo3(signature = (head, remaining, decompress, assume_byte_order=None))]
pub(crate) fn stream_plan<'py>(
    py: Python<'py>,
    head: PyReadonlyArray1<'_, u8>,
    remaining: u64,
    decompress: bool,
    assume_byte_order: Option<&str>,
) -> PyResult<Option<(Bound<'py, PyAny>, usize)>> {
    let head = head
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let opts = idx::ReadOptions::default()
        .with_decompress(decompress)
        .with_byte_order(order_arg(assume_byte_order)?);
    // the library's reader decides: gzip, or a header it refuses, is read
    // whole by the caller (and reported)
    let Ok(r) = idx::Reader::new(head, &opts) else {
        return Ok(None);
    };
    if r.is_gzip() {
        return Ok(None);
    }
    let h = r.header().clone();
    let dims: Vec<usize> = h.dims().iter().map(|&d| d as usize).collect();
    let whole = (h.header_len() as u64).checked_add(h.payload_len());
    if whole != Some(remaining) || !numpy_holds(&dims, h.dtype()) {
        return Ok(None);
    }
    fn new<'py, T: numpy::Element>(py: Python<'py>, dims: &[usize]) -> PyResult<Bound<'py, PyAny>> {
        empty_array::<T>(py, dims).map(Bound::into_any)
    }
    let a = match h.dtype() {
        ElementType::U8 => new::<u8>(py, &dims),
        ElementType::I8 => new::<i8>(py, &dims),
        ElementType::I16 => new::<i16>(py, &dims),
        ElementType::I32 => new::<i32>(py, &dims),
        ElementType::F32 => new::<f32>(py, &dims),
        ElementType::F64 => new::<f64>(py, &dims),
    }?;
    Ok(Some((a, h.header_len())))
}

/// Converts the elements of an array [`stream_plan`] made, holding the
/// payload's bytes as read (`header_len` bytes after the file object's
/// position), to native byte order in place and applies the byte-order
/// verdict, by the library ([`idx::Reader::decode_in_place`], in parallel
/// parts, with the GIL released): a payload refused there raises as from
/// any other source.
#[pyfunction]
#[pyo3(signature = (array, assume_byte_order=None))]
pub(crate) fn to_native(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    assume_byte_order: Option<&str>,
) -> PyResult<()> {
    let opts = idx::ReadOptions::default().with_byte_order(order_arg(assume_byte_order)?);
    fn decode<T: numpy::Element + bytemuck::Pod>(
        py: Python<'_>,
        array: &Bound<'_, PyUntypedArray>,
        t: ElementType,
        opts: &idx::ReadOptions,
    ) -> PyResult<()> {
        let a = array.cast::<PyArrayDyn<T>>()?;
        let dims: Option<Vec<u32>> = a.shape().iter().map(|&d| u32::try_from(d).ok()).collect();
        let h = dims
            .and_then(|d| idx::Header::new(t, d))
            .ok_or_else(|| PyValueError::new_err("not an array stream_plan made"))?;
        let mut rw = a.try_readwrite()?;
        let elems = rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.detach(|| {
            idx::Reader::decode_in_place(&h, bytemuck::cast_slice_mut(elems), opts, load_threads())
        })
        .map_err(|e| LoadError::from(e).into_py(py, None))
    }
    match idx_type(array) {
        Some(ElementType::U8) => decode::<u8>(py, array, ElementType::U8, &opts),
        Some(ElementType::I8) => decode::<i8>(py, array, ElementType::I8, &opts),
        Some(ElementType::I16) => decode::<i16>(py, array, ElementType::I16, &opts),
        Some(ElementType::I32) => decode::<i32>(py, array, ElementType::I32, &opts),
        Some(ElementType::F32) => decode::<f32>(py, array, ElementType::F32, &opts),
        Some(ElementType::F64) => decode::<f64>(py, array, ElementType::F64, &opts),
        None => Err(unsupported(array)),
    }
}
