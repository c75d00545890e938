//! The dataset rules (IDX801-IDX806): files paired by name or explicitly,
//! the label checks, the split check and the lone-file warning, each
//! finding on the file it is reported on, with its offset and text.

use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
use idx::{ElementType, Finding, Header, Options};

/// A file known by its header alone.
fn file(path: &str, dtype: ElementType, dims: Vec<u32>) -> DatasetFile {
    DatasetFile {
        path: path.to_string(),
        header: Header::new(dtype, dims),
        ..DatasetFile::default()
    }
}

/// A u8 images file of `n` 2x2 items.
fn images(path: &str, n: u32) -> DatasetFile {
    file(path, ElementType::U8, vec![n, 2, 2])
}

/// A u8 labels file of `n` items, not scanned.
fn labels(path: &str, n: u32) -> DatasetFile {
    file(path, ElementType::U8, vec![n])
}

/// A labels file of `values`, scanned against `classes` as validation
/// scans it.
fn scanned<T: idx::Element + idx::IntoData>(
    path: &str,
    values: Vec<T>,
    classes: Option<u32>,
) -> DatasetFile {
    let bytes = idx::to_bytes(&idx::Array::from_vec(vec![values.len()], values).unwrap()).unwrap();
    let report = idx::validate_with(&bytes, &Options::default().with_scan_labels(Some(classes)));
    DatasetFile {
        path: path.to_string(),
        header: report.header,
        labels: report.labels,
        walked: false,
    }
}

fn walked(mut f: DatasetFile) -> DatasetFile {
    f.walked = true;
    f
}

fn check(files: &[DatasetFile], opts: &DatasetOptions) -> Vec<(usize, &'static str, u64, u64)> {
    check_dataset(files, opts)
        .iter()
        .map(|(i, f)| (*i, f.rule.code(), f.offset, f.length))
        .collect()
}

fn none() -> DatasetOptions {
    DatasetOptions::default()
}

fn pairs(pairs: Vec<(usize, usize)>) -> DatasetOptions {
    DatasetOptions {
        classes: None,
        pairs,
    }
}

fn classes(c: u32) -> DatasetOptions {
    DatasetOptions {
        classes: Some(c),
        pairs: vec![],
    }
}

fn only(files: &[DatasetFile], opts: &DatasetOptions) -> Finding {
    let found = check_dataset(files, opts);
    assert_eq!(found.len(), 1, "{found:?}");
    found.into_iter().next().unwrap().1
}

#[test]
fn a_pair_with_as_many_labels_as_images_has_no_findings() {
    let files = [
        images("m/train-images-idx3-ubyte", 5),
        labels("m/train-labels-idx1-ubyte", 5),
    ];
    assert_eq!(check(&files, &none()), []);
    // and walked: each has its partner
    let files = files.map(walked);
    assert_eq!(check(&files, &none()), []);
}

#[test]
fn fewer_labels_than_images_is_reported_on_the_labels_file_naming_the_images_file() {
    let files = [
        images("m/train-images-idx3-ubyte", 5),
        labels("m/train-labels-idx1-ubyte", 4),
    ];
    let f = only(&files, &none());
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX801", 4, 4));
    assert_eq!(
        f.message,
        "the labels file holds 4 items but its images file m/train-images-idx3-ubyte holds 5 items"
    );
    assert_eq!(
        f.expected.as_deref(),
        Some("5 (dimension 0 of m/train-images-idx3-ubyte)")
    );
    assert_eq!(f.found.as_deref(), Some("4"));
    assert!(f.hint.as_deref().unwrap().starts_with("labels are missing"));
    let r = f.related.unwrap();
    assert_eq!(
        (r.path.as_str(), r.offset, r.length),
        ("m/train-images-idx3-ubyte", 4, 4)
    );
    assert_eq!(check(&files, &none())[0].0, 1);
}

#[test]
fn more_labels_than_images_says_images_are_missing() {
    let files = [
        labels("train-labels-idx1-ubyte", 1),
        images("train-images-idx3-ubyte", 0),
    ];
    let found = check_dataset(&files, &none());
    assert_eq!(found.len(), 1, "{found:?}");
    let (i, f) = &found[0];
    assert_eq!((*i, f.rule.code()), (0, "IDX801"));
    assert_eq!(
        f.message,
        "the labels file holds 1 item but its images file train-images-idx3-ubyte holds 0 items"
    );
    assert!(f.hint.as_deref().unwrap().starts_with("images are missing"));
}

#[test]
fn a_pair_without_a_header_or_a_first_dimension_is_not_counted() {
    let mut no_header = labels("train-labels-idx1-ubyte", 4);
    no_header.header = None;
    let files = [images("train-images-idx3-ubyte", 5), no_header];
    assert_eq!(check(&files, &none()), []);
    // rank 0 images: no first dimension to compare
    let files = [
        file("train-images-idx3-ubyte", ElementType::U8, vec![]),
        labels("train-labels-idx1-ubyte", 4),
    ];
    assert_eq!(check(&files, &none()), []);
}

#[test]
fn files_pair_by_name_only_within_one_directory_and_one_prefix() {
    let files = [
        images("a/train-images-idx3-ubyte", 5),
        labels("b/train-labels-idx1-ubyte", 4),
        labels("a/t10k-labels-idx1-ubyte", 4),
    ];
    assert_eq!(check(&files, &none()), []);
    let files = files.map(walked);
    let found = check(&files, &none());
    assert_eq!(
        found,
        [
            (0, "IDX806", 0, 0),
            (1, "IDX806", 0, 0),
            (2, "IDX806", 0, 0)
        ]
    );
}

#[test]
fn an_images_file_pairs_with_the_labels_of_the_same_compression_first() {
    // the gzip labels hold the right count, the raw ones do not
    let files = [
        labels("train-labels-idx1-ubyte", 4),
        labels("train-labels-idx1-ubyte.gz", 5),
        images("train-images-idx3-ubyte.gz", 5),
    ];
    assert_eq!(check(&files, &none()), []);
    // raw images: the raw labels, whose count differs
    let files = [
        labels("train-labels-idx1-ubyte.gz", 5),
        labels("train-labels-idx1-ubyte", 4),
        images("train-images-idx3-ubyte", 5),
    ];
    assert_eq!(check(&files, &none()), [(1, "IDX801", 4, 4)]);
    // no labels of the same compression: the first candidate
    let files = [
        labels("train-labels-idx1-ubyte", 4),
        images("train-images-idx3-ubyte.gz", 5),
    ];
    assert_eq!(check(&files, &none()), [(0, "IDX801", 4, 4)]);
    // every candidate counts as paired: no lone-file warning for either
    let files = [
        walked(labels("train-labels-idx1-ubyte", 5)),
        walked(labels("train-labels-idx1-ubyte.gz", 5)),
        walked(images("train-images-idx3-ubyte.gz", 5)),
    ];
    assert_eq!(check(&files, &none()), []);
}

#[test]
fn an_explicit_pair_overrides_the_names() {
    // names outside the convention, paired explicitly
    let files = [images("x.idx", 3), labels("y.idx", 2)];
    assert_eq!(check(&files, &none()), []);
    assert_eq!(check(&files, &pairs(vec![(0, 1)])), [(1, "IDX801", 4, 4)]);
    // a file in an explicit pair is not paired by name as well
    let files = [
        images("train-images-idx3-ubyte", 5),
        labels("train-labels-idx1-ubyte", 4),
        labels("other.idx", 5),
        images("other-images.idx", 4),
    ];
    assert_eq!(check(&files, &pairs(vec![(0, 2)])), []);
    assert_eq!(check(&files, &pairs(vec![(3, 1)])), []);
    // explicitly paired files get no lone-file warning
    let files = [
        walked(images("x-images-idx3-ubyte", 3)),
        walked(labels("y.idx", 3)),
    ];
    assert_eq!(check(&files, &pairs(vec![(0, 1)])), []);
    // an explicitly paired labels file is checked as labels whatever its name
    let files = [images("x.idx", 3), file("y.idx", ElementType::F32, vec![3])];
    assert_eq!(check(&files, &pairs(vec![(0, 1)])), [(1, "IDX802", 2, 1)]);
}

#[test]
fn an_explicit_pair_leaves_the_other_files_to_be_paired_by_name() {
    let files = [
        images("x.idx", 3),
        labels("y.idx", 3),
        images("train-images-idx3-ubyte", 5),
        labels("train-labels-idx1-ubyte", 4),
    ];
    assert_eq!(check(&files, &pairs(vec![(0, 1)])), [(3, "IDX801", 4, 4)]);
    // and the labels file of the explicit pair first
    let files = [
        labels("y.idx", 3),
        images("x.idx", 3),
        labels("train-labels-idx1-ubyte", 4),
        images("train-images-idx3-ubyte", 5),
    ];
    assert_eq!(check(&files, &pairs(vec![(1, 0)])), [(2, "IDX801", 4, 4)]);
}

#[test]
fn a_rank_1_or_qmnist_rank_2_integer_labels_file_has_no_label_findings() {
    for dims in [vec![4], vec![4, 8], vec![0], vec![0, 1]] {
        for t in [
            ElementType::U8,
            ElementType::I8,
            ElementType::I16,
            ElementType::I32,
        ] {
            let files = [file("train-labels-idx1-ubyte", t, dims.clone())];
            assert_eq!(check(&files, &none()), [], "{t} {dims:?}");
        }
    }
}

#[test]
fn float_labels_are_reported_at_the_type_byte() {
    let files = [file("train-labels-idx1-ubyte", ElementType::F64, vec![4])];
    let f = only(&files, &none());
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX802", 2, 1));
    assert_eq!(
        f.message,
        "the labels file holds f64 values, not integer classes"
    );
    assert_eq!(f.found.as_deref(), Some("f64"));
}

#[test]
fn labels_of_another_rank_are_reported_at_the_rank_byte() {
    for dims in [vec![], vec![4, 2, 2], vec![4, 0]] {
        let rank = dims.len();
        let files = [file("train-labels-idx1-ubyte", ElementType::U8, dims)];
        let f = only(&files, &none());
        assert_eq!((f.rule.code(), f.offset, f.length), ("IDX802", 3, 1));
        assert_eq!(f.message, format!("the labels file has rank {rank}, not 1"));
        assert_eq!(f.found, Some(format!("rank {rank}")));
    }
    // float and of rank 3: both
    let files = [file("t-labels-idx3-ubyte", ElementType::F32, vec![1, 1, 1])];
    assert_eq!(
        check(&files, &none()),
        [(0, "IDX802", 2, 1), (0, "IDX802", 3, 1)]
    );
}

#[test]
fn only_labels_files_get_label_findings() {
    // an images file of floats and rank 3 is fine
    let files = [file(
        "train-images-idx3-ubyte",
        ElementType::F32,
        vec![1, 1, 1],
    )];
    assert_eq!(check(&files, &none()), []);
    let files = [file("x.idx", ElementType::F32, vec![1, 1, 1])];
    assert_eq!(check(&files, &none()), []);
}

#[test]
fn labels_outside_the_classes_are_counted_and_the_first_is_located() {
    // u8 [5]: 12 at offset 8 + 2, 10 at 8 + 4
    let files = [scanned(
        "train-labels-idx1-ubyte",
        vec![3u8, 0, 12, 3, 10],
        Some(10),
    )];
    let f = only(&files, &classes(10));
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX803", 10, 1));
    assert_eq!(
        f.message,
        "2 labels are outside the classes 0..9; the first is 12"
    );
    assert_eq!(f.expected.as_deref(), Some("a class in 0..9"));
    assert_eq!(f.found.as_deref(), Some("12"));
    // one, of i16: two bytes long
    let files = [scanned("train-labels-idx1-ubyte", vec![1i16, 300], Some(2))];
    let f = only(&files, &classes(2));
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX803", 10, 2));
    assert_eq!(
        f.message,
        "1 label is outside the classes 0..1; the first is 300"
    );
}

#[test]
fn a_negative_label_is_out_of_range_without_classes() {
    let files = [scanned("train-labels-idx1-ubyte", vec![0i8, 1, -1], None)];
    let f = only(&files, &none());
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX803", 10, 1));
    assert_eq!(
        f.message,
        "1 label is outside the classes 0 or more; the first is -1"
    );
    assert_eq!(f.expected.as_deref(), Some("a class in 0 or more"));
}

#[test]
fn classes_never_seen_below_the_largest_label_are_a_gap_without_classes() {
    // u8 [4]: 0, 3, 0, 3: 1 and 2 never occur
    let files = [scanned("train-labels-idx1-ubyte", vec![0u8, 3, 0, 3], None)];
    let f = only(&files, &none());
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX804", 8, 4));
    assert_eq!(
        f.message,
        "the labels run from 0 to 3 but 2 values never occur: 1, 2"
    );
    assert_eq!(f.expected.as_deref(), Some("every class in 0..3"));
    assert_eq!(f.found.as_deref(), Some("missing 1, 2"));
    // one missing value
    let files = [scanned("train-labels-idx1-ubyte", vec![0u8, 2], None)];
    let f = only(&files, &none());
    assert_eq!(
        f.message,
        "the labels run from 0 to 2 but 1 value never occurs: 1"
    );
    // with classes given the gap is not checked (the range is)
    let files = [scanned("train-labels-idx1-ubyte", vec![0u8, 3], Some(10))];
    assert_eq!(check(&files, &classes(10)), []);
    // no gap, no finding
    let files = [scanned("train-labels-idx1-ubyte", vec![2u8, 0, 1], None)];
    assert_eq!(check(&files, &none()), []);
}

#[test]
fn a_gap_lists_at_most_eight_missing_values() {
    let eight = [scanned("train-labels-idx1-ubyte", vec![0u8, 9], None)];
    let f = only(&eight, &none());
    assert_eq!(
        f.message,
        "the labels run from 0 to 9 but 8 values never occur: 1, 2, 3, 4, 5, 6, 7, 8"
    );
    assert_eq!(f.found.as_deref(), Some("missing 1, 2, 3, 4, 5, 6, 7, 8"));
    let nine = [scanned("train-labels-idx1-ubyte", vec![0u8, 10], None)];
    let f = only(&nine, &none());
    assert_eq!(
        f.message,
        "the labels run from 0 to 10 but 9 values never occur: 1, 2, 3, 4, 5, 6, 7, 8, ..."
    );
    assert_eq!(
        f.found.as_deref(),
        Some("missing 1, 2, 3, 4, 5, 6, 7, 8, ...")
    );
}

#[test]
fn a_test_split_of_another_item_type_or_shape_is_reported_on_the_test_images() {
    let train = images("m/train-images-idx3-ubyte", 6);
    // the same item shape and type: nothing
    let found = check(
        &[train.clone(), images("m/t10k-images-idx3-ubyte", 2)],
        &none(),
    );
    assert_eq!(found, []);
    // another type: the type byte
    let test = file("m/t10k-images-idx3-ubyte", ElementType::F32, vec![2, 2, 2]);
    let f = only(&[train.clone(), test], &none());
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX805", 2, 1));
    assert_eq!(
        f.message,
        "the test images are f32 [*, 2, 2] but the training images m/train-images-idx3-ubyte are u8 [*, 2, 2]"
    );
    assert_eq!(f.expected.as_deref(), Some("u8 [*, 2, 2]"));
    assert_eq!(f.found.as_deref(), Some("f32 [*, 2, 2]"));
    let r = f.related.unwrap();
    assert_eq!(
        (r.path.as_str(), r.offset, r.length),
        ("m/train-images-idx3-ubyte", 2, 1)
    );
    // another rank: the rank byte
    let test = file("m/t10k-images-idx3-ubyte", ElementType::U8, vec![2, 4]);
    let f = only(&[train.clone(), test], &none());
    assert_eq!((f.offset, f.length), (3, 1));
    // dimension 1 or 2 differs: that dimension's four bytes
    for (dims, offset) in [(vec![2, 3, 2], 8), (vec![2, 2, 3], 12)] {
        let test = file("m/t10k-images-idx3-ubyte", ElementType::U8, dims);
        let found = check(&[test, train.clone()], &none());
        assert_eq!(found, [(0, "IDX805", offset, 4)]);
    }
}

#[test]
fn splits_are_compared_within_one_dataset_and_directory() {
    let test = images("m/t10k-images-idx3-ubyte", 2);
    // another directory, another dataset, a labels file: not compared
    for other in [
        file("n/train-images-idx3-ubyte", ElementType::F32, vec![2, 2, 2]),
        file(
            "m/emnist-train-images-idx3-ubyte",
            ElementType::F32,
            vec![2, 2, 2],
        ),
        file("m/train-labels-idx1-ubyte", ElementType::F32, vec![2, 2, 2]),
        file(
            "m/t10k-images-idx3-ubyte.gz",
            ElementType::F32,
            vec![2, 2, 2],
        ),
    ] {
        let found = check(&[test.clone(), other.clone()], &none());
        assert!(
            !found.iter().any(|f| f.1 == "IDX805"),
            "{}: {found:?}",
            other.path
        );
    }
    // a training file without a header is not a candidate: the next is
    let mut unread = images("m/train-images-idx3-ubyte.gz", 1);
    unread.header = None;
    let other = file("m/train-images-idx3-ubyte", ElementType::F32, vec![2, 2, 2]);
    let found = check(&[unread, other, test.clone()], &none());
    assert_eq!(found, [(2, "IDX805", 2, 1)]);
    // a test file without a header is not compared
    let mut unread = images("m/t10k-images-idx3-ubyte", 1);
    unread.header = None;
    let other = file("m/train-images-idx3-ubyte", ElementType::F32, vec![2, 2, 2]);
    assert_eq!(check(&[unread, other], &none()), []);
}

#[test]
fn a_test_split_is_compared_with_the_training_split_of_its_compression_first() {
    let test = images("m/t10k-images-idx3-ubyte.gz", 2);
    let raw = file("m/train-images-idx3-ubyte", ElementType::F32, vec![2, 2, 2]);
    let gz = images("m/train-images-idx3-ubyte.gz", 6);
    assert_eq!(check(&[raw.clone(), gz.clone(), test.clone()], &none()), []);
    // without one of its compression: the first
    assert_eq!(
        check(&[raw.clone(), test.clone()], &none()),
        [(1, "IDX805", 2, 1)]
    );
    // a raw test split: the raw training split
    let test = images("m/t10k-images-idx3-ubyte", 2);
    assert_eq!(check(&[gz, raw, test], &none()), [(2, "IDX805", 2, 1)]);
}

#[test]
fn a_walked_file_without_its_partner_is_a_lone_file() {
    let files = [walked(images("m/train-images-idx3-ubyte", 5))];
    let f = only(&files, &none());
    assert_eq!((f.rule.code(), f.offset, f.length), ("IDX806", 0, 0));
    assert_eq!(
        f.message,
        "an images file without its labels file in the same directory"
    );
    assert_eq!(f.expected.as_deref(), Some("train-labels-idx... beside it"));
    assert_eq!(
        f.found.as_deref(),
        Some("no labels file for m/train-images-idx3-ubyte")
    );
    let files = [walked(labels("labels-idx1-ubyte", 5))];
    let f = only(&files, &none());
    assert_eq!(
        f.message,
        "a labels file without its images file in the same directory"
    );
    assert_eq!(f.expected.as_deref(), Some("images-idx... beside it"));
    // given by name rather than walked, or outside the convention: nothing
    assert_eq!(
        check(&[images("m/train-images-idx3-ubyte", 5)], &none()),
        []
    );
    assert_eq!(check(&[walked(images("m/x.idx", 5))], &none()), []);
}

#[test]
fn findings_are_ordered_by_file_then_offset() {
    // labels file 0: rank (offset 3) and float (2); images 1 count
    let files = [
        file("train-labels-idx3-ubyte", ElementType::F32, vec![4, 1, 1]),
        images("train-images-idx3-ubyte", 5),
        walked(labels("z-labels-idx1-ubyte", 1)),
    ];
    assert_eq!(
        check(&files, &none()),
        [
            (0, "IDX802", 2, 1),
            (0, "IDX802", 3, 1),
            (0, "IDX801", 4, 4),
            (2, "IDX806", 0, 0),
        ]
    );
}
