//! `Finding`: one finding of the `idx` library as a Python object.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One finding of the `idx` library, as a Python object.
#[pyclass(frozen, eq, module = "idxkit")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding {
    /// The rule code, e.g. `IDX202`.
    #[pyo3(get)]
    rule: String,
    /// The rule's name, e.g. `truncated-payload`.
    #[pyo3(get)]
    name: String,
    /// `error`, `warning` or `info`.
    #[pyo3(get)]
    pub(crate) severity: String,
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
    /// IDX501's byte-order test (spec 6.1) as a dict, the same keys and
    /// numbers as idx-validate's JSON `byte_order` (as the message shows
    /// them: `ByteOrderScore::shown`); `None` for other findings.
    #[getter]
    fn byte_order<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(s) = self.score.map(|s| s.shown()) else {
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
