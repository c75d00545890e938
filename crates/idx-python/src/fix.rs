//! `fix` and its `FixReport`: the library's repairs, through
//! `idx-validate`'s atomic file handling.

use crate::args::limit_arg;
use crate::errors::{os_error, output_error_noting, IdxError};
use crate::finding::Finding;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::fs::File;
use std::io;
use std::path::PathBuf;

/// One fix `fix` applied, as a Python object.
#[pyclass(frozen, get_all, module = "idxkit")]
#[derive(Debug, Clone)]
pub(crate) struct AppliedFix {
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
pub(crate) struct FixReport {
    report: idx::FixReport,
    path: Option<PathBuf>,
    data: Option<Py<PyBytes>>,
}

#[pymethods]
impl FixReport {
    /// The findings the repair was planned on (for a plain input repaired
    /// with no byte order to decide, neither guessed nor stated nor proved
    /// by expect_range: the header and length findings only, no payload
    /// lints).
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
    severity: Option<&Bound<'_, PyAny>>,
    expect_range: Option<&Bound<'_, PyAny>>,
) -> PyResult<idx::FixOptions> {
    let order = crate::args::order_arg(assume_byte_order)?;
    let base = idx::FixOptions::default();
    let validate = base
        .validate
        .clone()
        .with_limits(limit_arg(max_decompressed)?)
        .with_severity(crate::args::severity_arg(severity)?)
        .with_expect_range(crate::args::range_arg(expect_range)?)
        // the stated order is checked as well as applied, as `--fix
        // --assume-byte-order` checks it
        .with_byte_order(order);
    Ok(base
        .with_unsafe_fixes(unsafe_fixes)
        .with_assume_byte_order(order)
        .with_validate(validate))
}

/// Repairs a file with `idx-validate --fix`'s atomic file handling: in
/// place when `dest` is None, else into `dest`.
fn fix_path(
    py: Python<'_>,
    path: PathBuf,
    dest: Option<PathBuf>,
    opts: &idx::FixOptions,
) -> PyResult<FixReport> {
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
        .detach(|| idx_validate::repair::repair_file(&path, dest.as_deref(), opts))
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
fn fix_buffer(
    py: Python<'_>,
    data: PyReadonlyArray1<'_, u8>,
    opts: &idx::FixOptions,
) -> PyResult<FixReport> {
    let bytes = data
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let (report, out) = py
        .detach(|| {
            let mut out = Vec::new();
            idx::repair(io::Cursor::new(bytes), &mut out, opts).map(|r| (r, out))
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

/// `idxkit.fix`: a path (`str`, `os.PathLike`) is repaired as a file, in
/// place or into `dest`; anything else is bytes (a bytes-like object, or a
/// binary file object read whole), whose repaired copy is the report's
/// `.data`, and `dest` must then be None.
#[pyfunction]
#[pyo3(signature = (source, dest=None, unsafe_fixes=false, assume_byte_order=None, max_decompressed=None, severity=None, expect_range=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn fix(
    source: &Bound<'_, PyAny>,
    dest: Option<&Bound<'_, PyAny>>,
    unsafe_fixes: bool,
    assume_byte_order: Option<&str>,
    max_decompressed: Option<&Bound<'_, PyAny>>,
    severity: Option<&Bound<'_, PyAny>>,
    expect_range: Option<&Bound<'_, PyAny>>,
) -> PyResult<FixReport> {
    let py = source.py();
    let opts = fix_options(
        unsafe_fixes,
        assume_byte_order,
        max_decompressed,
        severity,
        expect_range,
    )?;
    if crate::source::is_path(source)? {
        let dest = dest.map(|d| d.extract::<PathBuf>()).transpose()?;
        return fix_path(py, source.extract()?, dest, &opts);
    }
    if dest.is_some() {
        return Err(PyTypeError::new_err(
            "dest is for a path source; for bytes, the repaired bytes are the report's .data",
        ));
    }
    let data = crate::source::bytes_of(source)?;
    fix_buffer(py, data.extract()?, &opts)
}
