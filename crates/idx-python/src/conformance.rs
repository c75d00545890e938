//! `check_reader` and `check_writer`: the conformance corpus run against
//! Python callables.

use crate::arrays::{idx_type, numpy_holds, to_numpy};
use crate::errors::os_error;
use idx_conformance::cases::Case;
use idx_conformance::content::Content;
use idx_conformance::runner::{self, Answer, Mode};
use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// One case of a conformance run.
#[pyclass(frozen, get_all, module = "idxkit")]
#[derive(Debug, Clone)]
pub(crate) struct CaseResult {
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
pub(crate) struct ConformanceReport {
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
    /// The cases that failed unexpectedly (`ok` is `not failures`), each
    /// with its `status` and `detail`: the shape of a property-based
    /// check's `PropertyReport.failures`.
    #[getter]
    fn failures(&self) -> Vec<CaseResult> {
        self.results()
            .into_iter()
            .filter(|r| r.failed && !r.expected_failure)
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
/// this module (a test in `idx-conformance` proves them equal to `corpus/`).
fn corpus() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(idx_conformance::cases::all)
}

/// Why no numpy array can hold `case`'s content (a rank over the running
/// numpy's limit, or a shape whose non-zero dimensions multiply past
/// numpy's size limit): the case is then skipped, with this reason, as the
/// runner skips a case that does not apply.
fn numpy_cannot_hold(case: &Case) -> Option<String> {
    let content = case.content.as_ref()?;
    let dims: Vec<usize> = content.shape.iter().map(|&d| d as usize).collect();
    if numpy_holds(&dims, content.dtype) {
        return None;
    }
    Some(if dims.len() > crate::arrays::numpy_max_rank() {
        format!(
            "numpy arrays hold at most {} dimensions; this one has {}",
            crate::arrays::numpy_max_rank(),
            dims.len()
        )
    } else {
        "numpy cannot make an array of this shape (its non-zero dimensions multiply past numpy's size limit)".into()
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
    let mut unheld = Vec::new();
    for case in sel.cases(corpus(), mode, &mut skipped) {
        if let Some(reason) = numpy_cannot_hold(case) {
            unheld.push(runner::Skipped {
                id: case.id.clone(),
                reason,
            });
            continue;
        }
        let t = Instant::now();
        let answer = attempt(case)?;
        let elapsed = t.elapsed();
        let (status, detail) = match mode {
            Mode::Reader => runner::judge_reader(case, &answer, Duration::ZERO),
            _ => runner::judge_writer(case, &answer, Duration::ZERO),
        };
        outcomes.push(sel.outcome(case, status, detail, elapsed));
    }
    skipped.extend(unheld);
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
    let mut bytes = match idx::__private::encode_header(dtype, &dims) {
        Ok(h) => h,
        Err(e) => return Ok(Answer::Crash(e.to_string())),
    };
    bytes.extend_from_slice(&payload);
    // structure only (`idx::parse` applies no byte-order verdict): the
    // array returned is what is judged, so a reader that returns the
    // values IDX says for a payload the byte-order test calls
    // little-endian (the `impl-little-endian-*` cases) is `accepted`, as
    // `idx-conformance test-reader` says, never a crash
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
pub(crate) fn check_reader(
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
    run_in_process(Mode::Reader, &sel, callable_name(func), |case| {
        // the case's file as the runner gives it to an adapter: named
        // input.idx[.gz] alone in a fresh folder, nothing of the case's ID
        // or verdict in the path (removed after the call)
        let staged = match pass_as {
            "path" => Some(runner::stage_bytes(case).map_err(|e| os_error(py, &e, None))?),
            _ => None,
        };
        let arg = match (pass_as, &staged) {
            (_, Some(s)) => s.path().into_pyobject(py)?.into_any(),
            ("bytes", None) => PyBytes::new(py, &case.bytes).into_any(),
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
pub(crate) fn check_writer(
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
