//! `load` from a seekable file object: the plan, and the in-place byte swap
//! after `readinto`.

use crate::arrays::{idx_type, numpy_holds, unsupported};
use crate::load::{empty_array, load_threads};
use idx::ElementType;
use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArray};
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
pub(crate) fn stream_plan<'py>(
    py: Python<'py>,
    head: PyReadonlyArray1<'_, u8>,
    remaining: u64,
    decompress: bool,
) -> PyResult<Option<(Bound<'py, PyAny>, usize)>> {
    let head = head
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if decompress && idx::is_gzip(head) {
        return Ok(None);
    }
    let Ok(h) = idx::read_header(&mut &head[..]) else {
        return Ok(None);
    };
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
/// payload's big-endian bytes as read, to native byte order in place: in
/// parallel parts of at least [`idx::MIN_BYTES_PER_THREAD`] (as
/// [`idx::read_array_at`] splits), with the GIL released.
#[pyfunction]
pub(crate) fn to_native(py: Python<'_>, array: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    fn swap<T: numpy::Element + bytemuck::Pod>(
        py: Python<'_>,
        array: &Bound<'_, PyUntypedArray>,
        t: ElementType,
    ) -> PyResult<()> {
        let a = array.cast::<PyArrayDyn<T>>()?;
        let mut rw = a.try_readwrite()?;
        let elems = rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.detach(|| swap_parts(bytemuck::cast_slice_mut(elems), t));
        Ok(())
    }
    match idx_type(array) {
        Some(ElementType::U8 | ElementType::I8) => Ok(()),
        Some(ElementType::I16) => swap::<i16>(py, array, ElementType::I16),
        Some(ElementType::I32) => swap::<i32>(py, array, ElementType::I32),
        Some(ElementType::F32) => swap::<f32>(py, array, ElementType::F32),
        Some(ElementType::F64) => swap::<f64>(py, array, ElementType::F64),
        None => Err(unsupported(array)),
    }
}

/// Big-endian elements of `size` bytes to native order in place, in up to
/// [`load_threads`] parts of whole elements (a part whose thread cannot be
/// started is converted by the calling thread).
fn swap_parts(bytes: &mut [u8], t: ElementType) {
    let size = t.size();
    let threads = load_threads().get();
    let parts = threads.min(bytes.len() / idx::MIN_BYTES_PER_THREAD).max(1);
    let per = bytes.len().div_ceil(parts).div_ceil(size) * size;
    if parts == 1 || per == 0 {
        return idx::payload_to_native(bytes, t);
    }
    std::thread::scope(|s| {
        let mut here = Vec::new();
        for (i, part) in bytes.chunks_mut(per).enumerate() {
            if i == 0 {
                here.push(part);
                continue;
            }
            let (tx, rx) = std::sync::mpsc::channel::<&mut [u8]>();
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                if let Ok(p) = rx.recv() {
                    idx::payload_to_native(p, t);
                }
            });
            match spawned {
                Ok(_) => {
                    if let Err(std::sync::mpsc::SendError(part)) = tx.send(part) {
                        here.push(part);
                    }
                }
                Err(_) => here.push(part),
            }
        }
        for part in here {
            idx::payload_to_native(part, t);
        }
    });
}
