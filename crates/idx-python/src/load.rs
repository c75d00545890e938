//! `load`: the one native call of `idxkit.load`, which decides by the kind
//! of source how it is read (a path, a file object, bytes, or a mapping).

use crate::decode::{load_buffer, load_path};
use crate::{file_object, mapped, source};
use pyo3::prelude::*;
use pyo3::types::PyModule;

/// `idxkit.load`: decides by the kind of `source` how it is read. With
/// `mmap`, a read-only view over the mapped payload ([`mapped`]). A
/// path (`str`, `os.PathLike`) is read by the library, in parallel parts
/// straight into the array. A binary file object that `open` returned for
/// a file its name still names is read by that name
/// ([`load_by_name`](crate::file_object::load_by_name)); another seekable
/// one holding one uncompressed IDX file, with `readinto` straight into the
/// array ([`load_into`](crate::file_object::load_into)); any other is read
/// whole, and so is a bytes-like object ([`source::bytes_of`]).
#[pyfunction]
#[pyo3(pass_module, signature = (source, mmap=false, decompress=true, max_decompressed=None, assume_byte_order=None))]
pub(crate) fn load(
    module: &Bound<'_, PyModule>,
    source: &Bound<'_, PyAny>,
    mmap: bool,
    decompress: bool,
    max_decompressed: Option<&Bound<'_, PyAny>>,
    assume_byte_order: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let py = source.py();
    if mmap {
        return mapped::load_mapped(source, decompress, assume_byte_order);
    }
    if source::is_path(source)? {
        return load_path(
            py,
            source.extract()?,
            decompress,
            max_decompressed,
            assume_byte_order,
        );
    }
    if source::is_file_object(source)? {
        let by_name = file_object::load_by_name(
            module,
            source,
            decompress,
            max_decompressed,
            assume_byte_order,
        )?;
        if let Some(a) = by_name {
            return Ok(a);
        }
        if let Some(a) = file_object::load_into(source, decompress, assume_byte_order)? {
            return Ok(a);
        }
    }
    let data = source::bytes_of(source)?;
    load_buffer(
        py,
        data.extract()?,
        decompress,
        max_decompressed,
        assume_byte_order,
    )
}
