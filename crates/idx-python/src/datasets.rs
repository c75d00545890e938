//! `load_pair`: both files loaded as by `load`, then the library's dataset
//! rules over the pair.

use crate::arrays::idx_type;
use crate::errors::DatasetError;
use crate::finding::Finding;
use crate::source;
use numpy::{PyReadonlyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyModule};

/// `idxkit.load_pair`: loads both files as `load` does (a file object read
/// once, whole, first), then checks the pair by the dataset rules
/// ([`check_pair`]); when one finds an error, raises `DatasetError` with the
/// findings, the file each is about, and whether the pair passes the other
/// way round (swapped).
#[pyfunction]
#[pyo3(pass_module, signature = (images, labels, classes=None, mmap=false, decompress=true, max_decompressed=None, severity=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn load_pair<'py>(
    module: &Bound<'py, PyModule>,
    images: &Bound<'py, PyAny>,
    labels: &Bound<'py, PyAny>,
    classes: Option<&Bound<'py, PyAny>>,
    mmap: bool,
    decompress: bool,
    max_decompressed: Option<&Bound<'py, PyAny>>,
    severity: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let py = module.py();
    let read_once = |s: &Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        if source::is_file_object(s)? {
            source::bytes_of(s)
        } else {
            Ok(s.clone())
        }
    };
    let images = read_once(images)?;
    let labels = read_once(labels)?;
    let load = |s: &Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        crate::load::load(
            module,
            s,
            mmap,
            decompress,
            max_decompressed,
            None,
            severity,
        )
        .map(|a| a.into_bound(py))
    };
    let x = load(&images)?;
    let y = load(&labels)?;
    let classes: Option<u32> = match classes {
        Some(c) if !c.is_none() => Some(c.extract()?),
        _ => None,
    };
    // the label values are those just loaded, as the file stores them
    // (big-endian): the labels file is read once
    let found = check_pair(&images, &x, &labels, &y, classes)?;
    let Some(first) = found
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.severity == idx::Severity::Error)
    else {
        return Ok((x.unbind(), y.unbind()));
    };
    let mut message = first.to_string();
    let swapped = check_pair(&labels, &y, &images, &x, classes)?;
    if !swapped
        .iter()
        .any(|(_, f)| f.severity == idx::Severity::Error)
    {
        message.push_str(
            "; the images and labels look swapped (they form a dataset the other way round): \
             load_pair(images, labels) takes the images first",
        );
    }
    let err = DatasetError::new_err(message);
    let findings: Vec<Finding> = found.iter().map(|(_, f)| Finding::from(f)).collect();
    let files: Vec<usize> = found.iter().map(|(i, _)| *i).collect();
    err.value(py)
        .setattr("findings", PyList::new(py, findings)?)?;
    err.value(py).setattr("files", files)?;
    Err(err)
}

/// How a file is named in dataset findings: its path, or `<images bytes>`.
fn pair_name(source: &Bound<'_, PyAny>, role: &str) -> PyResult<String> {
    if source::is_path(source)? {
        return source
            .py()
            .import("os")?
            .call_method1("fspath", (source,))?
            .extract();
    }
    Ok(format!("<{role} bytes>"))
}

/// The IDX header of a loaded array: its element type and shape (the
/// file's, since `load` is strict).
fn loaded_header(a: &Bound<'_, PyAny>) -> PyResult<idx::Header> {
    let a = a.cast::<PyUntypedArray>()?;
    let dims: Option<Vec<u32>> = a.shape().iter().map(|&d| u32::try_from(d).ok()).collect();
    idx_type(a)
        .zip(dims)
        .and_then(|(t, d)| idx::Header::new(t, d))
        .ok_or_else(|| PyValueError::new_err("no IDX header for the loaded array"))
}

/// The dataset rules (spec §11) over an explicit images/labels pair, from
/// the library: each file's header and the labels' payload as loaded
/// (converted to big-endian bytes, as the file stores them), scanned by the
/// library's `LabelScanner` without reading the file again. Returns the
/// findings with the index of the file each is reported on (0 images, 1
/// labels).
fn check_pair(
    images: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    labels: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    classes: Option<u32>,
) -> PyResult<Vec<(usize, idx::Finding)>> {
    use idx::__private::LabelScanner;
    use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
    let py = x.py();
    let hi = loaded_header(x)?;
    let hl = loaded_header(y)?;
    let big = y.getattr("dtype")?.call_method1("newbyteorder", (">",))?;
    let payload = py
        .import("numpy")?
        .call_method1("ascontiguousarray", (y, big))?
        .call_method1("reshape", (-1,))?
        .call_method1("view", (numpy::dtype::<u8>(py),))?;
    let payload: PyReadonlyArray1<'_, u8> = payload.extract()?;
    let payload = payload
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let images_name = pair_name(images, "images")?;
    let labels_name = pair_name(labels, "labels")?;
    Ok(py.detach(|| {
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
    }))
}
