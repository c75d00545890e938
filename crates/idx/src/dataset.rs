//! Dataset rules (spec §11): checks about several files together, an images
//! file with its labels file and a training split with its test split.
//!
//! Files are paired by the MNIST naming convention
//! (`<prefix>[-._]images[-._]idx<R>[-._]<word>[.gz]` with
//! `<prefix>[-._]labels[-._]idx<R>[-._]<word>[.gz]` in the same directory)
//! or explicitly. The caller gives each file's path, its header (from
//! validation) and, for labels files, a [`LabelScan`] of the values; the
//! findings come back per file, in the usual data model, with
//! the `related` field of [`Finding`] naming the other file of a pair.
//!
//! Like the rest of the library this reads no file by name: the scan takes
//! a reader.

use crate::finding::{Finding, Related};
use crate::header::Header;
pub use crate::label_scan::LabelScan;
use crate::rules::Rule;
pub(crate) mod naming;
use naming::{dataset_name, role, DatasetName, Role, Split};

/// One file of a dataset check.
///
/// ```
/// use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
///
/// // what validation gives: the header, and for labels their values
/// let labels = idx::to_bytes(&idx::Array::from_vec(vec![4], vec![0u8, 1, 2, 1])?)?;
/// let report = idx::validate_with(&labels, &idx::Options::default().with_scan_labels(Some(None)));
/// let file = DatasetFile {
///     path: "mnist/train-labels-idx1-ubyte".to_string(),
///     header: report.header,
///     labels: report.labels,
///     walked: false,
/// };
/// assert!(check_dataset(&[file], &DatasetOptions::default()).is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct DatasetFile {
    /// The path as the user sees it (`/`-separated); its directory and name
    /// drive the pairing.
    pub path: String,
    /// The header, when validation could read one.
    pub header: Option<Header>,
    /// For a labels file: its values.
    pub labels: Option<LabelScan>,
    /// Found by walking a directory (only those get the lone-file warning).
    pub walked: bool,
}

/// What to check beyond the names.
///
/// ```
/// use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
///
/// // names outside the convention, paired explicitly (images, labels);
/// // a label 10 where there are 10 classes (0 to 9)
/// let images = idx::to_bytes(&idx::Array::from_vec(vec![3, 1, 1], vec![0u8; 3])?)?;
/// let labels = idx::to_bytes(&idx::Array::from_vec(vec![3], vec![0u8, 10, 3])?)?;
/// let scan = idx::Options::default().with_scan_labels(Some(Some(10)));
/// let file = |path: &str, report: idx::Report| DatasetFile {
///     path: path.to_string(),
///     header: report.header,
///     labels: report.labels,
///     ..DatasetFile::default()
/// };
/// let files = [
///     file("x.idx", idx::validate(&images)),
///     file("y.idx", idx::validate_with(&labels, &scan)),
/// ];
/// let checks = DatasetOptions { classes: Some(10), pairs: vec![(0, 1)] };
/// let found = check_dataset(&files, &checks);
/// let (i, f) = &found[0];
/// assert_eq!((*i, f.rule.code(), f.offset), (1, "IDX803", 9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct DatasetOptions {
    /// Labels must lie in `0..classes` (IDX803); without it, gaps in the
    /// observed `0..=max` are a warning (IDX804).
    pub classes: Option<u32>,
    /// Explicit `(images, labels)` pairs, as indices into the files. A file
    /// in an explicit pair is not paired by name.
    pub pairs: Vec<(usize, usize)>,
}

/// A finding for the file at an index.
///
/// ```
/// use idx::dataset::{check_dataset, DatasetFile, DatasetFinding, DatasetOptions};
///
/// let file = |path: &str, dims| DatasetFile {
///     path: path.to_string(),
///     header: idx::Header::new(idx::ElementType::U8, dims),
///     ..DatasetFile::default()
/// };
/// // 5 images, 4 labels
/// let files = [file("a-images-idx3-ubyte", vec![5, 2, 2]), file("a-labels-idx1-ubyte", vec![4])];
/// let found: Vec<DatasetFinding> = check_dataset(&files, &DatasetOptions::default());
/// let (file, finding) = &found[0];
/// assert_eq!((*file, finding.rule.name()), (1, "pair-count-mismatch"));
/// ```
pub type DatasetFinding = (usize, Finding);

fn dir_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

fn related(path: &str, offset: u64, length: u64) -> Related {
    Related {
        path: path.to_string(),
        offset,
        length,
    }
}

/// The dataset findings for `files`, each with the index of the file it is
/// reported on, ordered by file then offset.
///
/// ```
/// use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
///
/// // a training split of 2x2 images and a test split of 3x3 images
/// let file = |path: &str, dims| DatasetFile {
///     path: path.to_string(),
///     header: idx::Header::new(idx::ElementType::U8, dims),
///     ..DatasetFile::default()
/// };
/// let files = [
///     file("train-images-idx3-ubyte", vec![6, 2, 2]),
///     file("t10k-images-idx3-ubyte", vec![2, 3, 3]),
/// ];
/// let found = check_dataset(&files, &DatasetOptions::default());
/// let codes: Vec<_> = found.iter().map(|(i, f)| (*i, f.rule.code())).collect();
/// assert!(codes.contains(&(1, "IDX805")), "{codes:?}"); // split-mismatch
/// ```
pub fn check_dataset(files: &[DatasetFile], opts: &DatasetOptions) -> Vec<DatasetFinding> {
    let names: Vec<Option<DatasetName>> = files.iter().map(|f| dataset_name(&f.path)).collect();
    let explicit = |i: usize| opts.pairs.iter().any(|&(a, b)| a == i || b == i);
    let mut pairs: Vec<(usize, usize)> = opts.pairs.clone();
    let mut paired = vec![false; files.len()];
    for &(a, b) in &pairs {
        paired[a] = true;
        paired[b] = true;
    }
    // pair by name: same directory and prefix; prefer the same compression
    for (i, n) in names.iter().enumerate() {
        let Some(n) = n.as_ref().filter(|n| n.role == Role::Images) else {
            continue;
        };
        if explicit(i) {
            continue;
        }
        let candidates: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(j, m)| {
                m.as_ref().is_some_and(|m| {
                    m.role == Role::Labels
                        && m.prefix == n.prefix
                        && !explicit(*j)
                        && dir_of(&files[*j].path) == dir_of(&files[i].path)
                })
            })
            .map(|(j, _)| j)
            .collect();
        let pick = candidates
            .iter()
            .copied()
            .find(|&j| names[j].as_ref().is_some_and(|m| m.gzip == n.gzip))
            .or_else(|| candidates.first().copied());
        if let Some(j) = pick {
            pairs.push((i, j));
            paired[i] = true;
            for &j in &candidates {
                paired[j] = true;
            }
        }
    }
    let mut out = Vec::new();
    for &(im, lb) in &pairs {
        out.extend(count_mismatch(files, im, lb));
    }
    for (i, f) in files.iter().enumerate() {
        if role(&f.path, &opts.pairs, i) == Some(Role::Labels) {
            out.extend(label_findings(f, opts).into_iter().map(|x| (i, x)));
        }
    }
    out.extend(split_mismatch(files, &names));
    for (i, f) in files.iter().enumerate() {
        if f.walked && !paired[i] {
            if let Some(n) = &names[i] {
                out.push((i, lone(f, n)));
            }
        }
    }
    out.sort_by(|(a, x), (b, y)| (a, x.offset, x.rule).cmp(&(b, y.offset, y.rule)));
    out
}

fn count_mismatch(files: &[DatasetFile], im: usize, lb: usize) -> Option<DatasetFinding> {
    let (fi, fl) = (&files[im], &files[lb]);
    let (hi, hl) = (fi.header.as_ref()?, fl.header.as_ref()?);
    let (&ni, &nl) = (hi.dims().first()?, hl.dims().first()?);
    if ni == nl {
        return None;
    }
    let f = Finding::new(
        Rule::PairCountMismatch,
        4,
        4,
        format!(
            "the labels file holds {} but its images file {} holds {}",
            items(nl),
            fi.path,
            items(ni)
        ),
    )
    .expected(format!("{ni} (dimension 0 of {})", fi.path))
    .found(nl.to_string())
    .hint(if nl < ni {
        "labels are missing (or the images file holds extra items): the two files of a pair must hold one label per image, in order"
    } else {
        "images are missing (or the labels file holds extra items): the two files of a pair must hold one label per image, in order"
    })
    .related(related(&fi.path, 4, 4));
    Some((lb, f))
}

fn items(n: u32) -> String {
    idx_text::plural::count(u64::from(n), "item")
}

fn label_findings(f: &DatasetFile, opts: &DatasetOptions) -> Vec<Finding> {
    let Some(h) = &f.header else {
        return vec![];
    };
    let mut out = Vec::new();
    if h.dtype().is_float() {
        out.push(
            Finding::new(
                Rule::LabelsNotInteger,
                2,
                1,
                format!("the labels file holds {} values, not integer classes", h.dtype()),
            )
            .expected("an integer type (u8, i8, i16 or i32)")
            .found(h.dtype().to_string())
            .hint("labels are class numbers: write them as u8 (or i32 for QMNIST-style extended labels)"),
        );
    }
    if !matches!(h.rank(), 1 | 2) || (h.rank() == 2 && h.dims()[1] == 0) {
        out.push(
            Finding::new(
                Rule::LabelsNotInteger,
                3,
                1,
                format!("the labels file has rank {}, not 1", h.rank()),
            )
            .expected("rank 1 (one label per item), or rank 2 [N, K] with the class in column 0 (QMNIST)")
            .found(format!("rank {}", h.rank()))
            .hint("is this an images file named as labels? a labels file holds one class number per item"),
        );
    }
    let Some(s) = &f.labels else {
        return out;
    };
    if let Some((offset, v)) = s.first_out_of_range {
        let size = s.header.dtype().size() as u64;
        let range = match opts.classes {
            Some(c) => format!("0..{}", c.saturating_sub(1)),
            None => "0 or more".into(),
        };
        out.push(
            Finding::new(
                Rule::LabelOutOfRange,
                offset,
                size,
                format!(
                    "{} {} outside the classes {range}; the first is {v}",
                    idx_text::plural::count(s.out_of_range, "label"),
                    idx_text::plural::verb(s.out_of_range, "is", "are")
                ),
            )
            .expected(format!("a class in {range}"))
            .found(v.to_string())
            .hint("check --classes and the labels' element type and byte order; a value far out of range suggests misread bytes"),
        );
    } else if opts.classes.is_none() {
        if let (Some(gaps), Some((_, max))) = (s.gaps(), s.min_max) {
            if !gaps.is_empty() {
                let shown: Vec<String> = gaps.iter().take(8).map(i64::to_string).collect();
                let more = if gaps.len() > 8 { ", ..." } else { "" };
                let start = s.header.header_len() as u64;
                out.push(
                    Finding::new(
                        Rule::LabelGap,
                        start,
                        s.header.payload_len(),
                        format!(
                            "the labels run from 0 to {max} but {} never occur{}: {}{more}",
                            idx_text::plural::count(gaps.len() as u64, "value"),
                            idx_text::plural::verb(gaps.len() as u64, "s", ""),
                            shown.join(", ")
                        ),
                    )
                    .expected(format!("every class in 0..{max}"))
                    .found(format!("missing {}{more}", shown.join(", ")))
                    .hint("a subset of the classes, or a wrong label file? pass --classes N to check against the real number of classes"),
                );
            }
        }
    }
    out
}

fn split_mismatch(files: &[DatasetFile], names: &[Option<DatasetName>]) -> Vec<DatasetFinding> {
    let mut out = Vec::new();
    for (t, nt) in names.iter().enumerate() {
        let Some(nt) = nt
            .as_ref()
            .filter(|n| n.role == Role::Images && n.split == Some(Split::Test))
        else {
            continue;
        };
        let Some(ht) = &files[t].header else { continue };
        // the training images of the same dataset, preferring the same
        // compression (a folder may hold both x.gz and x)
        let trains: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(r, nr)| {
                nr.as_ref().is_some_and(|nr| {
                    nr.role == Role::Images
                        && nr.split == Some(Split::Train)
                        && nr.dataset == nt.dataset
                        && files[*r].header.is_some()
                        && dir_of(&files[*r].path) == dir_of(&files[t].path)
                })
            })
            .map(|(r, _)| r)
            .collect();
        let pick = trains
            .iter()
            .copied()
            .find(|&r| names[r].as_ref().is_some_and(|n| n.gzip == nt.gzip))
            .or_else(|| trains.first().copied());
        if let Some(r) = pick {
            if let Some(hr) = &files[r].header {
                if let Some(f) = item_mismatch(hr, ht, &files[r].path) {
                    out.push((t, f));
                }
            }
        }
    }
    out
}

fn item_shape(h: &Header) -> String {
    let dims: Vec<String> = h.dims().iter().skip(1).map(u32::to_string).collect();
    format!("{} [*, {}]", h.dtype(), dims.join(", "))
}

fn item_mismatch(train: &Header, test: &Header, train_path: &str) -> Option<Finding> {
    let (offset, length) = if train.dtype() != test.dtype() {
        (2, 1)
    } else if train.rank() != test.rank() {
        (3, 1)
    } else {
        let k = (1..test.rank()).find(|&k| train.dims()[k] != test.dims()[k])?;
        (4 + 4 * k as u64, 4)
    };
    Some(
        Finding::new(
            Rule::SplitMismatch,
            offset,
            length,
            format!(
                "the test images are {} but the training images {train_path} are {}",
                item_shape(test),
                item_shape(train)
            ),
        )
        .expected(item_shape(train))
        .found(item_shape(test))
        .hint("a model trained on one split cannot take items of another shape or type: regenerate one split like the other")
        .related(related(train_path, offset, length)),
    )
}

fn lone(f: &DatasetFile, n: &DatasetName) -> Finding {
    let (what, other) = match n.role {
        Role::Images => ("an images", "labels"),
        Role::Labels => ("a labels", "images"),
    };
    let sep = if n.prefix.is_empty() { "" } else { "-" };
    Finding::new(
        Rule::LoneFile,
        0,
        0,
        format!("{what} file without its {other} file in the same directory"),
    )
    .expected(format!("{}{sep}{other}-idx... beside it", n.prefix))
    .found(format!("no {other} file for {}", f.path))
    .hint("add the missing file, or pair files with other names explicitly (idx-validate --pair IMAGES LABELS)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{self, Read};

    /// Scans a labels file's values in one validation pass (a fixed buffer and
    /// an 8 KiB table whatever the size): `Report::labels` of
    /// `validate_reader` with `Options::scan_labels`. With
    /// `decompress`, gzip input (magic `1f 8b`) is decompressed. Returns `None`
    /// when validation found no header or not a labels header the rules accept
    /// (rank 1 of an integer type, or rank 2 of an integer type with a
    /// non-empty second dimension, as QMNIST's); a payload cut short is
    /// scanned as far as it goes.
    ///
    /// # Errors
    /// The reader's I/O errors.
    fn scan_labels<R: Read>(
        reader: R,
        decompress: bool,
        classes: Option<u32>,
    ) -> io::Result<Option<LabelScan>> {
        let opts = crate::Options::default()
            .with_decompress(decompress)
            .with_lints(false)
            .with_byte_order_test(false)
            .with_scan_labels(Some(classes));
        Ok(crate::validate_reader(reader, &opts)?.labels)
    }

    fn parts(name: &str) -> Option<(Role, String, Option<Split>, String, bool)> {
        dataset_name(name).map(|n| (n.role, n.prefix, n.split, n.dataset, n.gzip))
    }

    #[test]
    fn names_in_the_convention() {
        use Role::*;
        use Split::*;
        let s = |x: &str| x.to_string();
        assert_eq!(
            parts("train-images-idx3-ubyte"),
            Some((Images, s("train"), Some(Train), s(""), false))
        );
        assert_eq!(
            parts("data/t10k-labels.idx1-ubyte.GZ"),
            Some((Labels, s("t10k"), Some(Test), s(""), true))
        );
        assert_eq!(
            parts("emnist_balanced_test_images_idx3_ubyte"),
            Some((
                Images,
                s("emnist-balanced-test"),
                Some(Test),
                s("emnist-balanced-"),
                false
            ))
        );
        assert_eq!(
            parts("qmnist-train-labels-idx2-int"),
            Some((Labels, s("qmnist-train"), Some(Train), s("qmnist-"), false))
        );
        assert_eq!(
            parts("images-idx3-ubyte"),
            Some((Images, s(""), None, s(""), false))
        );
        // outside the convention
        assert_eq!(parts("train-images.npy"), None);
        assert_eq!(parts("train-imgs-idx3-ubyte"), None);
        assert_eq!(parts("train-images-idxx-ubyte"), None);
        assert_eq!(parts("train-images-idx3-"), None);
    }

    #[test]
    fn label_scan_counts_column_zero_of_rank_two() {
        // i32 [2, 3]: classes 1 and 4; other columns large
        let mut b = vec![0, 0, 0x0c, 2, 0, 0, 0, 2, 0, 0, 0, 3];
        for v in [1i32, 900, -5, 4, 1000, 7] {
            b.extend_from_slice(&v.to_be_bytes());
        }
        let s = scan_labels(&b[..], false, Some(3)).unwrap().unwrap(); // ok: unit test
        assert_eq!(s.count, 2);
        assert_eq!(s.min_max, Some((1, 4)));
        assert_eq!(s.first_out_of_range, Some((12 + 12, 4)));
        assert_eq!(s.gaps(), Some(vec![0, 2, 3]));
        // gzip input, decompressed on request only
        let gz = {
            use std::io::Write;
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(&b).unwrap(); // ok: unit test
            e.finish().unwrap() // ok: unit test
        };
        assert_eq!(scan_labels(&gz[..], true, Some(3)).unwrap(), Some(s)); // ok: unit test
        assert_eq!(scan_labels(&gz[..], false, Some(3)).unwrap(), None); // ok: unit test
    }

    /// Hands out one byte per read.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(out)) => {
                    *out = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn one_byte_labels_scan_the_same_in_one_chunk_and_byte_by_byte() {
        // u8 and i8 [5000] with values spread over the byte range: the
        // histogram path (whole chunks) against the per-element path
        for code in [0x08u8, 0x09] {
            for classes in [None, Some(10), Some(200)] {
                let mut b = vec![0, 0, code, 1, 0, 0, 0x13, 0x88];
                b.extend(
                    (0..5000u32).map(|i| (i * 7919 % 251) as u8 / 3 + (i % 97 == 50) as u8 * 170),
                );
                let whole = scan_labels(&b[..], false, classes).unwrap(); // ok: unit test
                let trickled = scan_labels(Trickle(&b), false, classes).unwrap(); // ok: unit test
                assert_eq!(whole, trickled, "type {code:02x}, classes {classes:?}");
                assert_eq!(whole.as_ref().map(|s| s.count), Some(5000));
            }
        }
    }
}
