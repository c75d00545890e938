//! Python exceptions: idxkit's own, and I/O errors as the standard
//! `OSError` subclasses with `errno` and `filename`.

use crate::finding::Finding;
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::io;
use std::path::Path;

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

create_exception!(
    idxkit,
    ByteOrderWarning,
    PyUserWarning,
    "The byte-order test (IDX501, spec 6.1) reads a multi-byte payload as little-endian: a statistical test, not a proof, so the file is decoded as IDX says and this warning is issued (its message has the rule, the score and the hint). `warnings.filterwarnings(\"error\", category=idxkit.ByteOrderWarning)` makes it an exception; `severity={\"IDX501\": \"error\"}` makes load refuse the file with InvalidFileError."
);

/// Issues the warnings a read returned (the byte-order test's IDX501), as
/// [`ByteOrderWarning`]s whose text is the finding's one text form (the
/// library's `Display`, `str(finding)` in Python: `warning[IDX501]: <message>
/// (at offset 0x8, byte 8)`), with the GIL held: `stacklevel` 2 names the line
/// that called the `idxkit` function. A warning the caller's filters make
/// an error is raised (`Err`).
pub(crate) fn warn_findings(py: Python<'_>, findings: &[idx::Finding]) -> PyResult<()> {
    for f in findings {
        let text = std::ffi::CString::new(f.to_string().replace('\0', " "))
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        PyErr::warn(py, py.get_type::<ByteOrderWarning>().as_any(), &text, 2)?;
    }
    Ok(())
}

/// Why loading failed, before it becomes a Python exception.
pub(crate) enum LoadError {
    Invalid(Vec<idx::Finding>),
    Io(io::Error),
}

impl LoadError {
    /// The Python exception; `path` is the file read, if any.
    pub(crate) fn into_py(self, py: Python<'_>, path: Option<&Path>) -> PyErr {
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
pub(crate) fn os_error(py: Python<'_>, e: &io::Error, path: Option<&Path>) -> PyErr {
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
pub(crate) fn output_error(py: Python<'_>, e: &idx_io::OutputError) -> PyErr {
    output_error_noting(py, e, "")
}

/// [`output_error`] with `note` ("; in.idx was left unchanged") after what
/// was being done.
pub(crate) fn output_error_noting(py: Python<'_>, e: &idx_io::OutputError, note: &str) -> PyErr {
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

/// `InvalidFileError` for a read's `findings`: the message is the first
/// one's text (`error[IDX202]: ... (at offset ...)`, as `str(finding)`),
/// `.findings` all of them.
pub(crate) fn invalid_file_error(py: Python<'_>, findings: &[idx::Finding]) -> PyErr {
    let msg = match findings.first() {
        Some(f) => f.to_string(),
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
