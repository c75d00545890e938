//! `load` from a binary file object: by the name of the file that `open`
//! returned it for, else straight into the array with `readinto`, else
//! `None` (the caller reads it whole).

use crate::arrays::numpy_holds;
use crate::decode::{empty_array, load_threads};
use crate::errors::{warn_findings, LoadError};
use crate::source::cached as python;
use idx::ElementType;
use pyo3::exceptions::{PyAttributeError, PyOSError, PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyMemoryView, PyModule, PySlice, PyString};

/// The longest IDX header: magic, then 255 dimensions of 4 bytes.
const LONGEST_HEADER: i128 = 4 + 4 * 255;

/// `io.SEEK_END`.
const SEEK_END: i32 = 2;

/// Whether `e` is one of Python's `AttributeError`, `OSError` (which
/// `io.UnsupportedOperation` is) or `ValueError` (a closed file).
fn is_access_error(py: Python<'_>, e: &PyErr) -> bool {
    e.is_instance_of::<PyAttributeError>(py)
        || e.is_instance_of::<PyOSError>(py)
        || e.is_instance_of::<PyValueError>(py)
}

static FILE_IO: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static BUFFERED_READER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static BUFFERED_RANDOM: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static FSTAT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static STAT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static S_ISREG: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static SAMESTAT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static FSDECODE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// What [`opened_by_name`] found: the object's `name`, its position
/// (`tell`) and its descriptor's `os.fstat`.
struct Opened<'py> {
    name: Bound<'py, PyAny>,
    start: Bound<'py, PyAny>,
    seen: Bound<'py, PyAny>,
}

/// The name, position and identity of a binary file object from `open`
/// (`rb`, `r+b`...) over a regular file that its `name` still names:
/// exactly `io.FileIO`, or exactly `io.BufferedReader`/`BufferedRandom`
/// over one (not a subclass, not a buffer over another raw stream), so the
/// file's bytes are the object's. `None` for any other object, or one that
/// cannot say (no name, a closed or write-only file, a name that now names
/// another file).
fn opened_by_name<'py>(f: &Bound<'py, PyAny>) -> PyResult<Option<Opened<'py>>> {
    let py = f.py();
    let kind = f.get_type();
    let file_io = python(py, &FILE_IO, "io", "FileIO")?;
    let exact = if kind.is(&file_io) {
        true
    } else if kind.is(&python(py, &BUFFERED_READER, "io", "BufferedReader")?)
        || kind.is(&python(py, &BUFFERED_RANDOM, "io", "BufferedRandom")?)
    {
        match f.getattr("raw") {
            Ok(raw) => raw.get_type().is(&file_io),
            Err(e) if e.is_instance_of::<PyAttributeError>(py) => false,
            Err(e) => return Err(e),
        }
    } else {
        false
    };
    if !exact {
        return Ok(None);
    }
    let checked = (|| -> PyResult<Option<_>> {
        if !f.call_method0("readable")?.is_truthy()? {
            return Ok(None); // reading it raises, as it always did
        }
        let name = f.getattr("name")?;
        let fd = f.call_method0("fileno")?;
        if !(name.is_instance_of::<PyString>() || name.is_instance_of::<PyBytes>()) {
            return Ok(None);
        }
        let seen = python(py, &FSTAT, "os", "fstat")?.call1((fd,))?;
        let mode = seen.getattr("st_mode")?;
        if !python(py, &S_ISREG, "stat", "S_ISREG")?
            .call1((mode,))?
            .is_truthy()?
        {
            return Ok(None);
        }
        let named = python(py, &STAT, "os", "stat")?.call1((&name,))?;
        if !python(py, &SAMESTAT, "os.path", "samestat")?
            .call1((&seen, named))?
            .is_truthy()?
        {
            return Ok(None);
        }
        // a buffered object's pending writes reach the file on any seek
        let start = f.call_method0("tell")?;
        Ok(Some(Opened { name, start, seen }))
    })();
    match checked {
        Err(e) if is_access_error(py, &e) => Ok(None),
        other => other,
    }
}

/// Loads a binary file object that [`opened_by_name`] accepts from its
/// position on by that name, through the module's `load_file_at` (read at
/// offsets in parallel parts straight into the array, as `load(path)`
/// reads; errors as for the same bytes in memory), and leaves it at the end
/// of the file, as reading it whole leaves it. `None`, with the position
/// unchanged, when the object has no such name, or the file cannot be read
/// by it (replaced since it was checked, not readable by name): the caller
/// reads through the object, which reports a real read error itself.
pub(crate) fn load_by_name(
    module: &Bound<'_, PyModule>,
    f: &Bound<'_, PyAny>,
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
    assume_byte_order: Option<&str>,
    severity: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Py<PyAny>>> {
    let py = f.py();
    let Some(Opened { name, start, seen }) = opened_by_name(f)? else {
        return Ok(None);
    };
    // `load_file_at` checks it opened the same file (device, inode) on
    // POSIX; st_dev can be negative (macOS) and st_ino wider than 64 bits
    // (Windows ReFS), hence the masks and no identity elsewhere.
    let identity = if cfg!(unix) {
        let mask = u64::MAX;
        let dev: u64 = seen.getattr("st_dev")?.bitand(mask)?.extract()?;
        let ino: u64 = seen.getattr("st_ino")?.bitand(mask)?.extract()?;
        Some((dev, ino))
    } else {
        None
    };
    let path = python(py, &FSDECODE, "os", "fsdecode")?.call1((name,))?;
    // through the module's attribute, so that the route taken is the one
    // a caller (a test) sees
    let loaded = module.getattr("load_file_at")?.call1((
        path,
        &start,
        identity,
        decompress,
        max_decompressed,
        assume_byte_order,
        severity,
    ));
    match loaded {
        Ok(out) => {
            f.call_method1("seek", (0, SEEK_END))?;
            Ok(Some(out.unbind()))
        }
        Err(e) if e.is_instance_of::<PyOSError>(py) || e.is_instance_of::<PyOverflowError>(py) => {
            f.call_method1("seek", (start,))?;
            Ok(None)
        }
        Err(e) => {
            f.call_method1("seek", (0, SEEK_END))?;
            Err(e)
        }
    }
}

/// Loads a seekable binary file object holding exactly one uncompressed IDX
/// file from its position on with `readinto`, straight into the array, and
/// converts it to native order in place (memory: the array and the
/// header). `None`, with the position where it was, for anything else (not
/// seekable, no `readinto`, gzip, invalid, missing or trailing bytes): the
/// caller then reads it whole, and the library reports what is wrong.
pub(crate) fn load_into(
    f: &Bound<'_, PyAny>,
    opts: &idx::ReadOptions,
) -> PyResult<Option<Py<PyAny>>> {
    let py = f.py();
    let positioned = (|| -> PyResult<_> {
        let start = f.call_method0("tell")?;
        let end = f.call_method1("seek", (0, SEEK_END))?;
        f.call_method1("seek", (&start,))?;
        let readinto = f.getattr("readinto")?;
        Ok((start, end, readinto))
    })();
    let (start, end, readinto) = match positioned {
        Ok(p) => p,
        // no position or no readinto (io.UnsupportedOperation is both an
        // OSError and a ValueError); a closed file fails again, and is
        // reported, when it is read whole
        Err(e) if is_access_error(py, &e) => return Ok(None),
        Err(e) => return Err(e),
    };
    let start_at: i128 = start.extract()?;
    let remaining: i128 = end.extract::<i128>()? - start_at;
    let head = f.call_method1("read", (remaining.clamp(0, LONGEST_HEADER),))?;
    let head = match head.cast::<PyBytes>() {
        Ok(h) if remaining >= 0 => h.clone(),
        _ => {
            f.call_method1("seek", (&start,))?;
            return Ok(None);
        }
    };
    let Some((out, header_len, t)) = stream_plan(py, head.as_bytes(), remaining, opts)? else {
        f.call_method1("seek", (&start,))?;
        return Ok(None);
    };
    f.call_method1("seek", (start_at + header_len as i128,))?;
    let flat = out
        .call_method1("reshape", (-1,))?
        .call_method1("view", (numpy::dtype::<u8>(py),))?;
    let view = PyMemoryView::from(&flat)?;
    let len = view.len()?;
    let mut filled = 0usize;
    while filled < len {
        let part = view.get_item(PySlice::new(py, filled as isize, len as isize, 1))?;
        let n = readinto.call1((part,))?;
        if !n.is_truthy()? {
            break;
        }
        filled += n.extract::<usize>()?;
    }
    if filled < len || f.call_method1("read", (1,))?.is_truthy()? {
        // the file changed while it was read: read it whole again
        f.call_method1("seek", (&start,))?;
        return Ok(None);
    }
    let warnings = to_native(py, &out, t, opts)?;
    warn_findings(py, &warnings)?;
    Ok(Some(out.unbind()))
}

/// How [`load_into`] reads a file object straight into the array: `head`
/// is its first bytes (up to the longest IDX header) and `remaining` the
/// bytes from its position to its end. When `head` starts with a valid
/// header (and not with the gzip magic when decompressing), numpy can hold
/// the array and the header and payload make up exactly `remaining` bytes,
/// a new array of the header's shape and native element type (contents
/// unspecified: [`empty_array`]) and the header's length. Anything else
/// (gzip, a bad or truncated header, missing or trailing bytes) is `None`:
/// the input is then loaded whole, which reports it.
fn stream_plan<'py>(
    py: Python<'py>,
    head: &[u8],
    remaining: i128,
    opts: &idx::ReadOptions,
) -> PyResult<Option<(Bound<'py, PyAny>, usize, ElementType)>> {
    // the library's reader decides: gzip, or a header it refuses, is read
    // whole (and reported)
    let Ok(r) = idx::Reader::new(head, opts) else {
        return Ok(None);
    };
    if r.compression().is_some() {
        return Ok(None);
    }
    let h = r.header().clone();
    let dims: Vec<usize> = h.dims().iter().map(|&d| d as usize).collect();
    let whole = (h.header_len() as u64).checked_add(h.payload_len());
    if whole.map(i128::from) != Some(remaining) || !numpy_holds(&dims, h.dtype()) {
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
    Ok(Some((a, h.header_len(), h.dtype())))
}

/// Converts the elements of an array [`stream_plan`] made (of element type
/// `t`), holding the
/// payload's bytes as read, to native byte order in place and applies the
/// byte-order verdict, by the library ([`idx::Reader::decode_in_place`], in
/// parallel parts, with the GIL released): the read's warnings, as from
/// any other source, and a payload refused there raises as from any other
/// source.
fn to_native(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    t: ElementType,
    opts: &idx::ReadOptions,
) -> PyResult<Vec<idx::Finding>> {
    use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
    fn decode<T: numpy::Element + bytemuck::Pod>(
        py: Python<'_>,
        array: &Bound<'_, PyAny>,
        t: ElementType,
        opts: &idx::ReadOptions,
    ) -> PyResult<Vec<idx::Finding>> {
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
    match t {
        ElementType::U8 => decode::<u8>(py, array, t, opts),
        ElementType::I8 => decode::<i8>(py, array, t, opts),
        ElementType::I16 => decode::<i16>(py, array, t, opts),
        ElementType::I32 => decode::<i32>(py, array, t, opts),
        ElementType::F32 => decode::<f32>(py, array, t, opts),
        ElementType::F64 => decode::<f64>(py, array, t, opts),
    }
}
