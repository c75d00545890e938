//! Arguments shared by several functions (`max_decompressed=`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// `max_decompressed=`: None for the command's default (64 GiB), 0 for no
/// limit, an int of bytes or a size string (`"1GiB"`), parsed as
/// `--max-decompressed` is.
pub(crate) fn limit_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
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
    Ok(idx::ReadOptions::default()
        .with_max_decompressed_setting(setting)
        .max_decompressed())
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
