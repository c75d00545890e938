//! The scan of a labels file's values (`LabelScan`): what it counts, where
//! it finds the first value out of range, which values it has seen, and
//! that the result does not depend on how the payload is cut into pieces.

use idx::__private::LabelScanner;
use idx::dataset::LabelScan;
use idx::{ElementType, Header, Options};

/// The scan of `bytes` (a whole file) made in one validation pass.
fn scan_of(bytes: &[u8], classes: Option<u32>) -> Option<LabelScan> {
    idx::validate_with(bytes, &Options::default().with_scan_labels(Some(classes))).labels
}

/// The scan of the payload of a file of header `h`, fed in `piece`-byte
/// pieces.
fn scan_in_pieces(h: &Header, payload: &[u8], classes: Option<u32>, piece: usize) -> LabelScan {
    let mut s = LabelScanner::new(h, classes).unwrap();
    for p in payload.chunks(piece) {
        s.feed(p);
    }
    s.finish()
}

fn file<T: idx::Element + idx::IntoData>(dims: Vec<usize>, values: Vec<T>) -> Vec<u8> {
    idx::to_bytes(&idx::Array::from_vec(dims, values).unwrap()).unwrap()
}

#[test]
fn only_integer_labels_of_rank_1_or_qmnist_rank_2_are_scanned() {
    let h = |t, dims| Header::new(t, dims).unwrap();
    for t in [
        ElementType::U8,
        ElementType::I8,
        ElementType::I16,
        ElementType::I32,
    ] {
        assert!(LabelScanner::new(&h(t, vec![3]), None).is_some(), "{t}");
        assert!(LabelScanner::new(&h(t, vec![3, 8]), None).is_some(), "{t}");
        assert!(LabelScanner::new(&h(t, vec![3, 0]), None).is_none(), "{t}");
        assert!(
            LabelScanner::new(&h(t, vec![3, 1, 1]), None).is_none(),
            "{t}"
        );
        assert!(LabelScanner::new(&h(t, vec![]), None).is_none(), "{t}");
    }
    for t in [ElementType::F32, ElementType::F64] {
        assert!(LabelScanner::new(&h(t, vec![3]), None).is_none(), "{t}");
    }
    // through validation: an images file gets no scan
    assert!(scan_of(&file(vec![2, 2, 1], vec![0u8; 4]), None).is_none());
    assert!(scan_of(&file(vec![2], vec![0u8; 2]), None).is_some());
}

#[test]
fn a_scan_counts_values_their_range_and_those_outside_the_classes() {
    // u8 [6]: 3 0 12 3 1 10 against 10 classes
    let s = scan_of(&file(vec![6], vec![3u8, 0, 12, 3, 1, 10]), Some(10)).unwrap();
    assert_eq!(s.count, 6);
    assert_eq!(s.min_max, Some((0, 12)));
    assert_eq!(s.out_of_range, 2);
    assert_eq!(s.first_out_of_range, Some((8 + 2, 12)));
    assert_eq!(s.classes, Some(10));
    assert!(s.seen(0) && s.seen(1) && s.seen(3) && s.seen(10) && s.seen(12));
    assert!(!s.seen(2) && !s.seen(11) && !s.seen(-1) && !s.seen(65536));
    assert_eq!(s.gaps(), Some(vec![2, 4, 5, 6, 7, 8, 9, 11]));
    // a class count equal to a value: that value is out (0..classes)
    let s = scan_of(&file(vec![2], vec![1u8, 2]), Some(2)).unwrap();
    assert_eq!((s.out_of_range, s.first_out_of_range), (1, Some((9, 2))));
    // without classes only negative values are out
    let s = scan_of(&file(vec![3], vec![5i8, -2, -3]), None).unwrap();
    assert_eq!((s.out_of_range, s.first_out_of_range), (2, Some((9, -2))));
    assert_eq!(s.min_max, Some((-3, 5)));
    assert!(!s.seen(-2));
    // no values: nothing seen, no gaps to list
    let s = scan_of(&file(vec![0], Vec::<u8>::new()), Some(3)).unwrap();
    assert_eq!((s.count, s.min_max, s.gaps()), (0, None, None));
}

#[test]
fn values_are_read_big_endian_and_signed_by_their_type() {
    let s = scan_of(&file(vec![3], vec![-300i16, 258, 7]), None).unwrap();
    assert_eq!(s.min_max, Some((-300, 258)));
    assert_eq!(s.first_out_of_range, Some((8, -300)));
    assert!(s.seen(258) && s.seen(7) && !s.seen(2) && !s.seen(1));
    let s = scan_of(&file(vec![2], vec![70_000i32, -1]), None).unwrap();
    assert_eq!(s.min_max, Some((-1, 70_000)));
    assert_eq!(s.first_out_of_range, Some((12, -1)));
    // beyond the tracked values: counted, not seen, no gaps
    assert!(!s.seen(70_000));
    assert_eq!(s.gaps(), None);
    let s = scan_of(&file(vec![2], vec![65_535i32, 0]), None).unwrap();
    assert!(s.seen(65_535));
    assert_eq!(s.gaps().map(|g| g.len()), Some(65_534));
    let s = scan_of(&file(vec![2], vec![-128i8, 127]), Some(100)).unwrap();
    assert_eq!(s.min_max, Some((-128, 127)));
    assert_eq!((s.out_of_range, s.first_out_of_range), (2, Some((8, -128))));
    // a negative maximum: no gaps
    let s = scan_of(&file(vec![1], vec![-4i8]), None).unwrap();
    assert_eq!(s.gaps(), None);
}

#[test]
fn a_rank_2_labels_file_is_scanned_in_its_first_column() {
    // i16 [3, 2]: classes 1, 2, 4; the second column holds 9s and -9s
    let b = file(vec![3, 2], vec![1i16, 9, 2, -9, 4, 9]);
    let s = scan_of(&b, Some(4)).unwrap();
    assert_eq!(s.count, 3);
    assert_eq!(s.min_max, Some((1, 4)));
    assert_eq!(
        (s.out_of_range, s.first_out_of_range),
        (1, Some((12 + 8, 4)))
    );
    assert!(!s.seen(9));
    // u8 [300, 2]: one-byte labels of rank 2 take the per-element path
    let mut values = Vec::new();
    for i in 0..300u32 {
        values.extend([(i % 5) as u8, 200]);
    }
    let s = scan_of(&file(vec![300, 2], values), Some(5)).unwrap();
    assert_eq!((s.count, s.min_max, s.out_of_range), (300, Some((0, 4)), 0));
}

#[test]
fn a_scan_is_the_same_whatever_the_pieces_it_is_fed_in() {
    // one-byte values over 600 elements (the chunk path from 256 bytes on),
    // i16 and i32 values split across pieces, rank 2 of i32
    let u8s: Vec<u8> = (0..600u32).map(|i| (i * 31 % 23) as u8).collect();
    let i8s: Vec<i8> = (0..600i32).map(|i| (i * 37 % 29 - 3) as i8).collect();
    let i16s: Vec<i16> = (0..300i32).map(|i| (i * 41 % 19 - 2) as i16).collect();
    let i32s: Vec<i32> = (0..300i32).map(|i| i * 43 % 17 - 1).collect();
    let cases: Vec<(Vec<u8>, Option<u32>)> = vec![
        (file(vec![600], u8s), Some(20)),
        (file(vec![600], i8s.clone()), Some(20)),
        (file(vec![600], i8s), None),
        (file(vec![300], i16s), Some(15)),
        (file(vec![300], i32s.clone()), Some(15)),
        (file(vec![100, 3], i32s), None),
    ];
    for (b, classes) in cases {
        let whole = scan_of(&b, classes).unwrap();
        let h = whole.header.clone();
        let payload = &b[h.header_len()..];
        for piece in [1, 2, 3, 5, 255, 256, 257, 599, 1000] {
            let s = scan_in_pieces(&h, payload, classes, piece);
            assert_eq!(s, whole, "{h:?}, {classes:?}, pieces of {piece}");
        }
        assert!(whole.first_out_of_range.is_some(), "{h:?}");
    }
}

#[test]
fn bytes_past_the_payload_are_not_scanned() {
    let h = Header::new(ElementType::U8, vec![300]).unwrap();
    let mut payload: Vec<u8> = (0..300u32).map(|i| (i % 3) as u8).collect();
    payload.extend([9u8; 400]);
    for piece in [1, 7, 256, 700] {
        let s = scan_in_pieces(&h, &payload, Some(3), piece);
        assert_eq!(
            (s.count, s.min_max, s.out_of_range),
            (300, Some((0, 2)), 0),
            "{piece}"
        );
    }
    let h = Header::new(ElementType::I16, vec![2]).unwrap();
    let payload = [0, 1, 0, 2, 0, 9, 0];
    for piece in [1, 2, 3, 7] {
        let mut s = LabelScanner::new(&h, None).unwrap();
        for p in payload.chunks(piece) {
            s.feed(p);
        }
        assert!(s.complete());
        let s = s.finish();
        assert_eq!((s.count, s.min_max), (2, Some((1, 2))), "{piece}");
    }
    // a payload cut short: scanned as far as it goes
    let mut s = LabelScanner::new(&h, None).unwrap();
    s.feed(&[0, 5, 0]);
    assert!(!s.complete());
    let s = s.finish();
    assert_eq!((s.count, s.min_max), (1, Some((5, 5))));
}

#[test]
fn the_first_value_out_of_range_is_located_in_any_chunk() {
    // u8 [600]: the first out-of-range value in the second chunk of 300
    let mut values = vec![1u8; 600];
    values[450] = 7;
    values[500] = 8;
    let b = file(vec![600], values);
    let s = scan_of(&b, Some(5)).unwrap();
    assert_eq!(
        (s.out_of_range, s.first_out_of_range),
        (2, Some((8 + 450, 7)))
    );
    let h = s.header.clone();
    for piece in [300, 256, 451, 600] {
        let p = scan_in_pieces(&h, &b[8..], Some(5), piece);
        assert_eq!(p.first_out_of_range, Some((8 + 450, 7)), "{piece}");
        assert_eq!(p.out_of_range, 2);
    }
}
