//! `load`: the one native call of `idxkit.load`, which decides by the kind
//! of source how it is read (a path, a file object, bytes, or a mapping).

use crate::decode::{load_buffer, load_path, load_slice, read_options};
use crate::{file_object, mapped, source};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyModule};

/// `idxkit.load`: decides by the kind of `source` how it is read. With
/// `mmap`, a read-only view over the mapped payload ([`mapped`]). A
/// path (`str`, `os.PathLike`) is read by the library, in parallel parts
/// straight into the array. A binary file object that `open` returned for
/// a file its name still names is read by that name
/// ([`load_by_name`](crate::file_object::load_by_name)); another seekable
/// one holding one uncompressed IDX file, with `readinto` straight into the
/// array ([`load_into`](crate::file_object::load_into)); any other is read
/// whole, and so is a bytes-like object ([`source::bytes_of`]; a `bytes`
/// object is read where it lies). Every path
/// issues the read's warnings (the byte-order test's IDX501, as
/// `idxkit.ByteOrderWarning`) after decoding, and refuses the file when
/// `severity` makes one an error.
#[pyfunction]
#[pyo3(pass_module, signature = (source, mmap=false, decompress=true, max_decompressed=None, assume_byte_order=None, severity=None))]
pub(crate) fn load(
    module: &Bound<'_, PyModule>,
    source: &Bound<'_, PyAny>,
    mmap: bool,
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
    assume_byte_order: Option<&str>,
    severity: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let py = source.py();
    let opts = read_options(decompress, max_decompressed, assume_byte_order, severity)?;
    if mmap {
        return mapped::load_mapped(source, &opts);
    }
    if let Ok(b) = source.cast_exact::<PyBytes>() {
        // immutable: read where it lies, with no array over it and no
        // question asked of other kinds of source
        return load_slice(py, b.as_bytes(), &opts);
    }
    if source::is_path(source)? {
        return load_path(py, source.extract()?, &opts);
    }
    if source::is_file_object(source)? {
        let by_name = file_object::load_by_name(
            module,
            source,
            decompress,
            max_decompressed,
            assume_byte_order,
            severity,
        )?;
        if let Some(a) = by_name {
            return Ok(a);
        }
        if let Some(a) = file_object::load_into(source, &opts)? {
            return Ok(a);
        }
    }
    let data = source::bytes_of(source)?;
    load_buffer(py, data.extract()?, &opts)
}
