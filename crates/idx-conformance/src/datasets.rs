//! Dataset cases (spec §11): small directories of files taken together, each
//! with the exact findings of every file. Like the single-file recipes,
//! every expected finding is stated by hand.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One dataset case: a directory `datasets/<id>/` checked as a walk
/// (`idx-validate [--classes N] corpus/datasets/<id>`).
#[derive(Debug, Clone)]
pub struct DatasetCase {
    /// Stable ID, never renamed once published; also the directory name.
    pub id: &'static str,
    /// No error finding in any file (warnings allowed).
    pub valid: bool,
    /// One sentence.
    pub description: &'static str,
    /// `--classes N`, if the findings assume it.
    pub classes: Option<u32>,
    /// The files: name and bytes.
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// Exact expected findings: `(file, rule, offset, length)`, per file
    /// ordered by offset then code; per-file rules included.
    pub findings: Vec<(&'static str, &'static str, u64, u64)>,
}

impl DatasetCase {
    /// The rule codes the case exercises.
    pub fn rules(&self) -> Vec<&'static str> {
        let mut r: Vec<&'static str> = self.findings.iter().map(|f| f.1).collect();
        r.sort_unstable();
        r.dedup();
        r
    }
}

/// An IDX file: u8 unless `code` says otherwise, the dimensions, the payload.
fn idx(code: u8, dims: &[u32], payload: &[u8]) -> Vec<u8> {
    let mut b = vec![0, 0, code, dims.len() as u8];
    for d in dims {
        b.extend_from_slice(&d.to_be_bytes());
    }
    b.extend_from_slice(payload);
    b
}

fn images(n: u32, rows: u32, cols: u32) -> Vec<u8> {
    let len = (n * rows * cols) as usize;
    let payload: Vec<u8> = (0..len).map(|i| (i * 37 % 256) as u8).collect();
    idx(0x08, &[n, rows, cols], &payload)
}

fn labels(values: &[u8]) -> Vec<u8> {
    idx(0x08, &[values.len() as u32], values)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    crate::cases::gzip_stored(bytes)
}

/// Every dataset case.
pub fn all() -> Vec<DatasetCase> {
    // QMNIST-style extended labels: i32 [2, 8], column 0 the class, the
    // other columns writer data far outside any class range
    let mut qmnist = Vec::new();
    for (class, writer) in [(0i32, 2100), (1, 3117)] {
        for v in [class, 4, writer, 7, 0, 0, 1, 2] {
            qmnist.extend_from_slice(&v.to_be_bytes());
        }
    }
    vec![
        DatasetCase {
            id: "valid-pairs-mnist-layout",
            valid: true,
            description: "MNIST's four file names: two splits, each images with labels, counts and item shapes equal",
            classes: Some(3),
            files: vec![
                ("train-images-idx3-ubyte", images(3, 2, 2)),
                ("train-labels-idx1-ubyte", labels(&[0, 1, 2])),
                ("t10k-images-idx3-ubyte", images(2, 2, 2)),
                ("t10k-labels-idx1-ubyte", labels(&[2, 0])),
            ],
            findings: vec![],
        },
        DatasetCase {
            id: "valid-pairs-qmnist-extended-labels",
            valid: true,
            description: "QMNIST extended labels, i32 [N, 8], pair by dimension 0; only column 0 is a class",
            classes: Some(2),
            files: vec![
                ("qmnist-train-images-idx3-ubyte", images(2, 2, 2)),
                ("qmnist-train-labels-idx2-int", idx(0x0c, &[2, 8], &qmnist)),
            ],
            findings: vec![],
        },
        DatasetCase {
            id: "invalid-pairs-count-mismatch",
            valid: false,
            description: "3 images but 2 labels: dimension 0 differs, located in the labels file with the images file related",
            classes: None,
            files: vec![
                ("train-images-idx3-ubyte", images(3, 2, 2)),
                ("train-labels-idx1-ubyte", labels(&[0, 1])),
            ],
            findings: vec![("train-labels-idx1-ubyte", "IDX801", 4, 4)],
        },
        DatasetCase {
            id: "invalid-pairs-count-mismatch-emnist-gz",
            valid: false,
            description: "an EMNIST-style multi-word prefix with mixed separators, gzipped, still pairs: 2 images, 1 label",
            classes: None,
            files: vec![
                (
                    "emnist-balanced-train-images-idx3-ubyte.gz",
                    gzip(&images(2, 2, 2)),
                ),
                (
                    "emnist_balanced_train_labels.idx1-ubyte.gz",
                    gzip(&labels(&[0])),
                ),
            ],
            findings: vec![("emnist_balanced_train_labels.idx1-ubyte.gz", "IDX801", 4, 4)],
        },
        DatasetCase {
            id: "invalid-pairs-labels-float",
            valid: false,
            description: "a labels file holding f32 values is not integer classes",
            classes: None,
            files: vec![
                ("train-images-idx3-ubyte", images(2, 2, 2)),
                (
                    "train-labels-idx1-float",
                    idx(0x0d, &[2], &[0, 0, 0, 0, 0x3f, 0x80, 0, 0]),
                ),
            ],
            findings: vec![("train-labels-idx1-float", "IDX802", 2, 1)],
        },
        DatasetCase {
            id: "invalid-pairs-labels-rank3",
            valid: false,
            description: "a labels file of rank 3 (an images file under a labels name)",
            classes: None,
            files: vec![
                ("train-images-idx3-ubyte", images(2, 2, 2)),
                ("train-labels-idx3-ubyte", images(2, 2, 2)),
            ],
            findings: vec![("train-labels-idx3-ubyte", "IDX802", 3, 1)],
        },
        DatasetCase {
            id: "invalid-pairs-label-out-of-range",
            valid: false,
            description: "with --classes 3, the label 5 (third element, offset 10) is out of range",
            classes: Some(3),
            files: vec![
                ("train-images-idx3-ubyte", images(4, 2, 2)),
                ("train-labels-idx1-ubyte", labels(&[0, 1, 5, 2])),
            ],
            findings: vec![("train-labels-idx1-ubyte", "IDX803", 10, 1)],
        },
        DatasetCase {
            id: "valid-pairs-label-gap",
            valid: true,
            description: "without --classes, labels 0 1 3 3 never use 2: a warning over the labels payload",
            classes: None,
            files: vec![
                ("train-images-idx3-ubyte", images(4, 2, 2)),
                ("train-labels-idx1-ubyte", labels(&[0, 1, 3, 3])),
            ],
            findings: vec![("train-labels-idx1-ubyte", "IDX804", 8, 4)],
        },
        DatasetCase {
            id: "invalid-pairs-split-mismatch",
            valid: false,
            description: "training items are 2x3, test items 2x2: dimension 2 of the test images differs",
            classes: None,
            files: vec![
                ("train-images-idx3-ubyte", images(2, 2, 3)),
                ("train-labels-idx1-ubyte", labels(&[0, 1])),
                ("t10k-images-idx3-ubyte", images(2, 2, 2)),
                ("t10k-labels-idx1-ubyte", labels(&[1, 0])),
            ],
            findings: vec![("t10k-images-idx3-ubyte", "IDX805", 12, 4)],
        },
        DatasetCase {
            id: "valid-pairs-lone-images",
            valid: true,
            description: "an images file with no labels file beside it: a warning about the file as a whole",
            classes: None,
            files: vec![("train-images-idx3-ubyte", images(2, 2, 2))],
            findings: vec![("train-images-idx3-ubyte", "IDX806", 0, 0)],
        },
    ]
}

/// The manifest of one case.
pub fn manifest(c: &DatasetCase) -> Value {
    let findings: Vec<Value> = c
        .findings
        .iter()
        .map(|&(file, rule, offset, length)| {
            json!({"file": file, "rule": rule, "offset": offset, "length": length})
        })
        .collect();
    let mut files: Vec<&str> = c.files.iter().map(|f| f.0).collect();
    files.sort_unstable();
    json!({
        "id": c.id,
        "verdict": if c.valid { "valid" } else { "invalid" },
        "description": c.description,
        "directory": format!("datasets/{}", c.id),
        "files": files,
        "classes": c.classes,
        "rules": c.rules(),
        "findings": findings,
    })
}

/// Every generated file of the dataset cases, relative to the corpus root.
pub fn files(cases: &[DatasetCase]) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for c in cases {
        let dir = PathBuf::from("datasets");
        for (name, bytes) in &c.files {
            out.insert(dir.join(c.id).join(name), bytes.clone());
        }
        out.insert(
            dir.join(format!("{}.json", c.id)),
            crate::json::to_text(&manifest(c)).into_bytes(),
        );
    }
    out
}
