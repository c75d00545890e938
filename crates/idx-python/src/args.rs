//! Arguments shared by several functions (`max_decompressed=`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// `max_decompressed=`: None for the command's default (64 GiB), 0 for no
/// limit, an int of bytes or a size string (`"1GiB"`), parsed as
/// `--max-decompressed` is.
pub(crate) fn limit_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<idx::Limits> {
    let setting = match v {
        None => None,
        Some(v) if v.is_none() => None,
        Some(v) => Some(if let Ok(s) = v.cast::<PyString>() {
            idx_io::size::parse_size(&s.to_cow()?)
                .map_err(|e| PyValueError::new_err(format!("max_decompressed: {e}")))?
        } else {
            v.extract::<u64>().map_err(|_| {
                PyValueError::new_err(
                    "max_decompressed: a number of bytes (0: no limit), a size such as \"1GiB\", or None",
                )
            })?
        }),
    };
    Ok(idx::Limits::from_setting(setting))
}

/// `assume_byte_order=`: None, `"little"` or `"big"` (spec 6.1: the byte
/// order the caller states for the payload).
pub(crate) fn order_arg(v: Option<&str>) -> PyResult<Option<idx::ByteOrder>> {
    match v {
        None => Ok(None),
        Some(name) => idx::ByteOrder::from_name(name).map(Some).ok_or_else(|| {
            PyValueError::new_err(format!(
                "assume_byte_order {name:?}: \"little\", \"big\" or None"
            ))
        }),
    }
}

/// `severity=`: per-rule severity overrides (`idx-validate --severity`):
/// None, a mapping of rule (code or name) to severity (`{"IDX501":
/// "error"}`), or the command's string (`"IDX501=error"`, pairs separated
/// by commas). Parsed by the library ([`idx::Severities::from_pairs`], as
/// the command's flag and configuration table are): an unknown rule
/// or severity, or a rule whose findings are errors, raises `ValueError`
/// with its message.
pub(crate) fn severity_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<idx::Severities> {
    let invalid = |e: String| PyValueError::new_err(format!("severity: {e}"));
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(idx::Severities::default());
    };
    if let Ok(s) = v.cast::<PyString>() {
        return s.to_cow()?.parse().map_err(invalid);
    }
    let mapping = v.cast::<pyo3::types::PyMapping>().map_err(|_| {
        PyValueError::new_err(
            "severity: a mapping of rule to severity ({\"IDX501\": \"error\"}), a string (\"IDX501=error\") or None",
        )
    })?;
    let mut pairs: Vec<(String, String)> = Vec::new();
    for item in mapping.items()?.try_iter()? {
        pairs.push(item?.extract().map_err(|_| {
            PyValueError::new_err(
                "severity: each rule and severity is a str ({\"IDX501\": \"error\"})",
            )
        })?);
    }
    // the one parser of overrides: the command's and the configuration
    // table's
    idx::Severities::from_pairs(pairs.iter().map(|(r, s)| (r.as_str(), s.as_str())))
        .map_err(invalid)
}

/// `expect_range=`: the inclusive range every element of an i16 or i32
/// payload lies in (`idx-validate --expect-range LO..HI`): None, a
/// `(lo, hi)` pair of ints, or the command's string (`"0..1023"`, parsed as
/// the command parses it). A range the payload's big-endian reading leaves
/// while its little-endian reading stays inside proves the byte order: an
/// IDX501 error.
pub(crate) fn range_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(i64, i64)>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if let Ok(s) = v.cast::<PyString>() {
        return idx_validate::config::parse_range(&s.to_cow()?)
            .map(Some)
            .map_err(|e| PyValueError::new_err(format!("expect_range: {e}")));
    }
    let (lo, hi): (i64, i64) = v.extract().map_err(|_| {
        PyValueError::new_err("expect_range: a (lo, hi) pair of ints, a string \"LO..HI\" or None")
    })?;
    // checked as the command checks `--expect-range LO..HI`
    idx_validate::config::parse_range(&format!("{lo}..{hi}"))
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("expect_range: {e}")))
}
