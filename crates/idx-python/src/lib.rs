//! `idxkit._native`: the native module of the `idxkit` Python package.
//!
//! Only conversions between Python objects and the `idx` library: every
//! verdict, finding and check comes from `idx` (parse, read, write,
//! validate), `idx-validate` (checking a file and rendering it as the CLI
//! does) and `idx-conformance` (the corpus and the runner's judgement).
//! Parsing, decoding, encoding and validation run with the GIL released.
//! The Python layer (`python/idxkit/__init__.py`) only normalises arguments.

use idx::{Array, Data, ElementType};
use idx_conformance::cases::Case;
use idx_conformance::content::Content;
use idx_conformance::runner::{self, Answer, Mode};
use idx_validate::check::{self, Checked, FileResult, Settings, Source};
use idx_validate::render;
use numpy::ndarray::IxDyn;
use numpy::{
    PyArray, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

create_exception!(
    idxkit,
    IdxError,
    pyo3::exceptions::PyValueError,
    "Base class of idxkit's errors; a ValueError, so code that catches ValueError still works."
);
create_exception!(
    idxkit,
    InvalidFileError,
    IdxError,
    "The data breaks a rule of the IDX spec. `.findings` holds the violations (rule, offset, ...)."
);
create_exception!(
    idxkit,
    UnsupportedDtypeError,
    IdxError,
    "The array's dtype cannot be stored in IDX; the message says which type to cast to."
);
create_exception!(
    idxkit,
    DatasetError,
    IdxError,
    "Files that are each valid do not form a dataset (e.g. image and label counts differ)."
);

/// One finding of the `idx` library, as a Python object.
#[pyclass(frozen, eq, module = "idxkit")]
#[derive(Debug, Clone, PartialEq)]
struct Finding {
    /// The rule code, e.g. `IDX202`.
    #[pyo3(get)]
    rule: String,
    /// The rule's name, e.g. `truncated-payload`.
    #[pyo3(get)]
    name: String,
    /// `error`, `warning` or `info`.
    #[pyo3(get)]
    severity: String,
    /// Byte offset of the first offending byte (in the decompressed stream for gzip).
    #[pyo3(get)]
    offset: u64,
    /// Number of offending bytes (0 for missing data).
    #[pyo3(get)]
    length: u64,
    /// A self-contained message.
    #[pyo3(get)]
    message: String,
    /// What the spec requires here.
    #[pyo3(get)]
    expected: Option<String>,
    /// What the file holds here.
    #[pyo3(get)]
    found: Option<String>,
    /// How to fix it.
    #[pyo3(get)]
    hint: Option<String>,
    text: String,
    score: Option<idx::lint::ByteOrderScore>,
}

impl From<&idx::Finding> for Finding {
    fn from(f: &idx::Finding) -> Self {
        Finding {
            rule: f.rule.code().to_string(),
            name: f.rule.name().to_string(),
            severity: f.severity().to_string(),
            offset: f.offset,
            length: f.length,
            message: f.message.clone(),
            expected: f.expected.clone(),
            found: f.found.clone(),
            hint: f.hint.clone(),
            text: f.to_string(),
            score: f.byte_order,
        }
    }
}

#[pymethods]
impl Finding {
    fn __repr__(&self) -> String {
        format!(
            "Finding(rule={:?}, severity={:?}, offset={}, length={}, message={:?})",
            self.rule, self.severity, self.offset, self.length, self.message
        )
    }
    fn __str__(&self) -> String {
        self.text.clone()
    }
    /// IDX501's byte-order test (spec 6.1) as a dict, the same keys as
    /// idx-validate's JSON `byte_order`; `None` for other findings.
    #[getter]
    fn byte_order<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(s) = self.score else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("score_bits", s.bits)?;
        d.set_item("z", s.z)?;
        d.set_item("big_endian_bits", s.big_bits)?;
        d.set_item("little_endian_bits", s.little_bits)?;
        d.set_item("elements", s.elements)?;
        d.set_item("likely_bits", idx::lint::LIKELY_BITS)?;
        d.set_item("certain_bits", idx::lint::CERTAIN_BITS)?;
        Ok(Some(d))
    }
}

/// Why loading failed, before it becomes a Python exception.
enum LoadError {
    Invalid(Vec<idx::Finding>),
    Io(io::Error),
}

impl LoadError {
    /// The Python exception; `path` is the file read, if any.
    fn into_py(self, py: Python<'_>, path: Option<&Path>) -> PyErr {
        match self {
            LoadError::Io(e) => os_error(py, &e, path),
            LoadError::Invalid(findings) => invalid_file_error(py, &findings),
        }
    }
}

/// The `errno` name of an error kind that has one, for errors made without
/// an OS error number (`io::ErrorKind::IsADirectory` from the output
/// policy, ...).
fn errno_name(kind: io::ErrorKind) -> Option<&'static str> {
    Some(match kind {
        io::ErrorKind::NotFound => "ENOENT",
        io::ErrorKind::PermissionDenied => "EACCES",
        io::ErrorKind::AlreadyExists => "EEXIST",
        io::ErrorKind::IsADirectory => "EISDIR",
        io::ErrorKind::NotADirectory => "ENOTDIR",
        io::ErrorKind::ReadOnlyFilesystem => "EROFS",
        io::ErrorKind::StorageFull => "ENOSPC",
        io::ErrorKind::FileTooLarge => "EFBIG",
        io::ErrorKind::InvalidFilename => "ENAMETOOLONG",
        io::ErrorKind::BrokenPipe => "EPIPE",
        _ => return None,
    })
}

/// The number of an `errno` name on this system (Python's `errno` module).
fn errno_number(py: Python<'_>, name: &str) -> Option<i32> {
    py.import("errno")
        .and_then(|m| m.getattr(name)?.extract::<i32>())
        .ok()
}

/// An `OSError(errno, strerror, filename)`: Python's `OSError` constructor
/// makes it the subclass for `errno` (FileNotFoundError, PermissionError,
/// IsADirectoryError, ...), exactly as `open` raises it, and `str()` is
/// `[Errno 2] No such file or directory: 'path'` (the file name through
/// `repr`, so no control character reaches a terminal).
fn errno_error(py: Python<'_>, errno: i32, strerror: &str, path: Option<&Path>) -> PyErr {
    let made = match path {
        // a str, as `open` gives it (a Path would convert to pathlib.Path)
        Some(p) => py
            .get_type::<PyOSError>()
            .call1((errno, strerror, p.as_os_str())),
        None => py.get_type::<PyOSError>().call1((errno, strerror)),
    };
    made.map_or_else(|e| e, PyErr::from_value)
}

/// The system's message for an OS error number (`os.strerror`, as `open`
/// uses), without Rust's " (os error N)".
fn strerror(py: Python<'_>, errno: i32) -> String {
    py.import("os")
        .and_then(|os| os.getattr("strerror")?.call1((errno,))?.extract::<String>())
        .unwrap_or_else(|_| system_message(&io::Error::from_raw_os_error(errno)))
}

/// Rust's message for an OS error, without its " (os error N)".
fn system_message(e: &io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// The `errno` of an I/O error: its OS error number (not on Windows, where
/// that is a Windows error code), or for an error made in Rust
/// (`io::ErrorKind::IsADirectory` from the output policy, a temporary
/// file's error) the number of its kind, when it has one.
fn errno_of(py: Python<'_>, e: &io::Error) -> Option<i32> {
    #[cfg(not(windows))]
    if let Some(n) = e.raw_os_error() {
        return Some(n);
    }
    errno_name(e.kind()).and_then(|name| errno_number(py, name))
}

/// An I/O error as Python's own file functions raise it: the `OSError`
/// subclass of its error number, with `errno`, `strerror` (the system's
/// message) and `filename` set. An error with no number to give (a damaged
/// gzip stream) is a plain `OSError` whose message starts with the
/// (escaped) path: `filename` stays None, as Python's `str()` of an
/// `OSError` with a file name but no number would be `[Errno None] None`.
fn os_error(py: Python<'_>, e: &io::Error, path: Option<&Path>) -> PyErr {
    #[cfg(windows)]
    if let Some(code) = e.raw_os_error() {
        // a Windows error code: Python's OSError maps it to errno and the
        // subclass and keeps it as `winerror`, as `open` does on Windows
        let made = py.get_type::<PyOSError>().call1((
            0,
            system_message(e),
            path.map(Path::as_os_str),
            code,
        ));
        return made.map_or_else(|e| e, PyErr::from_value);
    }
    match (errno_of(py, e), path) {
        (Some(n), _) => errno_error(py, n, &strerror(py, n), path),
        (None, Some(p)) => PyOSError::new_err(format!("{}: {e}", idx_io::escape::path(p))),
        (None, None) => PyOSError::new_err(e.to_string()),
    }
}

/// An error of the output policy's atomic writer, as [`os_error`] gives
/// it, with what was being done.
fn output_error(py: Python<'_>, e: &idx_io::OutputError) -> PyErr {
    output_error_noting(py, e, "")
}

/// [`output_error`] with `note` ("; in.idx was left unchanged") after what
/// was being done.
fn output_error_noting(py: Python<'_>, e: &idx_io::OutputError, note: &str) -> PyErr {
    match e {
        idx_io::OutputError::IsDirectory(p) => match errno_number(py, "EISDIR") {
            // "[Errno 21] Is a directory; nothing was written: 'dir'"
            Some(n) => errno_error(
                py,
                n,
                &format!("{}; nothing was written{note}", strerror(py, n)),
                Some(p),
            ),
            None => PyOSError::new_err(e.to_string()),
        },
        idx_io::OutputError::Io {
            path,
            action,
            source,
        } => match errno_of(py, source) {
            // "[Errno 2] No such file or directory (cannot create a
            // temporary file beside it): 'missing/out.idx'"
            Some(n) => errno_error(
                py,
                n,
                &format!("{} (cannot {action} it{note})", strerror(py, n)),
                Some(path),
            ),
            None => PyOSError::new_err(e.to_string()),
        },
        other => PyOSError::new_err(other.to_string()),
    }
}

fn invalid_file_error(py: Python<'_>, findings: &[idx::Finding]) -> PyErr {
    let msg = match findings.first() {
        Some(f) => format!(
            "{}: {} (at offset {:#x}, byte {})",
            f.rule.code(),
            f.message,
            f.offset,
            f.offset
        ),
        None => "invalid IDX data".to_string(),
    };
    let err = InvalidFileError::new_err(msg);
    let list: Vec<Finding> = findings.iter().map(Finding::from).collect();
    let attached = PyList::new(py, list).and_then(|l| err.value(py).setattr("findings", l));
    match attached {
        Ok(()) => err,
        Err(e) => e,
    }
}

impl From<idx::ReadError> for LoadError {
    fn from(e: idx::ReadError) -> Self {
        match e {
            idx::ReadError::Invalid(e) => LoadError::Invalid(vec![e.into_finding()]),
            idx::ReadError::Io(e) => LoadError::Io(e),
            other => LoadError::Io(io::Error::other(other.to_string())),
        }
    }
}

use idx::input::fill;

/// How an input is read.
enum Plan<R> {
    /// Uncompressed, with a source long enough for the header's payload,
    /// which is to be read straight into a numpy array from the source's
    /// offsets ([`decode_into`]); `r` is given back.
    Into(R, idx::Header),
    /// Read by the library into an owned array (gzip, a stream of unknown
    /// length, a truncated source).
    Done(Array),
}

/// Decides how to read `r` (of `len` bytes when known) and does what needs
/// no numpy array, all through the library: gzip detection
/// (`idx::is_gzip`), the header (`idx::read_header`), and for everything
/// else `idx::read_input` (decompression within `opts.max_decompressed`).
/// The destination is sized from the header only when the source is known
/// to hold that much.
fn plan<R: Read + Seek>(
    mut r: R,
    len: Option<u64>,
    opts: &idx::Options,
) -> Result<Plan<R>, LoadError> {
    if let Some(len) = len {
        let mut magic = [0u8; 2];
        let n = fill(&mut r, &mut magic).map_err(LoadError::Io)?;
        r.seek(SeekFrom::Start(0)).map_err(LoadError::Io)?;
        if !(opts.decompress && idx::is_gzip(&magic[..n])) {
            let h = idx::read_header(&mut r)?;
            let whole = (h.header_len() as u64).checked_add(h.payload_len());
            let dims: Vec<usize> = h.dims().iter().map(|&d| d as usize).collect();
            if whole.is_some_and(|w| w <= len) && numpy_holds(&dims, h.dtype()) {
                return Ok(Plan::Into(r, h));
            }
            r.seek(SeekFrom::Start(0)).map_err(LoadError::Io)?;
        }
    }
    match idx::read_input(&mut r, opts) {
        Ok(a) => Ok(Plan::Done(a)),
        // a damaged gzip stream: validation locates the damage (IDX701)
        Err(idx::ReadError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
            let located = r
                .seek(SeekFrom::Start(0))
                .and_then(|_| idx::validate_reader(&mut r, opts));
            match located {
                Ok(report) if report.has_errors() => {
                    Err(LoadError::Invalid(report.errors().cloned().collect()))
                }
                _ => Err(LoadError::Io(e)),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// The most threads one `load` decodes a payload with (memory bandwidth,
/// not cores, bounds it beyond that); the library gives each at least
/// [`idx::MIN_BYTES_PER_THREAD`] of the payload, so a small payload is
/// decoded by the calling thread alone.
const MAX_LOAD_THREADS: usize = 4;

/// The threads a load may use: the cores this process may run on (asked
/// once: `available_parallelism` reads the cgroup's quota files, tens of
/// microseconds), at most [`MAX_LOAD_THREADS`].
fn load_threads() -> std::num::NonZeroUsize {
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
fn empty_array<'py, T: numpy::Element>(
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

/// Decodes the payload of `h` from `src` (which holds the header at offset
/// 0, as an `Into` plan) straight into a new native-endian numpy array
/// ([`empty_array`]) by the library ([`idx::read_array_at`], in parallel
/// parts when the payload is large), with the GIL released. `path` names
/// the source in errors.
fn decode_into<S: idx::ReadAt + ?Sized>(
    py: Python<'_>,
    src: &S,
    h: &idx::Header,
    path: Option<&Path>,
) -> PyResult<Py<PyAny>> {
    let dims: Vec<usize> = h.dims().iter().map(|&d| d as usize).collect();
    fn into<T: numpy::Element + bytemuck::Pod, S: idx::ReadAt + ?Sized>(
        py: Python<'_>,
        dims: &[usize],
        src: &S,
        h: &idx::Header,
        path: Option<&Path>,
    ) -> PyResult<Py<PyAny>> {
        let a = empty_array::<T>(py, dims)?;
        {
            let mut rw = a.readwrite();
            let elems = rw
                .as_slice_mut()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let bytes: &mut [u8] = bytemuck::cast_slice_mut(elems);
            py.detach(|| idx::read_array_at(src, h, bytes, load_threads()))
                .map_err(|e| LoadError::from(e).into_py(py, path))?;
        }
        Ok(a.into_any().unbind())
    }
    match h.dtype() {
        ElementType::U8 => into::<u8, S>(py, &dims, src, h, path),
        ElementType::I8 => into::<i8, S>(py, &dims, src, h, path),
        ElementType::I16 => into::<i16, S>(py, &dims, src, h, path),
        ElementType::I32 => into::<i32, S>(py, &dims, src, h, path),
        ElementType::F32 => into::<f32, S>(py, &dims, src, h, path),
        ElementType::F64 => into::<f64, S>(py, &dims, src, h, path),
    }
}

/// The library's reading options for `load`: gzip decompressed when asked,
/// within the decompression limit (`idx-validate --max-decompressed`'s
/// default and meaning).
fn read_options(
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
) -> PyResult<idx::Options> {
    Ok(idx::Options::default()
        .with_decompress(decompress)
        .with_max_decompressed(limit_arg(max_decompressed)?))
}

/// `max_decompressed=`: None for the command's default (64 GiB), 0 for no
/// limit, an int of bytes or a size string (`"1GiB"`), parsed as
/// `--max-decompressed` is.
fn limit_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let setting = match v {
        None => None,
        Some(v) if v.is_none() => None,
        Some(v) => Some(if let Ok(s) = v.cast::<PyString>() {
            idx_validate::size::parse_size(&s.to_cow()?)
                .map_err(|e| PyValueError::new_err(format!("max_decompressed: {e}")))?
        } else {
            v.extract::<u64>().map_err(|_| {
                PyValueError::new_err(
                    "max_decompressed: a number of bytes (0: no limit), a size such as \"1GiB\", or None",
                )
            })?
        }),
    };
    Ok(idx_validate::decompression_limit(setting))
}

/// The running numpy's limits, found once when the module is imported
/// ([`numpy_limits`]).
struct NumpyLimits {
    /// The most dimensions an array may have (`NPY_MAXDIMS`: 32 in numpy 1,
    /// 64 in numpy 2); IDX allows 255.
    max_rank: usize,
    /// `numpy.__version__`, for messages.
    version: String,
}

static NUMPY_LIMITS: OnceLock<NumpyLimits> = OnceLock::new();

/// Asks the running numpy for its limits. numpy 2 keeps its rank limit in
/// a private module (`numpy._core.multiarray.MAXDIMS`), so the limit is
/// what numpy does: the largest rank `numpy.empty` makes an array of (a
/// binary search over IDX's ranks, eight calls with one element each).
fn numpy_limits(py: Python<'_>) -> PyResult<&'static NumpyLimits> {
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
fn numpy_max_rank() -> usize {
    NUMPY_LIMITS.get().map_or(32, |l| l.max_rank)
}

/// Whether numpy can make an array of this shape: at most numpy's rank
/// limit, and the product of the non-zero dimensions (numpy ignores none
/// of them) times the element size within `isize`.
fn numpy_holds(dims: &[usize], dtype: ElementType) -> bool {
    dims.len() <= numpy_max_rank()
        && dims
            .iter()
            .filter(|&&d| d != 0)
            .try_fold(dtype.size(), |a, &d| a.checked_mul(d))
            .is_some_and(|n| isize::try_from(n).is_ok())
}

fn numpy_error(dims: &[usize]) -> PyErr {
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

/// The native-endian numpy dtype of an element type.
fn numpy_dtype(py: Python<'_>, t: ElementType) -> Bound<'_, numpy::PyArrayDescr> {
    match t {
        ElementType::U8 => numpy::dtype::<u8>(py),
        ElementType::I8 => numpy::dtype::<i8>(py),
        ElementType::I16 => numpy::dtype::<i16>(py),
        ElementType::I32 => numpy::dtype::<i32>(py),
        ElementType::F32 => numpy::dtype::<f32>(py),
        ElementType::F64 => numpy::dtype::<f64>(py),
    }
}

/// Moves an owned array into numpy without copying the elements.
fn to_numpy(py: Python<'_>, a: Array) -> PyResult<Py<PyAny>> {
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

/// Loads an IDX file by path (memory is the output array).
#[pyfunction]
#[pyo3(signature = (path, decompress=true, max_decompressed=None))]
fn load_path(
    py: Python<'_>,
    path: PathBuf,
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let opts = read_options(decompress, max_decompressed)?;
    let planned = py.detach(|| {
        let f = File::open(&path).map_err(LoadError::Io)?;
        let meta = f.metadata().map_err(LoadError::Io)?;
        if meta.is_file() {
            plan(f, Some(meta.len()), &opts)
        } else {
            // a pipe or a device: read once, as a stream
            idx::read_input(f, &opts)
                .map(Plan::Done)
                .map_err(LoadError::from)
        }
    });
    match planned {
        Ok(Plan::Into(f, h)) => decode_into(py, &f, &h, Some(&path)),
        Ok(Plan::Done(a)) => to_numpy(py, a),
        Err(e) => Err(e.into_py(py, Some(&path))),
    }
}

/// Loads IDX bytes held in memory (a uint8 array over any bytes-like object).
#[pyfunction]
#[pyo3(signature = (data, decompress=true, max_decompressed=None))]
fn load_buffer(
    py: Python<'_>,
    data: PyReadonlyArray1<'_, u8>,
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let opts = read_options(decompress, max_decompressed)?;
    let bytes = data
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let len = bytes.len() as u64;
    match py.detach(|| plan(io::Cursor::new(bytes), Some(len), &opts)) {
        Ok(Plan::Into(_, h)) => decode_into(py, bytes, &h, None),
        Ok(Plan::Done(a)) => to_numpy(py, a),
        Err(e) => Err(e.into_py(py, None)),
    }
}

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
fn stream_plan<'py>(
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
fn to_native(py: Python<'_>, array: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    fn swap<T: numpy::Element + bytemuck::Pod>(
        py: Python<'_>,
        array: &Bound<'_, PyUntypedArray>,
    ) -> PyResult<()> {
        let a = array.cast::<PyArrayDyn<T>>()?;
        let mut rw = a.try_readwrite()?;
        let elems = rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.detach(|| swap_parts(bytemuck::cast_slice_mut(elems), std::mem::size_of::<T>()));
        Ok(())
    }
    match idx_type(array) {
        Some(ElementType::U8 | ElementType::I8) => Ok(()),
        Some(ElementType::I16) => swap::<i16>(py, array),
        Some(ElementType::I32) => swap::<i32>(py, array),
        Some(ElementType::F32) => swap::<f32>(py, array),
        Some(ElementType::F64) => swap::<f64>(py, array),
        None => Err(unsupported(array)),
    }
}

/// Big-endian elements of `size` bytes to native order in place, in up to
/// [`load_threads`] parts of whole elements (a part whose thread cannot be
/// started is converted by the calling thread).
fn swap_parts(bytes: &mut [u8], size: usize) {
    let threads = load_threads().get();
    let parts = threads.min(bytes.len() / idx::MIN_BYTES_PER_THREAD).max(1);
    let per = bytes.len().div_ceil(parts).div_ceil(size) * size;
    if parts == 1 || per == 0 {
        return swap_in_place(bytes, size);
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
                    swap_in_place(p, size);
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
            swap_in_place(part, size);
        }
    });
}

/// Big-endian elements of `size` bytes (2, 4 or 8; other sizes are left
/// as they are) to native order in place.
fn swap_in_place(bytes: &mut [u8], size: usize) {
    macro_rules! swap {
        ($t:ty, $n:expr) => {{
            // arrays of bytes have alignment 1: the cast always succeeds
            let elems: &mut [[u8; $n]] = bytemuck::cast_slice_mut(bytes);
            for e in elems {
                *e = <$t>::from_be_bytes(*e).to_ne_bytes();
            }
        }};
    }
    match size {
        2 => swap!(u16, 2),
        4 => swap!(u32, 4),
        8 => swap!(u64, 8),
        _ => {}
    }
}

/// Parses a whole (mapped) file strictly without decoding it: the element
/// type name, the dimensions and the header length, for a zero-copy view.
#[pyfunction]
fn parse_header(
    py: Python<'_>,
    data: PyReadonlyArray1<'_, u8>,
) -> PyResult<(&'static str, Vec<u32>, usize)> {
    let bytes = data
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let parsed = py.detach(|| {
        idx::parse(bytes).map(|v| (v.dtype().name(), v.dims().to_vec(), v.header().header_len()))
    });
    let (dtype, dims, header_len) =
        parsed.map_err(|e| invalid_file_error(py, &[e.into_finding()]))?;
    let shape: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
    match ElementType::from_name(dtype) {
        Some(t) if numpy_holds(&shape, t) => Ok((dtype, dims, header_len)),
        _ => Err(numpy_error(&shape)),
    }
}

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

/// IDX's element types by their numpy names (IDX's own short names, `u8`
/// and `i8` above all, mean other types in numpy).
const IDX_NUMPY_TYPES: &str = "uint8, int8, int16, int32, float32, float64";

/// Why a dtype cannot be stored, and what to cast to.
fn unsupported(array: &Bound<'_, PyUntypedArray>) -> PyErr {
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
#[pyfunction]
#[pyo3(signature = (path, array, compress=false))]
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
#[pyfunction]
#[pyo3(signature = (array, compress=false))]
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

/// The result of validating one input, as `idx-validate` sees it.
#[pyclass(frozen, module = "idxkit")]
struct Report {
    result: FileResult,
    findings: Vec<Finding>,
}

impl Report {
    fn checked(&self) -> Option<&Checked> {
        self.result.outcome.as_ref().ok()
    }
}

#[pymethods]
impl Report {
    /// True when no error was found (warnings and infos allowed).
    #[getter]
    fn ok(&self) -> bool {
        self.checked().is_some_and(|c| !c.fails(false))
    }
    /// Every finding, ordered by offset then rule.
    #[getter]
    fn findings(&self) -> Vec<Finding> {
        self.findings.clone()
    }
    /// The error findings.
    #[getter]
    fn errors(&self) -> Vec<Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == "error")
            .cloned()
            .collect()
    }
    /// The path validated, or None for bytes.
    #[getter]
    fn path(&self) -> Option<String> {
        match &self.result.source {
            Source::File(p) if p.as_os_str() != BYTES_NAME => Some(p.display().to_string()),
            _ => None,
        }
    }
    /// The element type as the `numpy.dtype` `load` gives it (native byte
    /// order; the file stores it big-endian), when the header could be read.
    #[getter]
    fn dtype<'py>(&self, py: Python<'py>) -> Option<Bound<'py, numpy::PyArrayDescr>> {
        self.checked()
            .and_then(|c| c.report.header.as_ref())
            .map(|h| numpy_dtype(py, h.dtype()))
    }
    /// The dimensions, when the header could be read.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        match self.checked().and_then(|c| c.report.header.as_ref()) {
            Some(h) => Ok(Some(PyTuple::new(py, h.dims())?)),
            None => Ok(None),
        }
    }
    /// `"gzip"` when the data was decompressed (offsets are then in the
    /// decompressed stream), else None.
    #[getter]
    fn compression(&self) -> Option<&'static str> {
        self.checked()
            .and_then(|c| c.report.compression)
            .map(|c| c.as_str())
    }
    /// The report in idx-validate's JSON format (`--format json`).
    fn to_json(&self) -> String {
        render::json::render(
            std::slice::from_ref(&self.result),
            &render::Context::default(),
        )
    }
    /// The report as idx-validate's human output (no colour).
    fn __str__(&self) -> String {
        render::human::render(
            std::slice::from_ref(&self.result),
            &render::Context::default(),
        )
    }
    fn __repr__(&self) -> String {
        format!(
            "Report(ok={}, findings={})",
            if self.ok() { "True" } else { "False" },
            self.findings.len()
        )
    }
}

/// A reader that keeps the kind and OS error number of the first error it
/// returns (other than an interruption, which is retried).
struct Recorded<R> {
    inner: R,
    error: Option<(io::ErrorKind, Option<i32>)>,
}

impl<R: Read> Read for Recorded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let r = self.inner.read(buf);
        if let Err(e) = &r {
            if self.error.is_none() && e.kind() != io::ErrorKind::Interrupted {
                self.error = Some((e.kind(), e.raw_os_error()));
            }
        }
        r
    }
}

/// How in-memory data is named in reports.
const BYTES_NAME: &str = "<bytes>";

/// `select`/`ignore` entries, checked as `--select`/`--ignore` check them.
fn rule_selectors(entries: Option<Vec<String>>) -> PyResult<Vec<String>> {
    entries
        .unwrap_or_default()
        .iter()
        .map(|e| idx_validate::config::parse_rule_selector(e).map_err(PyValueError::new_err))
        .collect()
}

fn parse_expect_shape(shape: &Bound<'_, PyAny>) -> PyResult<Vec<Option<u32>>> {
    if let Ok(s) = shape.cast::<PyString>() {
        return idx_validate::parse_shape(&s.to_cow()?)
            .map(|p| p.0)
            .map_err(PyValueError::new_err);
    }
    let mut out = Vec::new();
    for d in shape.try_iter()? {
        let d = d?;
        if d.is_none() {
            out.push(None);
        } else {
            out.push(Some(d.extract::<u32>().map_err(|_| {
                PyValueError::new_err("expect_shape: each dimension is an int in 0..2**32 or None")
            })?));
        }
    }
    Ok(out)
}

/// Validates a path or in-memory bytes exactly as `idx-validate` does
/// (`idx_validate::check`: gzip decompressed within the limit, every
/// finding kept), then applies `select`/`ignore` as the command does
/// (`idx_validate::config::filter_result`).
#[pyfunction]
#[pyo3(signature = (path=None, data=None, expect_dtype=None, expect_shape=None, select=None, ignore=None, max_decompressed=None))]
#[allow(clippy::too_many_arguments)]
fn validate(
    py: Python<'_>,
    path: Option<PathBuf>,
    data: Option<PyReadonlyArray1<'_, u8>>,
    expect_dtype: Option<&str>,
    expect_shape: Option<&Bound<'_, PyAny>>,
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    max_decompressed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Report> {
    let expect_dtype = match expect_dtype {
        Some(name) => Some(ElementType::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "expect_dtype {name:?}: one of u8, i8, i16, i32, f32, f64"
            ))
        })?),
        None => None,
    };
    let expect_shape = expect_shape.map(parse_expect_shape).transpose()?;
    let filter = idx_validate::config::RuleFilter {
        select: rule_selectors(select)?,
        ignore: rule_selectors(ignore)?,
    };
    let settings = Settings {
        options: idx::Options::default()
            .with_decompress(true)
            .with_max_decompressed(limit_arg(max_decompressed)?)
            .with_expect_dtype(expect_dtype)
            .with_expect_shape(expect_shape),
        structure_only: false,
        max_findings: 0,
    };
    let bytes = match &data {
        Some(d) => Some(
            d.as_slice()
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        ),
        None => None,
    };
    let checked = py.detach(|| match (bytes, &path) {
        (Some(b), _) => Ok((
            check::check_reader(
                Source::File(PathBuf::from(BYTES_NAME)),
                b,
                Some(b.len() as u64),
                &settings,
            ),
            None,
        )),
        // what `check::check` does for a path, with the file opened here
        // and its read errors kept, so that each is raised as the OSError
        // it is (the checker reports it as text)
        (None, Some(p)) => {
            let f = File::open(p)?;
            let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            let mut r = Recorded {
                inner: f,
                error: None,
            };
            let result = check::check_reader(Source::File(p.clone()), &mut r, len, &settings);
            Ok((result, r.error))
        }
        (None, None) => Ok((
            FileResult {
                source: Source::File(PathBuf::from(BYTES_NAME)),
                outcome: Err("nothing to validate".into()),
            },
            None,
        )),
    });
    let (mut result, read_error) = checked.map_err(|e| os_error(py, &e, path.as_deref()))?;
    if let Err(e) = &result.outcome {
        return Err(match read_error {
            Some((_, Some(n))) => os_error(py, &io::Error::from_raw_os_error(n), path.as_deref()),
            Some((kind, None)) => os_error(py, &io::Error::new(kind, e.clone()), path.as_deref()),
            None => PyOSError::new_err(e.clone()),
        });
    }
    idx_validate::config::filter_result(&mut result, &filter);
    let findings = match &result.outcome {
        Ok(c) => c.report.findings.iter().map(Finding::from).collect(),
        Err(_) => Vec::new(),
    };
    Ok(Report { result, findings })
}

/// One case of a conformance run.
#[pyclass(frozen, get_all, module = "idxkit")]
#[derive(Debug, Clone)]
struct CaseResult {
    /// The case ID (the corpus file stem).
    id: String,
    /// `valid`, `invalid` or `implementation-defined`.
    verdict: &'static str,
    /// The runner's status: `pass`, `accepted-invalid`, `rejected-valid`,
    /// `wrong-content`, `wrong-bytes`, `crash`, `accepted`, `rejected`.
    status: &'static str,
    /// Why.
    detail: String,
    /// Counts as a failure (not implementation-defined, not `pass`).
    failed: bool,
    /// Listed in `expected_failures`.
    expected_failure: bool,
}

#[pymethods]
impl CaseResult {
    fn __repr__(&self) -> String {
        format!(
            "CaseResult(id={:?}, status={:?}, detail={:?})",
            self.id, self.status, self.detail
        )
    }
}

/// The outcome of `check_reader` or `check_writer`: the runner's report.
#[pyclass(frozen, module = "idxkit")]
struct ConformanceReport {
    report: runner::Report,
}

#[pymethods]
impl ConformanceReport {
    /// `reader` or `writer`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.report.mode.as_str()
    }
    /// Every case run, in corpus order.
    #[getter]
    fn results(&self) -> Vec<CaseResult> {
        self.report
            .outcomes
            .iter()
            .map(|o| CaseResult {
                id: o.id.clone(),
                verdict: o.verdict.as_str(),
                status: o.status.as_str(),
                detail: o.detail.clone(),
                failed: o.failed,
                expected_failure: o.expected_failure,
            })
            .collect()
    }
    /// `(case ID, status)` for every case run.
    #[getter]
    fn statuses(&self) -> Vec<(String, &'static str)> {
        self.report
            .outcomes
            .iter()
            .map(|o| (o.id.clone(), o.status.as_str()))
            .collect()
    }
    /// `(case ID, reason)` for every case not run.
    #[getter]
    fn skipped(&self) -> Vec<(String, String)> {
        self.report
            .skipped
            .iter()
            .map(|k| (k.id.clone(), k.reason.clone()))
            .collect()
    }
    /// Failures not listed as expected.
    #[getter]
    fn unexpected_failures(&self) -> usize {
        runner::unexpected(&self.report.outcomes)
    }
    /// True when nothing failed unexpectedly.
    #[getter]
    fn ok(&self) -> bool {
        runner::unexpected(&self.report.outcomes) == 0
    }
    /// Raises AssertionError, with the runner's report, unless `ok`.
    fn assert_ok(&self) -> PyResult<()> {
        if self.ok() {
            Ok(())
        } else {
            Err(pyo3::exceptions::PyAssertionError::new_err(format!(
                "the {} does not conform to the IDX spec:\n{}",
                self.report.mode.as_str(),
                self.report.render_human()
            )))
        }
    }
    /// The runner's JSON report (`--format json`).
    fn to_json(&self) -> String {
        self.report.to_json().to_string()
    }
    /// The runner's human report.
    fn __str__(&self) -> String {
        self.report.render_human()
    }
    fn __repr__(&self) -> String {
        format!(
            "ConformanceReport(mode={:?}, cases={}, unexpected_failures={})",
            self.report.mode.as_str(),
            self.report.outcomes.len(),
            runner::unexpected(&self.report.outcomes)
        )
    }
}

/// The conformance corpus, generated once from the recipes compiled into
/// this module (a test in `idx-conformance` proves them equal to `corpus/`),
/// less the cases no numpy array can hold (a rank over the running numpy's
/// limit, or a shape whose non-zero dimensions multiply past numpy's size
/// limit).
fn corpus() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        idx_conformance::cases::all()
            .into_iter()
            .filter(|c| {
                c.content.as_ref().is_none_or(|content| {
                    let dims: Vec<usize> = content.shape.iter().map(|&d| d as usize).collect();
                    numpy_holds(&dims, content.dtype)
                })
            })
            .collect()
    })
}

/// The runner's selection (`--run`, `--skip`, `--expected-failures`
/// globs) and failure rule.
fn selection(
    run: &[String],
    skip: &[String],
    expected_failures: &[String],
) -> PyResult<runner::Selection> {
    runner::Selection::new(run, skip, expected_failures).map_err(PyValueError::new_err)
}

/// Runs the selected cases that apply to `mode` through `attempt` (the
/// Python callable, judged by the runner), as `runner::run` does for a
/// command. `Err` from `attempt` (a BaseException that is not an Exception)
/// stops the run and is raised.
fn run_in_process(
    mode: Mode,
    sel: &runner::Selection,
    command: String,
    mut attempt: impl FnMut(&Case) -> PyResult<Answer>,
) -> PyResult<ConformanceReport> {
    let started = Instant::now();
    let mut outcomes = Vec::new();
    let mut skipped = Vec::new();
    for case in sel.cases(corpus(), mode, &mut skipped) {
        let t = Instant::now();
        let answer = attempt(case)?;
        let elapsed = t.elapsed();
        let (status, detail) = match mode {
            Mode::Reader => runner::judge_reader(case, &answer, Duration::ZERO),
            _ => runner::judge_writer(case, &answer, Duration::ZERO),
        };
        outcomes.push(sel.outcome(case, status, detail, elapsed));
    }
    Ok(ConformanceReport {
        report: runner::Report {
            name: command.clone(),
            version: String::new(),
            mode,
            command: vec![command],
            persistent: true,
            timeout: Duration::ZERO,
            memory_mib: None,
            outcomes,
            skipped,
            notes: vec!["run in-process by idxkit: no time or memory limit".into()],
            elapsed: started.elapsed(),
        },
    })
}

/// The element type of a numpy dtype of any byte order.
fn idx_type(array: &Bound<'_, PyUntypedArray>) -> Option<ElementType> {
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

/// What a reader's return value says: numpy converts it to an array and to
/// big-endian bytes; the library parses those as IDX into the content the
/// runner compares. Anything else is the protocol's crash.
fn reader_answer(np: &Bound<'_, PyModule>, obj: &Bound<'_, PyAny>) -> PyResult<Answer> {
    let a = match np.call_method1("asarray", (obj,)) {
        Ok(a) => a,
        Err(e) => {
            return Ok(Answer::Crash(format!(
                "returned something that is not an array: {e}"
            )))
        }
    };
    let Ok(arr) = a.cast::<PyUntypedArray>() else {
        return Ok(Answer::Crash(
            "returned something that is not an array".into(),
        ));
    };
    let Some(dtype) = idx_type(arr) else {
        let name = arr.dtype().str()?.to_string();
        return Ok(Answer::Crash(format!(
            "returned dtype {name}, which is not an IDX element type"
        )));
    };
    let dims: Vec<usize> = arr.shape().to_vec();
    let be = arr.dtype().call_method1("newbyteorder", (">",))?;
    let payload: Vec<u8> = arr
        .call_method1("astype", (be,))?
        .call_method0("tobytes")?
        .extract()?;
    let mut bytes = match idx::encode_header(dtype, &dims) {
        Ok(h) => h,
        Err(e) => return Ok(Answer::Crash(e.to_string())),
    };
    bytes.extend_from_slice(&payload);
    Ok(match idx::parse(&bytes) {
        Ok(v) => Answer::Accepted(Content::of(&v.array())),
        Err(e) => Answer::Crash(e.to_string()),
    })
}

/// An exception from the implementation: a rejection if it is an
/// `Exception`, re-raised otherwise (KeyboardInterrupt, SystemExit).
fn refusal(py: Python<'_>, e: PyErr) -> PyResult<String> {
    if e.is_instance_of::<PyException>(py) {
        let name = e
            .get_type(py)
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        Ok(format!("{name}: {}", e.value(py)))
    } else {
        Err(e)
    }
}

fn check_pass_as(pass_as: &str) -> PyResult<()> {
    match pass_as {
        "path" | "bytes" | "file" => Ok(()),
        _ => Err(PyValueError::new_err(format!(
            "pass_as {pass_as:?}: one of \"path\", \"bytes\", \"file\""
        ))),
    }
}

fn callable_name(func: &Bound<'_, PyAny>) -> String {
    func.getattr("__qualname__")
        .or_else(|_| func.repr().map(|r| r.into_any()))
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "a Python callable".into())
}

/// Runs the conformance corpus against a Python reader.
#[pyfunction]
#[pyo3(signature = (func, pass_as="path", expected_failures=Vec::new(), run=Vec::new(), skip=Vec::new()))]
fn check_reader(
    py: Python<'_>,
    func: &Bound<'_, PyAny>,
    pass_as: &str,
    expected_failures: Vec<String>,
    run: Vec<String>,
    skip: Vec<String>,
) -> PyResult<ConformanceReport> {
    check_pass_as(pass_as)?;
    let sel = selection(&run, &skip, &expected_failures)?;
    let np = py.import("numpy")?;
    let bytes_io = py.import("io")?.getattr("BytesIO")?;
    let dir = tempfile::tempdir().map_err(|e| os_error(py, &e, None))?;
    run_in_process(Mode::Reader, &sel, callable_name(func), |case| {
        let arg = match pass_as {
            "path" => {
                let p = dir.path().join(case.file_name());
                std::fs::write(&p, &case.bytes).map_err(|e| os_error(py, &e, Some(&p)))?;
                p.into_pyobject(py)?.into_any()
            }
            "bytes" => PyBytes::new(py, &case.bytes).into_any(),
            _ => bytes_io.call1((PyBytes::new(py, &case.bytes),))?,
        };
        match func.call1((arg,)) {
            Ok(obj) => reader_answer(&np, &obj),
            Err(e) => Ok(Answer::Rejected(refusal(py, e)?)),
        }
    })
}

/// Runs the conformance corpus against a Python writer.
#[pyfunction]
#[pyo3(signature = (func, pass_as="bytes", expected_failures=Vec::new(), run=Vec::new(), skip=Vec::new()))]
fn check_writer(
    py: Python<'_>,
    func: &Bound<'_, PyAny>,
    pass_as: &str,
    expected_failures: Vec<String>,
    run: Vec<String>,
    skip: Vec<String>,
) -> PyResult<ConformanceReport> {
    check_pass_as(pass_as)?;
    let sel = selection(&run, &skip, &expected_failures)?;
    let bytes_io = py.import("io")?.getattr("BytesIO")?;
    let to_bytes = py.import("builtins")?.getattr("bytes")?;
    let dir = tempfile::tempdir().map_err(|e| os_error(py, &e, None))?;
    run_in_process(Mode::Writer, &sel, callable_name(func), |case| {
        let Some(content) = &case.content else {
            return Ok(Answer::Crash("case has no content".into()));
        };
        let array = content
            .to_array()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let array = to_numpy(py, array)?;
        let written = match pass_as {
            "bytes" => func.call1((array,)),
            "path" => {
                let p = dir.path().join(case.file_name());
                let _ = std::fs::remove_file(&p);
                func.call1((p.clone(), array)).and_then(|_| {
                    let b = std::fs::read(&p).map_err(|e| os_error(py, &e, Some(&p)))?;
                    Ok(PyBytes::new(py, &b).into_any())
                })
            }
            _ => {
                let bio = bytes_io.call0()?;
                func.call1((bio.clone(), array))
                    .and_then(|_| bio.call_method0("getvalue"))
            }
        };
        match written {
            Ok(obj) => match to_bytes
                .call1((obj.clone(),))
                .and_then(|b| b.extract::<Vec<u8>>())
            {
                Ok(b) => Ok(Answer::Wrote(b)),
                Err(_) => Ok(Answer::Crash(format!(
                    "returned {}, not bytes",
                    obj.get_type().name()?
                ))),
            },
            Err(e) => Ok(Answer::Rejected(refusal(py, e)?)),
        }
    })
}

/// One fix `fix` applied, as a Python object.
#[pyclass(frozen, get_all, module = "idxkit")]
#[derive(Debug, Clone)]
struct AppliedFix {
    /// The rule of the finding fixed (`IDX501`), or None for the payload
    /// byte swap stated by `assume_byte_order` when no finding asked for it.
    rule: Option<&'static str>,
    /// The rule's name (`likely-little-endian`), or None as for `rule`.
    name: Option<&'static str>,
    /// `safe` (certain) or `unsafe` (a guess).
    applicability: &'static str,
    /// What the fix did.
    description: String,
    /// The finding's byte offset (in the decompressed stream for gzip).
    offset: u64,
    /// The finding's message (or what the caller stated).
    message: String,
}

impl From<&idx::AppliedFix> for AppliedFix {
    fn from(a: &idx::AppliedFix) -> Self {
        AppliedFix {
            rule: a.rule.map(|r| r.code()),
            name: a.rule.map(|r| r.name()),
            applicability: a.fix.applicability.as_str(),
            description: a.fix.description.clone(),
            offset: a.offset,
            message: a.message.clone(),
        }
    }
}

#[pymethods]
impl AppliedFix {
    fn __repr__(&self) -> String {
        format!(
            "AppliedFix(rule={:?}, applicability={:?}, description={:?})",
            self.rule, self.applicability, self.description
        )
    }
    fn __str__(&self) -> String {
        format!(
            "{} [{}] {}",
            self.rule.unwrap_or("-"),
            self.applicability,
            self.description
        )
    }
}

/// What `fix` did to one input: the library's `FixReport`.
#[pyclass(frozen, module = "idxkit")]
struct FixReport {
    report: idx::FixReport,
    path: Option<PathBuf>,
    data: Option<Py<PyBytes>>,
}

#[pymethods]
impl FixReport {
    /// The findings the repair was planned on (for a plain input repaired
    /// without guessing the payload's byte order: the header and length
    /// findings only, no payload lints).
    #[getter]
    fn before(&self) -> Vec<Finding> {
        self.report
            .before
            .findings
            .iter()
            .map(Finding::from)
            .collect()
    }
    /// The fixes applied, in the order they were planned.
    #[getter]
    fn applied(&self) -> Vec<AppliedFix> {
        self.report.applied.iter().map(AppliedFix::from).collect()
    }
    /// The findings that remain: the full validation of the output (of the
    /// input, when nothing was written).
    #[getter]
    fn after(&self) -> Vec<Finding> {
        self.report
            .after
            .findings
            .iter()
            .map(Finding::from)
            .collect()
    }
    /// Bytes of the (decompressed) stream dropped by truncations.
    #[getter]
    fn dropped_bytes(&self) -> u64 {
        self.report.dropped_bytes
    }
    /// True when the output is gzip-compressed.
    #[getter]
    fn compressed_output(&self) -> bool {
        self.report.compressed_output
    }
    /// True when a fix was applied.
    #[getter]
    fn changed(&self) -> bool {
        self.report.changed()
    }
    /// True when no error finding remains.
    #[getter]
    fn ok(&self) -> bool {
        !self.report.after.has_errors()
    }
    /// The path written (a symlink's target for an in-place repair), or
    /// None when nothing was written or the source was bytes.
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.as_ref().map(|p| p.display().to_string())
    }
    /// For a bytes source: the repaired bytes (the input's when nothing was
    /// fixed); None for a path.
    #[getter]
    fn data(&self, py: Python<'_>) -> Option<Py<PyBytes>> {
        self.data.as_ref().map(|d| d.clone_ref(py))
    }
    fn __repr__(&self) -> String {
        format!(
            "FixReport(applied={}, after={}, dropped_bytes={})",
            self.report.applied.len(),
            self.report.after.findings.len(),
            self.report.dropped_bytes
        )
    }
}

fn fix_options(
    unsafe_fixes: bool,
    assume_byte_order: Option<&str>,
    max_decompressed: Option<&Bound<'_, PyAny>>,
) -> PyResult<idx::FixOptions> {
    let order = match assume_byte_order {
        Some(name) => Some(idx::ByteOrder::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "assume_byte_order {name:?}: \"little\", \"big\" or None"
            ))
        })?),
        None => None,
    };
    let base = idx::FixOptions::default();
    let validate = base
        .validate
        .clone()
        .with_max_decompressed(limit_arg(max_decompressed)?);
    Ok(base
        .with_unsafe_fixes(unsafe_fixes)
        .with_assume_byte_order(order)
        .with_validate(validate))
}

/// Repairs a file with `idx-validate --fix`'s atomic file handling: in
/// place when `dest` is None, else into `dest`.
#[pyfunction]
#[pyo3(signature = (path, dest=None, unsafe_fixes=false, assume_byte_order=None, max_decompressed=None))]
fn fix_path(
    py: Python<'_>,
    path: PathBuf,
    dest: Option<PathBuf>,
    unsafe_fixes: bool,
    assume_byte_order: Option<&str>,
    max_decompressed: Option<&Bound<'_, PyAny>>,
) -> PyResult<FixReport> {
    let opts = fix_options(unsafe_fixes, assume_byte_order, max_decompressed)?;
    // the input's own errors (missing, unreadable, a directory) as open()
    // raises them: the repair reports them as text
    let meta = py
        .detach(|| File::open(&path).and_then(|f| f.metadata()))
        .map_err(|e| os_error(py, &e, Some(&path)))?;
    if meta.is_dir() {
        let e = io::Error::from(io::ErrorKind::IsADirectory);
        return Err(os_error(py, &e, Some(&path)));
    }
    let done = py
        .detach(|| idx_validate::repair::repair_file(&path, dest.as_deref(), &opts))
        .map_err(|e| match e {
            // the destination's own error, as `save` raises it: the
            // OSError subclass with errno and filename (the destination)
            idx_validate::repair::RepairError::Write {
                output: Some(e), ..
            } => output_error_noting(
                py,
                &e,
                &format!("; {} was left unchanged", idx_io::escape::path(&path)),
            ),
            // the repair's own message: what failed, on which file, and
            // that the input is unchanged
            e => PyOSError::new_err(e.to_string()),
        })?;
    let written = match done.action {
        idx_validate::repair::Action::Rewritten(p) | idx_validate::repair::Action::WrittenTo(p) => {
            Some(p)
        }
        _ => None,
    };
    Ok(FixReport {
        report: done.report,
        path: written,
        data: None,
    })
}

/// Repairs IDX bytes held in memory; the repaired bytes are in `.data`.
#[pyfunction]
#[pyo3(signature = (data, unsafe_fixes=false, assume_byte_order=None, max_decompressed=None))]
fn fix_buffer(
    py: Python<'_>,
    data: PyReadonlyArray1<'_, u8>,
    unsafe_fixes: bool,
    assume_byte_order: Option<&str>,
    max_decompressed: Option<&Bound<'_, PyAny>>,
) -> PyResult<FixReport> {
    let opts = fix_options(unsafe_fixes, assume_byte_order, max_decompressed)?;
    let bytes = data
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let (report, out) = py
        .detach(|| {
            let mut out = Vec::new();
            idx::repair(io::Cursor::new(bytes), &mut out, &opts).map(|r| (r, out))
        })
        .map_err(|e| match e {
            idx::FixError::Io(e) => os_error(py, &e, None),
            other => IdxError::new_err(other.to_string()),
        })?;
    Ok(FixReport {
        report,
        path: None,
        data: Some(PyBytes::new(py, &out).unbind()),
    })
}

/// A header from a loaded array's element type name and shape (the file's,
/// since `load` is strict).
fn header_of(dtype: &str, shape: &[u32]) -> PyResult<idx::Header> {
    ElementType::from_name(dtype)
        .and_then(|t| idx::Header::new(t, shape.to_vec()))
        .ok_or_else(|| PyValueError::new_err(format!("no IDX header for {dtype} {shape:?}")))
}

/// The dataset rules (spec §11) over an explicit images/labels pair, from
/// the library: each file's header (element type name and dimensions) and
/// the labels' payload as loaded (big-endian bytes, as the file stores
/// them), scanned by the library's `LabelScanner` without reading the file
/// again. Returns the findings with the index of the file each is reported
/// on (0 images, 1 labels).
#[pyfunction]
#[pyo3(signature = (images_name, images_header, labels_name, labels_header, labels_payload, classes=None))]
fn check_pair(
    py: Python<'_>,
    images_name: String,
    images_header: (String, Vec<u32>),
    labels_name: String,
    labels_header: (String, Vec<u32>),
    labels_payload: PyReadonlyArray1<'_, u8>,
    classes: Option<u32>,
) -> PyResult<Vec<(usize, Finding)>> {
    use idx::dataset::{check_dataset, DatasetFile, DatasetOptions, LabelScanner};
    let hi = header_of(&images_header.0, &images_header.1)?;
    let hl = header_of(&labels_header.0, &labels_header.1)?;
    let payload = labels_payload
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let found = py.detach(|| {
        let scan = LabelScanner::new(&hl, classes).map(|mut s| {
            s.feed(payload);
            s.finish()
        });
        let files = [
            DatasetFile {
                path: images_name,
                header: Some(hi),
                labels: None,
                walked: false,
            },
            DatasetFile {
                path: labels_name,
                header: Some(hl),
                labels: scan,
                walked: false,
            },
        ];
        let opts = DatasetOptions {
            classes,
            pairs: vec![(0, 1)],
        };
        check_dataset(&files, &opts)
    });
    Ok(found.iter().map(|(i, f)| (*i, Finding::from(f))).collect())
}

/// The `idx-validate` command (console script), GIL released.
#[pyfunction]
fn run_idx_validate(py: Python<'_>, argv: Vec<OsString>) -> i32 {
    py.detach(|| idx_validate::run(argv).into())
}

/// The `idx` command (console script), GIL released.
#[pyfunction]
fn run_idx(py: Python<'_>, argv: Vec<OsString>) -> i32 {
    py.detach(|| idx_cli::run(argv).into())
}

#[pymodule]
#[pyo3(name = "_native")]
fn idxkit_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NUMPY_MAX_RANK", numpy_limits(py)?.max_rank)?;
    m.add("IdxError", py.get_type::<IdxError>())?;
    m.add("InvalidFileError", py.get_type::<InvalidFileError>())?;
    m.add(
        "UnsupportedDtypeError",
        py.get_type::<UnsupportedDtypeError>(),
    )?;
    m.add("DatasetError", py.get_type::<DatasetError>())?;
    m.add_class::<Finding>()?;
    m.add_class::<Report>()?;
    m.add_class::<CaseResult>()?;
    m.add_class::<ConformanceReport>()?;
    m.add_class::<AppliedFix>()?;
    m.add_class::<FixReport>()?;
    m.add_function(wrap_pyfunction!(load_path, m)?)?;
    m.add_function(wrap_pyfunction!(load_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(parse_header, m)?)?;
    m.add_function(wrap_pyfunction!(stream_plan, m)?)?;
    m.add_function(wrap_pyfunction!(to_native, m)?)?;
    m.add_function(wrap_pyfunction!(save_path, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(check_reader, m)?)?;
    m.add_function(wrap_pyfunction!(check_writer, m)?)?;
    m.add_function(wrap_pyfunction!(fix_path, m)?)?;
    m.add_function(wrap_pyfunction!(fix_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(check_pair, m)?)?;
    m.add_function(wrap_pyfunction!(run_idx_validate, m)?)?;
    m.add_function(wrap_pyfunction!(run_idx, m)?)?;
    Ok(())
}
