//! `load_pair`'s dataset checks (`check_pair`).

use crate::finding::Finding;
use idx::ElementType;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A header from a loaded array's element type name and shape (the file's,
/// since `load` is strict).
fn header_of(dtype: &str, shape: &[u32]) -> PyResult<idx::Header> {
    ElementType::from_name(dtype)
        .and_then(|t| idx::Header::new(t, shape.to_vec()))
        .ok_or_else(|| PyValueError::new_err(format!("no IDX header for {dtype} {shape:?}")))
}

/// The dataset rules (spec §11) over an explicit images/labels pair, from
/// the library: each file's header (element type name and dimensions) and
/// the labels' payload as loaded (big-endian bytes, as the file stores
/// them), scanned by the library's `LabelScanner` without reading the file
/// again. Returns the findings with the index of the file each is reported
/// on (0 images, 1 labels).
#[pyfunction]
#[pyo3(signature = (images_name, images_header, labels_name, labels_header, labels_payload, classes=None))]
pub(crate) fn check_pair(
    py: Python<'_>,
    images_name: String,
    images_header: (String, Vec<u32>),
    labels_name: String,
    labels_header: (String, Vec<u32>),
    labels_payload: PyReadonlyArray1<'_, u8>,
    classes: Option<u32>,
) -> PyResult<Vec<(usize, Finding)>> {
    use idx::dataset::{check_dataset, DatasetFile, DatasetOptions, LabelScanner};
    let hi = header_of(&images_header.0, &images_header.1)?;
    let hl = header_of(&labels_header.0, &labels_header.1)?;
    let payload = labels_payload
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let found = py.detach(|| {
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
    });
    Ok(found.iter().map(|(i, f)| (*i, Finding::from(f))).collect())
}
