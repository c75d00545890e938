//! `validate` and its `Report`.

use crate::args::limit_arg;
use crate::arrays::{numpy_dtype, NATIVE};
use crate::errors::os_error;
use crate::finding::Finding;
use idx_validate::check::{self, Checked, FileResult, Settings, Source};
use idx_validate::render;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

/// The result of validating one input, as `idx-validate` sees it.
#[pyclass(frozen, module = "idxkit")]
pub(crate) struct Report {
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
    fn dtype<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.checked()
            .and_then(|c| c.report.header.as_ref())
            .map(|h| numpy_dtype(py, h.dtype(), NATIVE))
            .transpose()
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

/// Validates `source` exactly as `idx-validate` does (`idx_validate::check`:
/// gzip decompressed within the limit, every finding kept), then applies
/// `select`/`ignore` as the command does
/// (`idx_validate::config::filter_result`). A path (`str`,
/// `os.PathLike`) is read as a file; anything else is bytes (a bytes-like
/// object, or a binary file object read whole).
#[pyfunction]
#[pyo3(signature = (source, expect_dtype=None, expect_shape=None, select=None, ignore=None, max_decompressed=None, assume_byte_order=None, severity=None, expect_range=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn validate(
    source: &Bound<'_, PyAny>,
    expect_dtype: Option<&str>,
    expect_shape: Option<&Bound<'_, PyAny>>,
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    max_decompressed: Option<&Bound<'_, PyAny>>,
    assume_byte_order: Option<&str>,
    severity: Option<&Bound<'_, PyAny>>,
    expect_range: Option<&Bound<'_, PyAny>>,
) -> PyResult<Report> {
    let py = source.py();
    let (path, data): (Option<PathBuf>, Option<PyReadonlyArray1<'_, u8>>) =
        if crate::source::is_path(source)? {
            (Some(source.extract()?), None)
        } else {
            (None, Some(crate::source::bytes_of(source)?.extract()?))
        };
    // the one verdict, as the command and every reader give it
    let stated = crate::args::order_arg(assume_byte_order)?;
    let expect_dtype = expect_dtype
        .map(idx_validate::config::parse_dtype)
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("expect_dtype: {e}")))?;
    let expect_shape = expect_shape.map(parse_expect_shape).transpose()?;
    let filter = idx_validate::config::RuleFilter {
        select: rule_selectors(select)?,
        ignore: rule_selectors(ignore)?,
    };
    let settings = Settings {
        options: idx::Options::default()
            .with_decompress(true)
            .with_limits(limit_arg(max_decompressed)?)
            .with_byte_order(stated)
            .with_severity(crate::args::severity_arg(severity)?)
            .with_expect_range(crate::args::range_arg(expect_range)?)
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
