//! Decoding by the library straight into a numpy array: a path, bytes in
//! memory, or a file from a position on (`load_file_at`).

use crate::args::{limit_arg, order_arg, severity_arg};
use crate::arrays::{numpy_holds, to_numpy};
use crate::errors::{warn_findings, LoadError};
use idx::{Array, ElementType};
use numpy::ndarray::IxDyn;
use numpy::{PyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How an input is read, decided by the library's reader
/// ([`idx::Reader::at`]): straight into a numpy array of the header's shape
/// when the source holds the whole payload (raw, long enough:
/// [`idx::Reader::output_buffer_size`]) and numpy can hold the array;
/// otherwise (gzip, a truncated source, a stream) by the reader into an
/// owned array that grows with the data.
enum Plan {
    /// The header of a payload to decode into a new numpy array.
    Into(idx::Header),
    /// Read by the library into an owned array, with the read's warnings.
    Done(Array, Vec<idx::Finding>),
}

/// Plans reading `src` with `opts`: every decision is the library's.
fn plan<S: idx::ReadAt + ?Sized>(src: &S, opts: &idx::ReadOptions) -> Result<Plan, LoadError> {
    let r = idx::Reader::at(src, opts)?;
    let h = r.header().clone();
    let dims: Vec<usize> = h.dims().iter().map(|&d| d as usize).collect();
    if r.output_buffer_size().map_err(LoadError::Io)?.is_some() && numpy_holds(&dims, h.dtype()) {
        return Ok(Plan::Into(h));
    }
    let (a, warnings) = r.read_array()?;
    Ok(Plan::Done(a, warnings))
}

/// The most threads one `load` decodes a payload with (memory bandwidth,
/// not cores, bounds it beyond that); the library gives each at least
/// [`idx::__private::MIN_BYTES_PER_THREAD`] of the payload, so a small payload is
/// decoded by the calling thread alone.
const MAX_LOAD_THREADS: usize = 4;

/// The threads a load may use: the cores this process may run on (asked
/// once: `available_parallelism` reads the cgroup's quota files, tens of
/// microseconds), at most [`MAX_LOAD_THREADS`].
pub(crate) fn load_threads() -> std::num::NonZeroUsize {
    static THREADS: OnceLock<std::num::NonZeroUsize> = OnceLock::new();
    *THREADS.get_or_init(|| {
        std::thread::available_parallelism().map_or(std::num::NonZeroUsize::MIN, |n| {
            n.min(MAX_LOAD_THREADS.try_into().unwrap_or(n))
        })
    })
}

/// A new native-endian numpy array of shape `dims` from `numpy.empty`:
/// numpy's own allocation, as `astype` makes its result (transparent huge
/// pages where numpy asks for them, no zeroing pass; `MemoryError` when it
/// fails). Its contents are unspecified: the caller writes every byte
/// before the array is returned, and drops it unread on an error.
pub(crate) fn empty_array<'py, T: numpy::Element>(
    py: Python<'py>,
    dims: &[usize],
) -> PyResult<Bound<'py, PyArray<T, IxDyn>>> {
    static EMPTY: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    let empty = EMPTY.get_or_try_init(py, || {
        py.import("numpy")?.getattr("empty").map(Bound::unbind)
    })?;
    Ok(empty
        .bind(py)
        .call1((PyTuple::new(py, dims)?, numpy::dtype::<T>(py)))?
        .cast_into::<PyArray<T, IxDyn>>()?)
}

/// A new numpy array of element type `dtype` and shape `dims`
/// ([`empty_array`]), filled by `read` (the payload's bytes in native
/// order, the read's warnings) with the GIL released; then the warnings
/// are issued ([`warn_findings`]). `path` names the source in errors.
fn new_array_from<F>(
    py: Python<'_>,
    dtype: ElementType,
    dims: &[usize],
    path: Option<&Path>,
    read: F,
) -> PyResult<Py<PyAny>>
where
    F: FnOnce(&mut [u8]) -> Result<Vec<idx::Finding>, idx::ReadError> + Send,
{
    fn into<T: numpy::Element + bytemuck::Pod, F>(
        py: Python<'_>,
        dims: &[usize],
        path: Option<&Path>,
        read: F,
    ) -> PyResult<Py<PyAny>>
    where
        F: FnOnce(&mut [u8]) -> Result<Vec<idx::Finding>, idx::ReadError> + Send,
    {
        let a = empty_array::<T>(py, dims)?;
        let warnings = {
            let mut rw = a.readwrite();
            let elems = rw
                .as_slice_mut()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let bytes: &mut [u8] = bytemuck::cast_slice_mut(elems);
            py.detach(|| read(bytes))
                .map_err(|e| LoadError::from(e).into_py(py, path))?
        };
        warn_findings(py, &warnings)?;
        Ok(a.into_any().unbind())
    }
    match dtype {
        ElementType::U8 => into::<u8, F>(py, dims, path, read),
        ElementType::I8 => into::<i8, F>(py, dims, path, read),
        ElementType::I16 => into::<i16, F>(py, dims, path, read),
        ElementType::I32 => into::<i32, F>(py, dims, path, read),
        ElementType::F32 => into::<f32, F>(py, dims, path, read),
        ElementType::F64 => into::<f64, F>(py, dims, path, read),
    }
}

/// Decodes the payload of `h` from `src` (which holds the header at offset
/// 0, as an `Into` plan) straight into a new native-endian numpy array
/// ([`empty_array`]) by the library ([`idx::Reader::read_into_parallel`], in parallel
/// parts when the payload is large), with the GIL released; then issues
/// the read's warnings ([`warn_findings`]). `path` names the source in
/// errors.
fn decode_into<S: idx::ReadAt + ?Sized>(
    py: Python<'_>,
    src: &S,
    h: &idx::Header,
    opts: &idx::ReadOptions,
    path: Option<&Path>,
) -> PyResult<Py<PyAny>> {
    let dims: Vec<usize> = h.dims().iter().map(|&d| d as usize).collect();
    new_array_from(py, h.dtype(), &dims, path, |bytes| {
        let r = idx::Reader::at(src, opts)?;
        if r.header() != h {
            // the source changed since it was planned
            return Err(idx::ReadError::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                "the file changed while it was read",
            )));
        }
        r.read_into_parallel(bytes, load_threads())
    })
}

/// The library's reading options for `load`: gzip decompressed when asked,
/// within the decompression limit (`idx-validate --max-decompressed`'s
/// default and meaning), the byte order the caller states, the severity
/// overrides (`severity=`: IDX501 made an error refuses the file).
pub(crate) fn read_options(
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
    assume_byte_order: Option<&str>,
    severity: Option<&Bound<'_, PyAny>>,
) -> PyResult<idx::ReadOptions> {
    Ok(idx::ReadOptions::default()
        .with_decompress(decompress)
        .with_limits(limit_arg(max_decompressed)?)
        .with_byte_order(order_arg(assume_byte_order)?)
        .with_severity(severity_arg(severity)?))
}

/// An array the library read whole, after issuing the read's warnings.
fn owned_array(py: Python<'_>, a: Array, warnings: &[idx::Finding]) -> PyResult<Py<PyAny>> {
    let out = to_numpy(py, a)?;
    warn_findings(py, warnings)?;
    Ok(out)
}

/// Loads an IDX file by path (memory is the output array).
pub(crate) fn load_path(
    py: Python<'_>,
    path: PathBuf,
    opts: &idx::ReadOptions,
) -> PyResult<Py<PyAny>> {
    load_file(py, &path, 0, Expect::AnyFile, opts, Some(&path))
}

/// Which file `load_file` expects to find at its path.
#[derive(Clone, Copy)]
enum Expect {
    /// Whatever the path names; one that is not a regular file (a pipe, a
    /// device) is read once, as a stream.
    AnyFile,
    /// The regular file a file object reads, with its (device, inode) when
    /// the caller saw it (POSIX); anything else is `FileNotFoundError`, so
    /// the caller reads through the object instead.
    FileOfObject(Option<(u64, u64)>),
}

/// Opens `path`, checks it is the file `expect`s, and loads it from `base`
/// on: planned by the library ([`plan`]), then decoded at offsets into a
/// new numpy array, with the GIL released. `named` names the file in errors.
fn load_file(
    py: Python<'_>,
    path: &Path,
    base: u64,
    expect: Expect,
    opts: &idx::ReadOptions,
    named: Option<&Path>,
) -> PyResult<Py<PyAny>> {
    let planned = py.detach(|| {
        let file = File::open(path).map_err(LoadError::Io)?;
        let meta = file.metadata().map_err(LoadError::Io)?;
        let regular = meta.is_file();
        match expect {
            Expect::AnyFile if !regular => {
                let (a, warnings) =
                    idx::Reader::new(io::BufReader::new(&file), opts)?.read_array()?;
                return Ok((Plan::Done(a, warnings), FileFrom { file, base }));
            }
            Expect::FileOfObject(id) if !regular || id.is_some_and(|id| !same_file(&meta, id)) => {
                return Err(LoadError::Io(io::Error::from(io::ErrorKind::NotFound)));
            }
            _ => {}
        }
        let r = FileFrom { file, base };
        plan(&r, opts).map(|p| (p, r))
    });
    match planned {
        Ok((Plan::Into(h), r)) => decode_into(py, &r, &h, opts, named),
        Ok((Plan::Done(a, warnings), _)) => owned_array(py, a, &warnings),
        Err(e) => Err(e.into_py(py, named)),
    }
}

/// A file read from `base` on, as if it started there: what `load` reads
/// from a file object positioned inside a file (offsets in errors count
/// from `base`, as when the same bytes are loaded from memory).
struct FileFrom {
    file: File,
    base: u64,
}

impl Read for FileFrom {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.file.read(buf)
    }
}

impl Seek for FileFrom {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let to = match to {
            SeekFrom::Start(n) => SeekFrom::Start(self.base.saturating_add(n)),
            other => other,
        };
        let at = self.file.seek(to)?;
        at.checked_sub(self.base).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the file object's position",
            )
        })
    }
}

impl idx::ReadAt for FileFrom {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        match self.base.checked_add(offset) {
            Some(at) => idx::ReadAt::read_at(&self.file, buf, at),
            None => Ok(0),
        }
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.file.metadata()?.len().saturating_sub(self.base))
    }
}

/// Loads the IDX file that a binary file object holds from its position
/// `start` on, by the path of the file it reads (`path`, whose identity
/// the caller checked against the object's descriptor): the payload read
/// at offsets in parallel parts straight into the array, as from a path.
/// `identity` is the (device, inode) the caller saw (POSIX): the opened
/// file must be that one, or this raises `FileNotFoundError` and the caller
/// reads through the object instead. Errors are those of the same bytes
/// loaded from memory (offsets from `start`, no file name).
#[pyfunction]
#[pyo3(signature = (path, start, identity, decompress=true, max_decompressed=None, assume_byte_order=None, severity=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn load_file_at(
    py: Python<'_>,
    path: PathBuf,
    start: u64,
    identity: Option<(u64, u64)>,
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
    assume_byte_order: Option<&str>,
    severity: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let opts = read_options(decompress, max_decompressed, assume_byte_order, severity)?;
    load_file(
        py,
        &path,
        start,
        Expect::FileOfObject(identity),
        &opts,
        None,
    )
}

#[cfg(unix)]
fn same_file(meta: &std::fs::Metadata, (dev, ino): (u64, u64)) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.dev() == dev && meta.ino() == ino
}

/// Windows: std does not expose the file index; the caller's check
/// (`os.path.samestat` on the descriptor and the path) stands.
#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: (u64, u64)) -> bool {
    true
}

/// Loads IDX bytes held in memory (a uint8 array over any bytes-like object).
pub(crate) fn load_buffer(
    py: Python<'_>,
    data: PyReadonlyArray1<'_, u8>,
    opts: &idx::ReadOptions,
) -> PyResult<Py<PyAny>> {
    let bytes = data
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    load_slice(py, bytes, opts)
}

/// Loads IDX bytes that no other thread can change while the GIL is
/// released (a `bytes` object's, or a read-only array's): planned as
/// [`plan`] does, but the reader that read the header then decodes the
/// payload (the bytes cannot have changed, so the header is not read
/// twice). The GIL is held only to parse the header of raw bytes in memory
/// (at most [`idx::MAX_HEADER_LEN`] bytes read: less time than releasing
/// the GIL takes); anything else (a gzip stream, refused at its magic
/// while decompression is off and opened again, an error, a payload
/// decoded whole) runs with it released, and a raw payload is decoded into
/// numpy's array with it released, once.
pub(crate) fn load_slice(
    py: Python<'_>,
    bytes: &[u8],
    opts: &idx::ReadOptions,
) -> PyResult<Py<PyAny>> {
    type Planned<'a> =
        Result<(idx::Reader<idx::At<'a, [u8]>>, Vec<usize>), idx::Reader<idx::At<'a, [u8]>>>;
    fn plan(r: idx::Reader<idx::At<'_, [u8]>>) -> Result<Planned<'_>, LoadError> {
        let h = r.header();
        let dims: Vec<usize> = h.dims().iter().map(|&d| d as usize).collect();
        if r.output_buffer_size().map_err(LoadError::Io)?.is_some() && numpy_holds(&dims, h.dtype())
        {
            return Ok(Ok((r, dims)));
        }
        Ok(Err(r))
    }
    let raw = opts.clone().with_decompress(false);
    let planned = match idx::Reader::at(bytes, &raw) {
        Ok(r) => plan(r),
        Err(_) => py.detach(|| {
            idx::Reader::at(bytes, opts)
                .map_err(LoadError::from)
                .and_then(plan)
        }),
    };
    match planned {
        Ok(Ok((r, dims))) => new_array_from(py, r.header().dtype(), &dims, None, |out| {
            r.read_into_parallel(out, load_threads())
        }),
        Ok(Err(r)) => match py.detach(|| r.read_array()) {
            Ok((a, warnings)) => owned_array(py, a, &warnings),
            Err(e) => Err(LoadError::from(e).into_py(py, None)),
        },
        Err(e) => Err(e.into_py(py, None)),
    }
}
